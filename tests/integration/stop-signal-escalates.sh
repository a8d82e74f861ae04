#!/bin/bash
# A stop signal sent to agentjail ends the session even when the command
# ignores it: a second SIGTERM within three seconds kills every process of the
# session at once, and one alone does when the five-second grace period is
# over. Both are journaled as a `signal` event "escalated to SIGKILL", and
# nothing of the session (a child that ignores SIGTERM too) outlives it.
# Control: a command that exits on SIGTERM ends with its own status, with no
# escalation.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

# The command: announces itself, then (unless $1 is "obey") ignores SIGTERM,
# leaves a child that ignores it too, and sleeps.
probe='if [ "$1" = obey ]; then trap "exit 41" TERM; else trap "" TERM; fi
sleep 120 &
echo $! > "$2/child-$3"
echo ready > "$2/ready-$3"
while :; do sleep 0.05; done'

# "SIGNAL <name> <action>" per signal event, then "END <exit_code>".
summary() {
  python3 - "$1" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "signal":
        print("SIGNAL", e.get("name"), e.get("action"))
    elif e.get("event") == "session.end":
        print("END", json.dumps(e.get("exit_code")))
PY
}

# run_case LABEL MODE SECOND_DELAY: start the jail, send SIGTERM once, and a
# second time after SECOND_DELAY seconds unless it is "-". Sets RC (the
# exit status or "hung"), TOOK (seconds from the first SIGTERM) and OUT (the
# journal's summary).
run_case() {
  local label=$1 mode=$2 second=$3
  jail_argv --journal "$RUN/$label.jsonl" -- sh -c "$probe" sh "$mode" "$WS" "$label"
  start_bg "${JAIL_ARGV[@]}" 2>"$T/$label.err"
  local pid=$BG_PID
  if ! wait_until 20 [ -e "$WS/ready-$label" ]; then
    fail "$label: the command started"
    RC=none TOOK=0 OUT=""
    return
  fi
  local t0=$SECONDS
  kill -TERM "$pid"
  if [ "$second" != - ]; then
    sleep "$second"
    kill -TERM "$pid"
  fi
  if wait_until 30 sh -c "! kill -0 $pid 2>/dev/null || grep -q '^State:.*Z' /proc/$pid/status"; then
    wait "$pid"
    RC=$?
  else
    RC=hung
  fi
  TOOK=$((SECONDS - t0))
  OUT=$(summary "$RUN/$label.jsonl") ERR=$(cat "$T/$label.err")
}

# The child the command left: gone once agentjail has ended. Its pid is the
# jail's own; without a PID namespace it is a host pid, which is checked.
child_gone() {
  local child
  child=$(cat "$WS/child-$1" 2>/dev/null)
  [ "$AJ_TEST_MODE" != nouserns ] && return 0
  [ -n "$child" ] && ! kill -0 "$child" 2>/dev/null
}

run_case obey obey -
check "control: a command that exits on SIGTERM ends with its status 41 (got $RC)" [ "$RC" = 41 ]
check_capture "control: the signal is journaled as forwarded" out_has_line "SIGNAL TERM forwarded"
check_capture "control: no escalation" out_lacks "escalated"

run_case twice ignore 0.5
check "second SIGTERM within 3 s: killed, 137 (got $RC)" [ "$RC" = 137 ]
check "second SIGTERM within 3 s: over at once (took ${TOOK}s)" [ "$TOOK" -le 3 ]
check_capture "second SIGTERM: the first is journaled as forwarded" out_has_line "SIGNAL TERM forwarded"
check_capture "second SIGTERM: journaled as escalated to SIGKILL" \
  out_has_line "SIGNAL KILL escalated to SIGKILL"
check_capture "second SIGTERM: said on stderr" err_matches "second stop signal"
check "second SIGTERM: the command's child is gone too" child_gone twice

run_case once ignore -
check "one SIGTERM, ignored: killed after the grace period, 137 (got $RC)" [ "$RC" = 137 ]
check "one SIGTERM, ignored: not before the grace period (took ${TOOK}s)" [ "$TOOK" -ge 4 ]
check "one SIGTERM, ignored: soon after it (took ${TOOK}s)" [ "$TOOK" -le 15 ]
check_capture "one SIGTERM: journaled as forwarded, then escalated to SIGKILL" \
  [ "$(printf '%s\n' "$OUT" | grep '^SIGNAL' | tr '\n' '|')" = \
    "SIGNAL TERM forwarded|SIGNAL KILL escalated to SIGKILL|" ]
check_capture "one SIGTERM: the journal ends with session.end" grep -q '^END' <<<"$OUT"
check_capture "one SIGTERM: said on stderr" err_matches "did not end within 5000 ms"
check "one SIGTERM: the command's child is gone too" child_gone once

finish
