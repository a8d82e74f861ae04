#!/bin/bash
# The terminal keeps working for interactive programs: run under a pseudo
# terminal (script(1)), the command's stdin and stdout are terminals, termios
# calls work, it reads what is typed, and tty(1) names a device.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v script >/dev/null || die "script(1) (util-linux) is needed"

token=$(unique_token)
probe='[ -t 0 ] && echo STDIN:TTY || echo STDIN:NOTTY
[ -t 1 ] && echo STDOUT:TTY || echo STDOUT:NOTTY
stty -g >/dev/null 2>&1 && echo TERMIOS:OK || echo TERMIOS:FAILED
t=$(tty) && echo "TTYNAME:OK:$t" || echo "TTYNAME:FAILED:$t"
read -r line && echo "TYPED:$line" || echo TYPED:NOTHING'
mkdir -p "$WS/.probe"
printf '%s\n' "$probe" >"$WS/.probe/tty.sh"
chmod -R a+rX "$WS/.probe"
# script(1) runs the command line on a fresh pty; its stdin is what is "typed".
in_pty() {
  printf 'typed-%s\n' "$token" | as_user script -qec "$*" /dev/null | tr -d '\r'
}

OUT=$(in_pty sh "$WS/.probe/tty.sh")
RC=$?
ERR=""
check_capture "control: without the jail, stdin is a terminal" out_has_line STDIN:TTY
check_capture "control: without the jail, the command reads what is typed" \
  out_has_line "TYPED:typed-$token"

OUT=$(in_pty "$AJ" --profile-dir "$PROFILES" -- sh "$WS/.probe/tty.sh")
RC=$?
check_capture "inside: stdin is a terminal" out_has_line STDIN:TTY
check_capture "inside: stdout is a terminal" out_has_line STDOUT:TTY
check_capture "inside: termios works (stty -g)" out_has_line TERMIOS:OK
# The host's /dev/pts/N is not mounted inside (that would expose every other
# terminal of the user); the terminal the command holds is bound at
# /dev/console, as bubblewrap does, so tty(1) names it.
check_capture "inside: tty(1) names the terminal" out_has "TTYNAME:OK:/dev/"
check_capture "inside: the command reads what is typed" out_has_line "TYPED:typed-$token"

finish
