#!/bin/bash
# TIOCSTI (push characters into the terminal's input, so that the user's shell
# runs them after the session) is refused inside the jail, also when the
# request number carries high bits the kernel ignores.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v script >/dev/null || die "script(1) (util-linux) is needed"

probe=$(install_probe sysprobe)
# script(1) gives the probe a pseudo terminal on stdin; the input is empty.
# A successful TIOCSTI pushes a space, which the terminal echoes: strip it.
in_pty() { as_user script -qec "$*" /dev/null </dev/null | tr -d '\r' | sed 's/^\^@//' | sed 's/^ *//'; }

OUT=$(in_pty "$probe" tiocsti)
ERR="" RC=0
if printf '%s\n' "$OUT" | grep -qx OK:tiocsti; then
  pass "control: TIOCSTI works on the terminal as $TEST_USER without the jail"
elif [ "$HARNESS_UID" -eq 0 ] && script -qec "$probe tiocsti" /dev/null </dev/null | tr -d '\r' | sed 's/^\^@//' |
  grep -qE '^ *OK:tiocsti$'; then
  pass "control: TIOCSTI works as host root without the jail (dev.tty.legacy_tiocsti=$(cat /proc/sys/dev/tty/legacy_tiocsti 2>/dev/null))"
else
  skip "TIOCSTI is refused on this host even without the jail: $(echo $OUT)"
fi
check_capture "control: TIOCSTI with high bits set in the request works too (the kernel ignores them)" \
  out_has_line OK:tiocsti_hibits

OUT=$(in_pty "$AJ" --profile-dir "$PROFILES" $([ "$AJ_TEST_MODE" = nouserns ] && echo --no-userns) -- "$probe" tiocsti)
check_capture "inside: stdin is a terminal (the probe could try)" out_lacks NOTTY
check_capture "inside: TIOCSTI is refused" out_has "ERR:tiocsti:"
check_capture "inside: TIOCSTI with high bits set in the request is refused" out_has "ERR:tiocsti_hibits:"

finish
