#!/bin/bash
# A jail in the background cannot change the terminal under the user's
# foreground job, nor leave its session (setsid, TIOCNOTTY: out of it, a
# process reads the terminal with no background rule): turning echo back on
# under its password prompt (TCSETS),
# resizing it (TIOCSWINSZ) or flushing what was typed (TCFLSH) is refused
# (EPERM, journaled) even with SIGTTOU ignored, and O_NONBLOCK set on its own
# descriptor does not reach the job's (the jail has an open file of its own).
# Control: in the foreground, the jail changes its terminal's settings.
# All with --share-terminal: the jail in the caller's terminal itself, as
# when no pseudo-terminal can be made (by default it gets one of its own,
# relayed: terminal-relayed.sh).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

mkdir -p "$WS/.probe"
cat >"$WS/.probe/meddle.py" <<'PY'
# meddle.py DELAY [OUT]: with OUT, through /dev/tty (descriptors 0-2 are not
# the terminal), writing the results to OUT.
import fcntl, os, signal, struct, sys, termios, time
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
signal.signal(signal.SIGTTIN, signal.SIG_IGN)
time.sleep(float(sys.argv[1]))
fd, out = 1, sys.stdout
if len(sys.argv) > 2:
    fd, out = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY), open(sys.argv[2], "w")
def attempt(name, f):
    try:
        f()
        print("MEDDLE:%s:OK" % name, file=out, flush=True)
    except (OSError, termios.error) as e:  # termios.error: (errno, text)
        print("MEDDLE:%s:%d" % (name, e.errno if isinstance(e, OSError) else e.args[0]),
              file=out, flush=True)
def echo_on():
    a = termios.tcgetattr(fd)
    a[3] |= termios.ECHO
    termios.tcsetattr(fd, termios.TCSANOW, a)
def take():
    os.setpgid(0, 0)
    os.tcsetpgrp(fd, os.getpgrp())
# Leaving the terminal's session first: out of it, the kernel's background
# rules no longer apply to reading the terminal.
attempt("SETSID", os.setsid)
attempt("TIOCNOTTY", lambda: fcntl.ioctl(fd, termios.TIOCNOTTY))
attempt("TCSETS", echo_on)
attempt("TIOCSWINSZ", lambda: fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 7, 13, 0, 0)))
attempt("TCFLSH", lambda: termios.tcflush(fd, termios.TCIFLUSH))
attempt("TIOCSSOFTCAR", lambda: fcntl.ioctl(fd, termios.TIOCSSOFTCAR, struct.pack("i", 1)))
attempt("NONBLOCK", lambda: fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK))
attempt("TIOCSPGRP", take)
PY
cat >"$WS/.probe/prompt.py" <<'PY'
# The user's foreground job: echo off (as a password prompt), then, once the
# jail has tried, what its terminal looks like.
import fcntl, os, struct, termios, time
a = termios.tcgetattr(0)
a[3] &= ~termios.ECHO
termios.tcsetattr(0, termios.TCSANOW, a)
size = fcntl.ioctl(0, termios.TIOCGWINSZ, b"\0" * 8)
clocal = bool(a[2] & termios.CLOCAL)
time.sleep(4)
now = termios.tcgetattr(0)
echo = bool(now[3] & termios.ECHO)
nonblock = bool(fcntl.fcntl(0, fcntl.F_GETFL) & os.O_NONBLOCK)
resized = fcntl.ioctl(0, termios.TIOCGWINSZ, b"\0" * 8) != size
softcar = bool(now[2] & termios.CLOCAL) != clocal
mine = os.tcgetpgrp(0) == os.getpgrp()
print("PROMPT:echo=%s:nonblock=%s:resized=%s:clocal=%s:foreground=%s"
      % (echo, nonblock, resized, softcar, mine), flush=True)
a[3] |= termios.ECHO
termios.tcsetattr(0, termios.TCSANOW, a)
PY
chmod -R a+rX "$WS/.probe"
PTY=$(install_probe pty_shell.py)

J=$RUN/j.jsonl
jail_argv --share-terminal -q --journal "$J" -- python3 "$WS/.probe/meddle.py" 2
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" type "$q &" "python3 '$WS/.probe/prompt.py'\\n" '?PROMPT:' ''
check_capture "the user's job reported its terminal" out_has PROMPT:
check_capture "from the background: turning echo on is refused (EPERM)" out_has MEDDLE:TCSETS:1
check_capture "from the background: resizing is refused" out_has MEDDLE:TIOCSWINSZ:1
check_capture "from the background: flushing the input is refused" out_has MEDDLE:TCFLSH:1
check_capture "from the background: setting CLOCAL is refused" out_has MEDDLE:TIOCSSOFTCAR:1
check_capture "from the background: taking the foreground is refused" out_has MEDDLE:TIOCSPGRP:1
check_capture "from the background: leaving the terminal's session is refused (setsid)" \
  out_has MEDDLE:SETSID:1
check_capture "from the background: ...and TIOCNOTTY" out_has MEDDLE:TIOCNOTTY:1
check_capture "the user's job: echo still off, not non-blocking, not resized, CLOCAL as was, \
in the foreground" out_has PROMPT:echo=False:nonblock=False:resized=False:clocal=False:foreground=True
check "journal: the refused TCSETS is a syscall.deny naming it" \
  python3 -c 'import json,sys
ev=[json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if any(e.get("event")=="syscall.deny" and "TCSETS" in e.get("args","") for e in ev) else 1)' "$J"

# The same with descriptors 0-2 redirected away from the terminal: the
# command still reaches it through /dev/tty (its controlling terminal).
jail_argv --share-terminal -q --journal off -- python3 "$WS/.probe/meddle.py" 2 "$WS/redirected.out"
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" type "$q </dev/null >/dev/null 2>&1 &" \
  "python3 '$WS/.probe/prompt.py'\n" '?PROMPT:' ''
prompt_line=$(printf '%s\n' "$OUT" | grep PROMPT: | tail -n1)
OUT=$(cat "$WS/redirected.out" 2>/dev/null; echo "$prompt_line")
check_capture "0-2 redirected, /dev/tty: echo, size, flush, CLOCAL, foreground all refused" \
  sh -c 'for r in SETSID TIOCNOTTY TCSETS TIOCSWINSZ TCFLSH TIOCSSOFTCAR TIOCSPGRP; do
    printf "%s\n" "$1" | grep -qx "MEDDLE:$r:1" || exit 1; done' sh "$OUT"
check_capture "0-2 redirected: the user's job's terminal is as it left it" \
  out_has PROMPT:echo=False:nonblock=False:resized=False:clocal=False:foreground=True

# In the foreground with 0-2 redirected, what the command changed through
# /dev/tty is given back when it ends.
cat >"$WS/.probe/echo_off.py" <<'PY'
import os, termios
fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
a = termios.tcgetattr(fd)
a[3] &= ~termios.ECHO
termios.tcsetattr(fd, termios.TCSANOW, a)
PY
chmod a+r "$WS/.probe/echo_off.py"
jail_argv --share-terminal -q --journal off -- python3 "$WS/.probe/echo_off.py"
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" job "$q </dev/null >/dev/null 2>&1; python3 -c 'import termios; print(\"ECHO-AFTER:%s\" % bool(termios.tcgetattr(0)[3] & termios.ECHO))'"
check_capture "foreground, 0-2 redirected: echo turned off through /dev/tty is back on after" \
  out_has ECHO-AFTER:True

jail_argv --share-terminal -q --journal off -- python3 "$WS/.probe/meddle.py" 0
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" job "$q"
check_capture "control, in the foreground: a session of its own can be made (setsid)" \
  out_has MEDDLE:SETSID:OK
check_capture "control, in the foreground: the terminal's settings can be changed" \
  out_has MEDDLE:TCSETS:OK
check_capture "control, in the foreground: ...and its size" out_has MEDDLE:TIOCSWINSZ:OK
finish
