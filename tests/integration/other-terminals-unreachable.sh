#!/bin/bash
# The command cannot open the user's other terminals: with user namespaces
# /dev/pts is a fresh instance holding only the jail's own; without them
# (--no-userns) Landlock grants only the caller's own terminal, not the
# host's /dev/pts, where every terminal of the user (root: of everyone) could
# be read, stealing what is typed there, or written, faking prompts. Nor the
# host's /dev/console.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"
install_probe tryop.py >/dev/null

# Another terminal of the user's, held open on the host.
start_bg /usr/bin/python3 -c 'import os, pty, sys, time
m, s = pty.openpty()
open(sys.argv[1], "w").write(os.ttyname(s))
time.sleep(120)' "$RUN/pty.name"
wait_until 5 [ -s "$RUN/pty.name" ] || die "the host terminal did not open"
other=$(cat "$RUN/pty.name")
probe='import os, sys
sys.path.insert(0, ".probe")
from tryop import t
t("open_other", lambda: os.open(sys.argv[1], os.O_RDWR | os.O_NOCTTY))
t("open_console", lambda: os.open("/dev/console", os.O_WRONLY | os.O_NOCTTY))'

capture as_user /usr/bin/python3 -c "$probe" "$other"
check_capture "control: the other terminal ($other) opens without the jail" out_has_line OK:open_other

capture jail -- /usr/bin/python3 -c "$probe" "$other"
check_capture "the jailed probe ran (exit 0)" rc_is 0
check_capture "inside: the other terminal cannot be opened" out_matches "^ERR:open_other:"
check_capture "inside: /dev/console cannot be opened (no terminal here)" out_matches "^ERR:open_console:"

finish
