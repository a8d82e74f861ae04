#!/bin/bash
# Signals sent to agentjail reach the command (supervisor -> init -> command):
# a command that traps SIGTERM / SIGINT / SIGHUP handles it and its exit status
# comes back through agentjail.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

# Traps SIG, writes "$WS/got-SIG", exits 40+N; announces itself via $WS/ready-SIG.
probe='trap "echo \$1 > \"\$2/got-\$1\"; exit \$3" "$1"
echo ready > "$2/ready-$1"
while :; do sleep 0.05; done'

run_case() {  # run_case LABEL SIG STATUS CMD-PREFIX...
  local label=$1 sig=$2 want=$3
  shift 3
  rm -f "$WS/ready-$sig" "$WS/got-$sig"
  # Background jobs start with SIGINT ignored, and sh cannot trap a signal
  # ignored on entry: give the command default dispositions.
  start_bg env --default-signal=INT,QUIT "$@" sh -c "$probe" sh "$sig" "$WS" "$want"
  local pid=$BG_PID
  if ! wait_until 20 [ -e "$WS/ready-$sig" ]; then
    fail "$label: the command started"
    return
  fi
  kill -s "$sig" "$pid"
  local rc
  if wait_until 10 sh -c "! kill -0 $pid 2>/dev/null || grep -q '^State:.*Z' /proc/$pid/status"; then
    wait "$pid"
    rc=$?
  else
    rc=timeout
  fi
  check "$label: SIG$sig reached the command's trap" [ -e "$WS/got-$sig" ]
  check "$label: the command's exit status $want came back (got $rc)" [ "$rc" = "$want" ]
}

run_case "control (no jail)" TERM 41 sh -c 'exec "$@"' sh
for s in "TERM 41" "INT 42" "HUP 43"; do
  set -- $s
  run_case "jailed" "$1" "$2" "$AJ" --profile-dir "$PROFILES" --
done

finish
