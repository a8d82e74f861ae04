#!/bin/bash
# Run from an interactive shell, the command shares the terminal and the job
# with the supervisor. It can make a process group of its own the terminal's
# foreground and then read the terminal from the job's group: the kernel
# sends SIGTTIN to the whole job. The supervisor (and the init) ignore it, so
# the session stays supervised: --timeout still ends it, the command's
# escaped child included. Run in a pseudo terminal under `bash -m` (job
# control), as a user's shell would. With the jail on a terminal of its own
# (the default), the command's reading from the background of that terminal
# stops it (SIGTTIN), and agentjail stops with it, giving the user's shell
# the terminal back (as a job stopped for terminal input would); when the
# shell leaves, the stopped job gets the kernel's SIGHUP and the session ends.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

mkdir -p "$WS/.probe"
# Inside: a child in a group of its own takes the foreground and keeps
# writing a mark; the parent reads the terminal from the background.
cat >"$WS/.probe/ttin.py" <<'PY'
import os, time
c = os.fork()
if c == 0:
    os.setpgid(0, 0)
    for i in range(60):
        with open("alive.log", "a") as f: f.write("alive %d\n" % i)
        time.sleep(0.5)
    os._exit(0)
time.sleep(0.3)
os.tcsetpgrp(0, c)
print("FOREGROUND:GIVEN", flush=True)
os.read(0, 1)
PY
chmod -R a+rX "$WS/.probe"
# Outside: a pseudo terminal with a job-control shell running the jail.
PTY=$(install_probe pty_shell.py)
rm -f "$WS/alive.log"

for mode in --share-terminal relayed; do
  share=()
  [ "$mode" = --share-terminal ] && share=(--share-terminal)
  J=$RUN/j$mode.jsonl
  rm -f "$WS/alive.log"
  jail_argv "${share[@]}" -q --journal "$J" --timeout 3s -- python3 "$WS/.probe/ttin.py"
  q=$(printf "'%s' " "${JAIL_ARGV[@]}")
  capture as_user python3 "$PTY" job "$q; echo AGENTJAIL-RETURNED:\$?"
  check_capture "$mode: the command gave the foreground to a group of its own" out_has FOREGROUND:GIVEN
  check "$mode: the child in its own group had run (it wrote marks)" [ -s "$WS/alive.log" ]
  if [ "$mode" = --share-terminal ]; then
    check_capture "$mode: the job was not stopped: --timeout ended the session (status 124)" \
      out_has AGENTJAIL-RETURNED:124
    check "$mode: journal: the session ended by the wall-clock limit" \
      python3 -c 'import json,sys
ev=[json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if any(e.get("event")=="limit" and e.get("limit")=="wall_time" for e in ev) and ev[-1].get("event")=="session.end" and ev[-1].get("timed_out") is True else 1)' "$J"
  else
    check_capture "$mode: the job stopped and the shell got the terminal back" out_has Stopped
    check_capture "$mode: ...with the status of a stopped job (148)" out_has AGENTJAIL-RETURNED:148
    check "$mode: the shell gone, the stopped session ended (session.end in the journal)" \
      wait_until 20 grep -q '"event":"session.end"' "$J"
  fi
done
finish
