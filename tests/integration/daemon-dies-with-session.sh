#!/bin/bash
# A double-forked daemon left behind by the command dies with the session: when
# the command exits, nothing it started survives on the host.
#
# The daemon holds a unique argv ("sleep 3777.<token>") that the host looks for
# with pgrep, read-only: PIDs inside the jail differ from the host's.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

# setsid -f forks, the child starts a new session and execs; the parent exits,
# so the daemon is reparented to the init: the classic double fork.
daemonize='setsid -f sh -c "echo \$\$ > \"\$2\"; exec sleep $1" sh "$1" "$2" </dev/null >/dev/null 2>&1'

# Control: without the jail, the daemon outlives the shell that started it.
cmark=3777.$(unique_token)
capture as_user sh -c "$daemonize; echo STARTED" sh "$cmark" "$WS/control.pid"
check_capture "control: the daemonizing shell ran" out_has_line STARTED
if wait_until 5 marker_alive "sleep $cmark"; then
  sleep 0.3
  check "control: the daemon outlives its parent shell without the jail" marker_alive "sleep $cmark"
else
  fail "control: the daemon started without the jail"
fi
cpid=$(cat "$WS/control.pid" 2>/dev/null)
[ -n "$cpid" ] && kill -KILL "$cpid" 2>/dev/null  # the control's own daemon, by pid

# Jailed: daemonize, report, wait for the host's go-ahead, exit 0.
mark=3777.$(unique_token)
start_bg "$AJ" --profile-dir "$PROFILES" -- sh -c "$daemonize; echo READY > \"\$3\";
  while [ ! -e \"\$4\" ]; do sleep 0.05; done; exit 0" sh "$mark" /tmp/daemon.pid "$WS/ready" "$WS/go"
aj_pid=$BG_PID
if wait_until 20 [ -e "$WS/ready" ]; then
  pass "the jailed command started a daemon"
  check "while the session runs, the host sees the daemon (the marker works)" \
    wait_until 5 marker_alive "sleep $mark"
else
  fail "the jailed command started a daemon (no ready file within 20 s)"
fi
touch "$WS/go"
wait "$aj_pid"
rc=$?
check "the session ended with the command's status 0 (got $rc)" [ "$rc" -eq 0 ]
check "after the session, the daemon is gone from the host" wait_until 5 marker_gone "sleep $mark"
if marker_alive "sleep $mark"; then
  note "leftover: $(pgrep -a -f -- "sleep $mark")"
  pid=$(pgrep -f -- "sleep $mark" | head -n1)
  [ -n "$pid" ] && kill -KILL "$pid"  # a process this test caused; by its pid
fi

finish
