#!/bin/bash
# Run from a terminal, the command gets a pseudo-terminal of its own (the
# default) and the supervisor relays between it and the user's: no process
# of the jail holds the user's terminal. A process that leaves the jail's
# session keeping its descriptor, and reads on after the user's ^Z and bg,
# gets nothing of what is typed to the shell (on a shared terminal it read
# it: the kernel's background rules do not reach a process out of the
# terminal's session). Typing to the command works in the foreground, also
# after a background start and fg; ^Z stops the job and the shell gets the
# terminal; the output arrives whole and in order; the window size is the
# user's; the user's terminal settings are given back. Driven by a
# job-control shell on a pseudo terminal (probe/pty_shell.py).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"
PTY=$(install_probe pty_shell.py)
token=$(unique_token)

mkdir -p "$WS/.probe"
# A child leaves the session (setsid) with descriptor 0 and logs whatever it
# reads; the command itself waits.
cat >"$WS/.probe/leaver.py" <<'PY'
import os, sys, time
log_path = sys.argv[1]
if os.fork() == 0:
    os.setsid()
    with open(log_path, "ab", buffering=0) as log:
        log.write(b"LEAVER:READY\n")
        end = time.time() + 25
        while time.time() < end:
            try:
                data = os.read(0, 100)
            except OSError as e:
                log.write(b"ERR:%d\n" % e.errno)
                time.sleep(0.2)
                continue
            if not data:
                time.sleep(0.2)
                continue
            log.write(b"GOT:" + data + b"\n")
    os._exit(0)
time.sleep(0.5)
print("JAIL:STARTED", flush=True)
time.sleep(25)
PY
chmod -R a+rX "$WS/.probe"
: >"$WS/leaver.log"
chown "$TEST_UID:$TEST_GID" "$WS/leaver.log"

jail_argv -q --journal off -- python3 "$WS/.probe/leaver.py" "$WS/leaver.log"
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" type "$q" '?JAIL:STARTED' '\x1a' '?Stopped' 'bg\n' \
  'read -r s; echo "SHELL-GOT:$s"\n' "secret-$token\n" '?SHELL-GOT' 'kill %1\n'
check_capture "^Z stopped agentjail: the shell got the terminal" out_has Stopped
check_capture "after bg: the shell read what was typed" out_has "SHELL-GOT:secret-$token"
check "the process that left the session was reading" grep -q LEAVER:READY "$WS/leaver.log"
OUT=$(cat "$WS/leaver.log")
ERR=""
check_capture "...and did not get what was typed to the shell" out_lacks "secret-$token"

# Typing to the command in the foreground; the user's settings afterwards.
jail_argv -q --journal off -- sh -c 'read -r x; echo "JAIL-GOT:$x"; stty -echo'
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" type "s0=\$(stty -g); $q; [ \"\$(stty -g)\" = \"\$s0\" ] && echo TTY-SAME:\$((6*7))" \
  "typed-$token\n" '?TTY-SAME'
check_capture "foreground: the command read what was typed" out_has "JAIL-GOT:typed-$token"
check_capture "after the session: the user's terminal settings are as before" out_has TTY-SAME:42

# Started in the background, then brought to the foreground by fg (no
# SIGCONT comes for a running job): typing reaches it then.
jail_argv -q --journal off -- sh -c 'sleep 1; read -r x; echo "LATE-GOT:$x"'
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" type "$q &" 'echo SHELL-$((6*7))\n' 'fg\n' "late-$token\n" '?LATE-GOT'
check_capture "background start: the shell kept the terminal" out_has SHELL-42
check_capture "...and after fg the command read what was typed" out_has "LATE-GOT:late-$token"

# The command's output, whole and in order; the size of the user's window;
# the jail's terminal is not the user's.
jail_argv -q --journal off -- sh -c 'stty size; readlink /proc/self/fd/0 | sed "s/^/INSIDE-TTY:/"; seq 1 40000; echo OUT-END'
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" type "stty rows 33 cols 101; echo OUTSIDE-TTY:\$(tty); $q" '?OUT-END'
check_capture "the window size inside is the user's" out_has_line "33 101"
check_capture "every line of the output arrived, in order" \
  python3 -c 'import sys
nums = [int(l) for l in sys.stdin.read().splitlines() if l.isdigit()]
sys.exit(0 if nums == list(range(1, 40001)) else 1)' <<<"$OUT"
outside=$(printf '%s\n' "$OUT" | sed -n 's/^OUTSIDE-TTY://p' | head -n1)
inside=$(printf '%s\n' "$OUT" | sed -n 's/^INSIDE-TTY://p' | head -n1)
check_capture "the jail's terminal ($inside) is not the user's ($outside)" \
  sh -c '[ -n "$1" ] && [ -n "$2" ] && [ "$1" != "$2" ]' sh "$inside" "$outside"

# In a pipeline the terminal is the other programs' too: the jail shares it
# (no raw mode forced on a password prompt after it), and nothing is given
# back over the settings the prompt set (its echo off stays off while it
# reads; the shell's terminal is sane afterwards).
cat >"$WS/.probe/pwprompt.py" <<'PY'
import getpass
print("PROMPT-GOT:" + getpass.getpass("password: "))
PY
chmod a+r "$WS/.probe/pwprompt.py"
jail_argv -q --journal off -- sleep 2
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" type "$q | python3 '$WS/.probe/pwprompt.py'" '?password:' '' \
  "pw-$token\n" '?PROMPT-GOT' 'stty -a | tr " " "\n" | grep -x -- "-\{0,1\}\(echo\|icanon\)" | sed "s/^/TTY:/"\n' '?TTY:'
check_capture "pipeline: the prompt after the jail read the password" out_has "PROMPT-GOT:pw-$token"
check_capture "...which was not echoed" out_lacks "password: pw-$token"
check_capture "...and the terminal is sane afterwards (echo, icanon)" \
  sh -c 'printf "%s\n" "$1" | grep -qx TTY:echo && printf "%s\n" "$1" | grep -qx TTY:icanon' sh "$OUT"

# A command that stops itself with SIGSTOP (not ^Z) stops agentjail too:
# the shell gets the terminal back, not left raw with a stopped command; fg
# resumes it.
jail_argv -q --journal off -- sh -c 'kill -STOP $$; echo RESUMED-$((6*7))'
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$PTY" type "$q" '?Stopped' 'echo SHELL-BACK-$((6*7))\n' 'fg\n' '?RESUMED-42'
check_capture "SIGSTOP of the command: the shell got the terminal back" out_has SHELL-BACK-42
check_capture "...and fg resumed the command" out_has RESUMED-42

# The user's terminal hangs up under a session that ignores SIGHUP: the
# supervisor does not spin on the dead terminal meanwhile (it used ~100 %
# of a CPU until the escalation killed the session).
hup_token=hup-$(unique_token)
jail_argv -q --journal off -- sh -c "trap \"\" HUP; sleep 30; echo $hup_token"
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
as_user python3 "$PTY" type "$q" '' >/dev/null 2>&1
sup=$(ps -eww -o pid=,args= | awk -v t="$hup_token" 'index($0, t) && $2 ~ /agentjail$/ {print $1; exit}')
if [ -n "$sup" ] && [ -r "/proc/$sup/stat" ]; then
  ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
  t0=$(ticks "$sup")
  sleep 1
  t1=$(ticks "$sup")
  OUT="supervisor CPU over 1 s after the hang-up: $((t1 - t0)) ticks" ERR="" RC=0
  check_capture "after the terminal's hang-up the supervisor is idle (< 20 ticks in 1 s)" \
    int_le $((t1 - t0)) 19
else
  note "the session had already ended when looked at: nothing to measure"
fi

# No shell with job control above agentjail (script(1) runs it from a plain
# sh: an orphaned process group, which nobody could continue): a command
# that stops itself is continued, as the kernel drops a ^Z typed there, and
# one that does so without end is still ended by --timeout.
if command -v script >/dev/null; then
  cat >"$WS/.probe/selfstop.py" <<'PY'
import os, signal, sys
n, i = int(sys.argv[1]), 0
while n == 0 or i < n:
    os.kill(os.getpid(), signal.SIGTSTP)
    i += 1
print("SELF-STOPS:%d" % i, flush=True)
PY
  chmod a+r "$WS/.probe/selfstop.py"
  jail_argv -q --journal off --timeout 30s -- python3 "$WS/.probe/selfstop.py" 50
  OUT=$(as_user script -qec "${JAIL_ARGV[*]}; echo RC:\$?" /dev/null </dev/null 2>&1 | tr -d '\r' | sed 's/^\^@//')
  check_capture "no job control: a command stopping itself 50 times goes on each time" \
    out_has SELF-STOPS:50
  # A script that runs agentjail waits for it in the same process group:
  # not a pipeline, the terminal is still relayed.
  jail_argv -q --journal off -- readlink /proc/self/fd/0
  printf '#!/bin/sh\n%s\n' "$(printf "'%s' " "${JAIL_ARGV[@]}")" >"$WS/.probe/wrap.sh"
  chmod a+rx "$WS/.probe/wrap.sh"
  OUT=$(as_user script -qec "sh '$WS/.probe/wrap.sh'; echo OUTER:\$(tty)" /dev/null </dev/null 2>&1 | tr -d '\r' | sed 's/^\^@//')
  inner=$(printf '%s\n' "$OUT" | grep '^/dev/' | head -n1)
  outer=$(printf '%s\n' "$OUT" | sed -n 's/^OUTER://p')
  check_capture "run by a script: the jail's terminal ($inner) is its own, not the script's ($outer)" \
    sh -c '[ -n "$1" ] && [ -n "$2" ] && [ "$1" != "$2" ]' sh "$inner" "$outer"
  jail_argv -q --journal off --timeout 2s -- python3 "$WS/.probe/selfstop.py" 0
  OUT=$(as_user script -qec "${JAIL_ARGV[*]}; echo RC:\$?" /dev/null </dev/null 2>&1 | tr -d '\r' | sed 's/^\^@//')
  check_capture "no job control: one stopping itself without end is ended by --timeout (124)" \
    out_has RC:124
else
  note "script(1) is not installed: the orphaned-group checks are not run"
fi

finish
