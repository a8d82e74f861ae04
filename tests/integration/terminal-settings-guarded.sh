#!/bin/bash
# A jail in the background cannot change the terminal under the user's
# foreground job: turning echo back on under its password prompt (TCSETS),
# resizing it (TIOCSWINSZ) or flushing what was typed (TCFLSH) is refused
# (EPERM, journaled) even with SIGTTOU ignored, and O_NONBLOCK set on its own
# descriptor does not reach the job's (the jail has an open file of its own).
# Control: in the foreground, the jail changes its terminal's settings.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

mkdir -p "$WS/.probe"
cat >"$WS/.probe/meddle.py" <<'PY'
import fcntl, os, signal, struct, sys, termios, time
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
time.sleep(float(sys.argv[1]))
def attempt(name, f):
    try:
        f()
        print("MEDDLE:%s:OK" % name, flush=True)
    except (OSError, termios.error) as e:  # termios.error: (errno, text)
        print("MEDDLE:%s:%d" % (name, e.errno if isinstance(e, OSError) else e.args[0]), flush=True)
def echo_on():
    a = termios.tcgetattr(1)
    a[3] |= termios.ECHO
    termios.tcsetattr(1, termios.TCSANOW, a)
attempt("TCSETS", echo_on)
attempt("TIOCSWINSZ", lambda: fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 7, 13, 0, 0)))
attempt("TCFLSH", lambda: termios.tcflush(1, termios.TCIFLUSH))
attempt("NONBLOCK", lambda: fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_NONBLOCK))
PY
cat >"$WS/.probe/prompt.py" <<'PY'
# The user's foreground job: echo off (as a password prompt), then, once the
# jail has tried, what its terminal looks like.
import fcntl, os, struct, termios, time
a = termios.tcgetattr(0)
a[3] &= ~termios.ECHO
termios.tcsetattr(0, termios.TCSANOW, a)
size = fcntl.ioctl(0, termios.TIOCGWINSZ, b"\0" * 8)
time.sleep(4)
echo = bool(termios.tcgetattr(0)[3] & termios.ECHO)
nonblock = bool(fcntl.fcntl(0, fcntl.F_GETFL) & os.O_NONBLOCK)
resized = fcntl.ioctl(0, termios.TIOCGWINSZ, b"\0" * 8) != size
print("PROMPT:echo=%s:nonblock=%s:resized=%s" % (echo, nonblock, resized), flush=True)
a[3] |= termios.ECHO
termios.tcsetattr(0, termios.TCSANOW, a)
PY
chmod -R a+rX "$WS/.probe"
PTY=$(install_probe pty_shell.py)

J=$RUN/j.jsonl
jail_argv -q --journal "$J" -- python3 "$WS/.probe/meddle.py" 2
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" type "$q &" "python3 '$WS/.probe/prompt.py'\\n" '?PROMPT:' ''
check_capture "the user's job reported its terminal" out_has PROMPT:
check_capture "from the background: turning echo on is refused (EPERM)" out_has MEDDLE:TCSETS:1
check_capture "from the background: resizing is refused" out_has MEDDLE:TIOCSWINSZ:1
check_capture "from the background: flushing the input is refused" out_has MEDDLE:TCFLSH:1
check_capture "the user's job: echo still off, not non-blocking, not resized" \
  out_has PROMPT:echo=False:nonblock=False:resized=False
check "journal: the refused TCSETS is a syscall.deny naming it" \
  python3 -c 'import json,sys
ev=[json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if any(e.get("event")=="syscall.deny" and "TCSETS" in e.get("args","") for e in ev) else 1)' "$J"

jail_argv -q --journal off -- python3 "$WS/.probe/meddle.py" 0
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" job "$q"
check_capture "control, in the foreground: the terminal's settings can be changed" \
  out_has MEDDLE:TCSETS:OK
check_capture "control, in the foreground: ...and its size" out_has MEDDLE:TIOCSWINSZ:OK
finish
