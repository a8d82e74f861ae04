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

# Sharing the caller's terminal (--share-terminal), the command may move its
# foreground to another process group of the caller's session (without user
# namespaces), where the user's next ^C would land: the supervisor gives it
# back.
if command -v script >/dev/null; then
  cat >"$WS/fg.py" <<'PY'
import os, sys
try:
    os.tcsetpgrp(0, int(sys.argv[1]))
except OSError as e:
    print("MOVE:" + os.strerror(e.errno))
PY
  chown "$TEST_UID:$TEST_GID" "$WS/fg.py"
  jail_argv --share-terminal -- /usr/bin/python3 fg.py
  inner='python3 -c "import os,time; os.setpgid(0,0); time.sleep(20)" & v=$!; sleep 0.3
before=$(ps -o tpgid= -p $$ | tr -d " "); "$@" $v >/dev/null 2>&1
after=$(ps -o tpgid= -p $$ | tr -d " "); kill $v; echo "FG:$before:$after"'
  OUT=$(as_user script -qec "sh -c '$inner' sh ${JAIL_ARGV[*]}" /dev/null </dev/null 2>&1 | tr -d '\r' | sed 's/^\^@//')
  fg=$(printf '%s\n' "$OUT" | sed -n 's/^FG://p' | head -n1)
  OUT="terminal foreground before:after the session = $fg"
  check_capture "the terminal's foreground is the caller's again after the session" \
    sh -c '[ -n "${1%%:*}" ] && [ "${1%%:*}" = "${1#*:}" ]' sh "$fg"
  # Nor may it leave the caller's terminal changed: its line discipline
  # (TIOCSETD is refused) or its settings (echo off: given back).
  cat >"$WS/tty.py" <<'PY'
import fcntl, os, struct, termios
try:
    fcntl.ioctl(0, termios.TIOCSETD, struct.pack("i", 27))  # N_NULL
    print("SETD:DONE")
except OSError as e:
    print("SETD:" + os.strerror(e.errno))
a = termios.tcgetattr(0)
a[3] &= ~termios.ECHO
termios.tcsetattr(0, termios.TCSANOW, a)
PY
  chown "$TEST_UID:$TEST_GID" "$WS/tty.py"
  jail_argv -- /usr/bin/python3 tty.py
  inner='"$@"; stty -a | tr " " "\n" | grep -x -- "-\{0,1\}echo" | sed "s/^/ECHO:/"'
  OUT=$(as_user script -qec "sh -c '$inner' sh ${JAIL_ARGV[*]}" /dev/null </dev/null 2>&1 | tr -d '\r' | sed 's/^\^@//')
  # (On the jail's own terminal, which the relay keeps raw, script(1) types
  # a NUL when its stdin ends: echoed there as ^@ before the line.)
  check_capture "inside: the terminal's line discipline cannot be changed" \
    out_has "SETD:Operation not permitted"
  check_capture "after the session: the terminal echoes again" out_has_line "ECHO:echo"
else
  note "script(1) is not installed: the terminal foreground check is not run"
fi

# The status flags of the files the caller hands over (stdout to a file,
# stdin from a pipe) are the caller's too: O_NONBLOCK or O_APPEND set inside
# are taken back when the session ends.
cat >"$RUN/flags.py" <<'PY'
import fcntl, os, subprocess, sys
out = open(sys.argv[1], "w")
r, w = os.pipe()
before = (fcntl.fcntl(out, fcntl.F_GETFL), fcntl.fcntl(r, fcntl.F_GETFL))
subprocess.run(sys.argv[2:] + ["/usr/bin/python3", "-c",
    "import fcntl, os\nfor fd in (0, 1): fcntl.fcntl(fd, fcntl.F_SETFL, os.O_NONBLOCK | os.O_APPEND)"],
    stdin=r, stdout=out)
after = (fcntl.fcntl(out, fcntl.F_GETFL), fcntl.fcntl(r, fcntl.F_GETFL))
print("FLAGS:%s" % ("kept" if before == after else "changed %s -> %s" % (before, after)))
PY
jail_argv --journal off --
capture as_user /usr/bin/python3 "$RUN/flags.py" "$RUN/out.txt" "${JAIL_ARGV[@]}"
check_capture "after the session: stdin's and stdout's status flags are the caller's again" \
  out_has_line FLAGS:kept

finish
