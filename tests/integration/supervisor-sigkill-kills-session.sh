#!/bin/bash
# Killing the agentjail supervisor with SIGKILL (it gets no chance to clean
# up) leaves no sandboxed process alive: the init dies with its parent
# (PR_SET_PDEATHSIG) and takes the whole PID namespace with it, daemons
# included. Without one (--no-userns) the init is told instead, and kills
# every process of the session (a daemon that left with setsid came to it as
# its subreaper) before it goes.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

# Control: without the jail, SIGKILL to a parent leaves its child running.
cmark=3779.$(unique_token)
start_bg sh -c 'sleep "$1" & wait' sh "$cmark"
parent=$BG_PID
if wait_until 5 marker_alive "sleep $cmark"; then
  kill -KILL "$parent"
  wait "$parent" 2>/dev/null
  sleep 0.3
  check "control: without the jail, the child outlives its SIGKILLed parent" marker_alive "sleep $cmark"
else
  fail "control: the unjailed child started"
fi
for pid in $(pgrep -f -- "sleep $cmark"); do kill -KILL "$pid"; done  # our own child, by pid

child=3779.$(unique_token)
daemon=3780.$(unique_token)
# Markers are passed as arguments so the shell's own argv does not match them.
jail_argv -- sh -c \
  'setsid -f sleep "$1" </dev/null >/dev/null 2>&1; sleep "$2"; echo not-reached' sh "$daemon" "$child"
start_bg "${JAIL_ARGV[@]}"
aj_pid=$BG_PID
if wait_until 20 marker_alive "sleep $child" && wait_until 5 marker_alive "sleep $daemon"; then
  pass "the session's command and its daemon are running (seen from the host)"
else
  fail "the session's command and its daemon are running (seen from the host)"
fi
check "the supervisor process is agentjail (pid $aj_pid)" \
  [ "$(cat "/proc/$aj_pid/comm" 2>/dev/null)" = agentjail ]
kill -KILL "$aj_pid"
wait "$aj_pid" 2>/dev/null
check "after SIGKILL to the supervisor, the command is gone" wait_until 5 marker_gone "sleep $child"
check "after SIGKILL to the supervisor, the daemon is gone" wait_until 5 marker_gone "sleep $daemon"
for m in "$child" "$daemon"; do
  for pid in $(pgrep -f -- "sleep $m"); do
    note "leftover: $(ps -o pid=,args= -p "$pid")"
    kill -KILL "$pid"  # a process this test caused; by its pid
  done
done

finish
