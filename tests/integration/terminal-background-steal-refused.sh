#!/bin/bash
# A jail run in the background of a job-control shell (`agentjail -- cmd &`)
# may not take the terminal: tcsetpgrp from a group that is not the
# terminal's foreground is refused (EPERM, journaled), even with SIGTTOU
# ignored, so it cannot read what the user types to their shell. In the
# foreground, handing the terminal to a group of the jail's own still works
# (job control inside the jail).
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
import os, time
c = os.fork()
if c == 0:
    os.setpgid(0, 0)
    time.sleep(2)
    os._exit(0)
time.sleep(0.3)
try:
    os.tcsetpgrp(0, c)
    print("GIVE:OK", flush=True)
    os.tcsetpgrp(0, os.getpgrp())  # SIGTTOU: agentjail's own group, default action
except OSError as e:
    print("GIVE:REFUSED:%d" % e.errno, flush=True)
os.waitpid(c, 0)
PY
# Outside: a pseudo terminal with a job-control shell; SHELL_LINE is run by
# `bash -m -c`.
cat >"$RUN/harness.py" <<'PY'
import os, pty, select, sys, time
line = sys.argv[1]
pid, fd = pty.fork()
if pid == 0:
    os.execvp("bash", ["bash", "-m", "-c", line + "; echo HARNESS-DONE"])
out = b""
deadline = time.time() + 40
while time.time() < deadline and b"HARNESS-DONE" not in out:
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            out += os.read(fd, 4096)
        except OSError:
            break
sys.stdout.write(out.decode(errors="replace").replace("\r", ""))
try:
    os.kill(pid, 9)
except ProcessLookupError:
    pass
PY
chmod -R a+rX "$WS/.probe" "$RUN/harness.py"

J=$RUN/j.jsonl
jail_argv -q --journal "$J" -- python3 "$WS/.probe/take.py"
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$RUN/harness.py" "$q & wait"
check_capture "in the background: taking the terminal is refused (EPERM)" out_has TAKE:REFUSED:1
check_capture "in the background: ...and never granted" out_lacks TAKE:OK
check "journal: the refused TIOCSPGRP is a syscall.deny" \
  python3 -c 'import json,sys
ev=[json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if any(e.get("event")=="syscall.deny" and "TIOCSPGRP" in e.get("args","") for e in ev) else 1)' "$J"

jail_argv -q --journal off -- python3 "$WS/.probe/give.py"
q=$(printf "'%s' " "${JAIL_ARGV[@]}")
capture as_user python3 "$RUN/harness.py" "$q"
check_capture "control, in the foreground: the terminal can be handed to a group of the jail" \
  out_has GIVE:OK
finish
