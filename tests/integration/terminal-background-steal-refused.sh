#!/bin/bash
# A jail run in the background of a job-control shell (`agentjail -- cmd &`)
# may not take the terminal: tcsetpgrp while another job (the user's shell)
# holds the foreground is refused (EPERM, journaled), even with SIGTTOU
# ignored; nor may it join the shell's process group (reachable without a
# PID namespace), so it cannot read what the user types to their shell. In
# the foreground, job control inside the jail works: an interactive bash
# makes a group of its own and takes the terminal, and hands it on. And ^Z
# stops the whole session, not only agentjail: a jailed process ignoring
# SIGTSTP does not read on what is typed to the shell; fg resumes it. A jail
# ending in the background leaves the terminal alone.
# All with --share-terminal: the jail in the caller's terminal itself, as
# when no pseudo-terminal can be made (by default it gets one of its own,
# relayed: terminal-relayed.sh).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

mkdir -p "$WS/.probe"
cat >"$WS/.probe/take.py" <<'PY'
import os, signal
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
signal.signal(signal.SIGTTIN, signal.SIG_IGN)
try:
    os.setpgid(0, 0)
except OSError:
    pass
try:
    os.tcsetpgrp(0, os.getpgrp())
    print("TAKE:OK", flush=True)
except OSError as e:
    print("TAKE:REFUSED:%d" % e.errno, flush=True)
PY
cat >"$WS/.probe/give.py" <<'PY'
# As a job-control shell does: a group of its own, the terminal, then a
# job in a group of its own given the terminal, and the terminal taken back.
import os, signal, time
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
os.setpgid(0, 0)
os.tcsetpgrp(0, os.getpgrp())
c = os.fork()
if c == 0:
    os.setpgid(0, 0)
    time.sleep(2)
    os._exit(0)
os.setpgid(c, c)
try:
    os.tcsetpgrp(0, c)
    print("GIVE:OK", flush=True)
    os.tcsetpgrp(0, os.getpgrp())
    print("BACK:OK", flush=True)
except OSError as e:
    print("GIVE:REFUSED:%d" % e.errno, flush=True)
os.waitpid(c, 0)
PY
chmod -R a+rX "$WS/.probe"
# Outside: a pseudo terminal with the user's shell (probe/pty_shell.py).
PTY=$(install_probe pty_shell.py)

J=$RUN/j.jsonl
jail_argv --share-terminal -q --journal "$J" -- python3 "$WS/.probe/take.py"
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" job "$q & wait"
check_capture "in the background: taking the terminal is refused (EPERM)" out_has TAKE:REFUSED:1
check_capture "in the background: ...and never granted" out_lacks TAKE:OK
check "journal: the refused TIOCSPGRP is a syscall.deny" \
  python3 -c 'import json,sys
ev=[json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if any(e.get("event")=="syscall.deny" and "TIOCSPGRP" in e.get("args","") for e in ev) else 1)' "$J"

# Joining the shell's process group (the session leader's), then reading.
cat >"$WS/.probe/join.py" <<'PY'
import os, signal
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
try:
    os.setpgid(0, os.getsid(0))
    print("JOIN:OK:%d" % os.getsid(0), flush=True)
except OSError as e:
    print("JOIN:REFUSED:%d" % e.errno, flush=True)
PY
chmod a+r "$WS/.probe/join.py"
jail_argv --share-terminal -q --journal off -- python3 "$WS/.probe/join.py"
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" job "$q & wait"
if [ "$AJ_TEST_MODE" = nouserns ]; then
  check_capture "no PID namespace: joining the shell's process group is refused" out_has JOIN:REFUSED:1
else
  # The shell's session and groups are not in the jail's PID namespace:
  # getsid says 0, and setpgid(0, 0) makes a group of its own.
  check_capture "PID namespace: the shell's process group is out of reach" out_has JOIN:OK:0
fi

# An interactive shell inside the jail, in the foreground: its prompt
# comes, it runs what is typed, and its job control works.
jail_argv --share-terminal -q --journal off --env PS1=PROMPT\> -- bash --norc -i
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" job "$q" 'PROMPT>' 'sleep 0.2 & fg; echo INSIDE-$((6*7)); exit\n'
check_capture "an interactive bash inside: it ran what was typed, a job in fg included" out_has INSIDE-42
check_capture "an interactive bash inside: with job control" out_lacks "no job control"

# ^Z stops the whole session with agentjail: a jailed process that ignores
# SIGTSTP must not read what is then typed to the shell; fg resumes it.
cat >"$WS/.probe/ztstp.py" <<'PY'
import os, signal, sys
for s in (signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU):
    signal.signal(s, signal.SIG_IGN)
print("READER:READY", flush=True)
while True:
    line = sys.stdin.readline()
    print("JAIL-READ:" + line.strip(), flush=True)
    if line.strip() == "bye" or not line:
        break
PY
chmod a+r "$WS/.probe/ztstp.py"
jail_argv --share-terminal -q --journal off -- python3 "$WS/.probe/ztstp.py"
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" type "$q" '\x1a' 'echo SHELL-GOT-$((6*7))\n' 'fg\n' 'bye\n'
check_capture "^Z: the jailed reader was running" out_has READER:READY
check_capture "^Z: what was typed next reached the shell" out_has SHELL-GOT-42
check_capture "^Z: ...and not the stopped session" out_lacks "JAIL-READ:echo"
check_capture "fg: the session went on and read again" out_has JAIL-READ:bye

# A jail ending in the background leaves the terminal to the job that holds
# it. Typed to an interactive shell: the jail (2 s) in the background at 0 s;
# at 1.5 s a foreground job, which reads the terminal once it has slept 2 s;
# at 3 s a line for it. The jail's end used to give the foreground back to
# the shell, stopping that job, and the line went to the shell.
cat >"$WS/.probe/victim.py" <<'PY'
import sys, time
time.sleep(float(sys.argv[1]))
print("VICTIM-GOT:" + open("/dev/tty").readline().strip(), flush=True)
PY
chmod a+r "$WS/.probe/victim.py"
jail_argv --share-terminal -q --journal off -- sleep 2
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" type "$q &" "python3 '$WS/.probe/victim.py' 2\n" 'typed-line\n' '?VICTIM-GOT' ''
check_capture "a jail ending in the background: the foreground job got the typed line" \
  out_has VICTIM-GOT:typed-line
check_capture "a jail ending in the background: ...which was not stopped" out_lacks Stopped
check_capture "a jail ending in the background: ...and the shell did not get it" \
  out_lacks "typed-line: command not found"

# The same after ^Z and bg: the jail (6 s) in the foreground, stopped with
# ^Z once it has started, put in the background, then a foreground job (it
# reads after 3.5 s) and its line; some steps wait for what comes before.
jail_argv --share-terminal -q --journal off -- sh -c 'echo JAIL-$((6*7)); sleep 6'
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" type "$q" '?JAIL-42' '\x1a' '?Stopped' 'bg\n' \
  "python3 '$WS/.probe/victim.py' 3.5\n" 'typed-line\n' '?VICTIM-GOT' ''
check_capture "a jail ending after ^Z and bg: it was stopped, then went on in the background" \
  out_has Stopped
check_capture "a jail ending after ^Z and bg: the foreground job got the typed line" \
  out_has VICTIM-GOT:typed-line
check_capture "a jail ending after ^Z and bg: ...and the shell did not get it" \
  out_lacks "typed-line: command not found"

jail_argv --share-terminal -q --journal off -- python3 "$WS/.probe/give.py"
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" job "$q"
check_capture "control, in the foreground: the terminal can be handed to a group of the jail" \
  out_has GIVE:OK
check_capture "control, in the foreground: ...and taken back" out_has BACK:OK
finish
