#!/bin/bash
# A refused syscall is journaled as `syscall.deny` with the syscall's name and
# its relevant argument decoded: ptrace(PTRACE_ATTACH) of the command's own
# child shows request 16, an ioctl(TIOCSTI) on the terminal shows
# request=TIOCSTI. The controls run the same Python outside the jail, where
# both calls succeed.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"
command -v script >/dev/null || die "script(1) (util-linux) is needed"

J=$RUN/j.jsonl
# PTRACE_ATTACH (16) to a child it started itself: nothing but seccomp refuses it.
ptrace_py='import ctypes, subprocess
libc = ctypes.CDLL(None, use_errno=True)
child = subprocess.Popen(["sleep", "10"])
rc = libc.syscall(101, 16, child.pid, 0, 0)
err = ctypes.get_errno()
child.kill(); child.wait()
print("OK:ptrace" if rc == 0 else "ERR:ptrace:%d" % err)'
# TIOCSTI on stdin (a terminal under script(1)); pushes a space.
tiocsti_py='import fcntl, os, sys, termios
if not os.isatty(0):
    print("ERR:tiocsti:NOTTY"); sys.exit()
try:
    fcntl.ioctl(0, termios.TIOCSTI, b" "); print("OK:tiocsti")
except OSError as e:
    print("ERR:tiocsti:%d" % e.errno)'
in_pty() { as_user script -qec "$*" /dev/null </dev/null | tr -d '\r' | sed 's/^\^@//' | sed 's/^ *//'; }
printf '%s\n' "$ptrace_py" >"$WS/ptrace.py"
printf '%s\n' "$tiocsti_py" >"$WS/tiocsti.py"
chmod 644 "$WS/ptrace.py" "$WS/tiocsti.py"

# Controls: both calls work without the jail.
capture as_user python3 "$WS/ptrace.py"
check_capture "control: ptrace(PTRACE_ATTACH) of its own child works without the jail" out_has_line OK:ptrace
OUT=$(in_pty python3 "$WS/tiocsti.py") ERR="" RC=0
if printf '%s\n' "$OUT" | grep -qx OK:tiocsti; then
  pass "control: TIOCSTI works on the terminal as $TEST_USER without the jail"
  tiocsti_controlled=1
else
  note "TIOCSTI is refused on this host even without the jail ($(echo $OUT)): its journal line is not checked"
  tiocsti_controlled=0
fi

jargs=(--profile-dir "$PROFILES" $([ "$AJ_TEST_MODE" = nouserns ] && echo --no-userns) --journal "$J")
capture jail --journal "$J" -- python3 "$WS/ptrace.py"
check_capture "inside: ptrace(PTRACE_ATTACH) of its own child fails" out_has "ERR:ptrace:"
OUT=$(in_pty "$AJ" "${jargs[@]}" -- python3 "$WS/tiocsti.py") ERR="" RC=0
check_capture "inside: stdin is a terminal (the command could try)" out_lacks NOTTY
check_capture "inside: TIOCSTI fails" out_has "ERR:tiocsti:"

# "DENY <syscall> <errno>|<error>|<rule>|<args>" per syscall.deny event.
OUT=$(python3 - "$J" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "syscall.deny":
        print("DENY %s %s|%s|%s|%s|%s" % (e.get("syscall"), e.get("errno"), e.get("error"),
              e.get("decision"), e.get("rule"), e.get("args")))
PY
) ERR="" RC=0
ptrace_line=$(printf '%s\n' "$OUT" | grep '^DENY ptrace ' | head -n1)
tiocsti_line=$(printf '%s\n' "$OUT" | grep '^DENY ioctl ' | head -n1)
check_capture "journal: a syscall.deny event for ptrace" [ -n "$ptrace_line" ]
check_capture "journal: the ptrace event decodes the request (request=16, PTRACE_ATTACH)" \
  grep -qE '\|(request=16|request=PTRACE_ATTACH)([ (]|$)' <<<"$ptrace_line"
check_capture "journal: the ptrace event has decision deny, an errno and a rule" \
  grep -qE '^DENY ptrace [0-9]+\|E[A-Z]+\|deny\|[^|]+\|' <<<"$ptrace_line"
check_capture "journal: a syscall.deny event for ioctl" [ -n "$tiocsti_line" ]
check_capture "journal: the ioctl event decodes the request as TIOCSTI" \
  grep -qE '\|[^|]*request=TIOCSTI' <<<"$tiocsti_line"
check_capture "journal: the ioctl event has decision deny, an errno and a rule" \
  grep -qE '^DENY ioctl [0-9]+\|E[A-Z]+\|deny\|[^|]+\|' <<<"$tiocsti_line"
[ "$tiocsti_controlled" = 1 ] || note "(the TIOCSTI journal line was checked although the host refuses TIOCSTI itself)"

finish
