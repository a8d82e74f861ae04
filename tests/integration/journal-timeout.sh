#!/bin/bash
# A --timeout that ends the session is journaled: a `limit` event naming the
# wall_time limit, then `session.end` with timed_out true; agentjail exits 124.
# Control: a command that finishes in time ends with timed_out false and no
# limit event.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

# "LIMIT <limit> <value>" per limit event, then "END <timed_out> <exit_code>".
summary() {
  python3 - "$1" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "limit":
        print("LIMIT", e.get("limit"), json.dumps(e.get("value")), e.get("decision"))
    elif e.get("event") == "session.end":
        print("END", json.dumps(e.get("timed_out")), json.dumps(e.get("exit_code")))
PY
}

capture jail --journal "$RUN/ok.jsonl" --timeout 20s -- sh -c 'exit 3'
check_capture "control: a command that finishes in time exits with its own status (3)" rc_is 3
OUT=$(summary "$RUN/ok.jsonl") ERR="" RC=0
check_capture "control: its session.end says timed_out false, exit_code 3" out_has_line "END false 3"
check_capture "control: no limit event" out_lacks "LIMIT"

start=$SECONDS
capture jail --journal "$RUN/j.jsonl" --timeout 1s -- sleep 30
took=$((SECONDS - start))
check_capture "--timeout 1s on sleep 30: exit 124" rc_is 124
check "--timeout 1s on sleep 30: over within 8 s (took ${took}s)" [ "$took" -le 8 ]
OUT=$(summary "$RUN/j.jsonl") ERR="" RC=0
check_capture "journal: a limit event for wall_time" grep -qE '^LIMIT wall_time ' <<<"$OUT"
check_capture "journal: session.end says timed_out true" grep -qE '^END true ' <<<"$OUT"
check_capture "journal: session.end's exit_code is 124" out_has_line "END true 124"
check_capture "journal: the limit event comes before session.end" \
  [ "$(printf '%s\n' "$OUT" | grep -nE '^LIMIT wall_time' | head -n1 | cut -d: -f1)" -lt \
    "$(printf '%s\n' "$OUT" | grep -nE '^END' | head -n1 | cut -d: -f1)" ]

# The wall-clock limit is part of the policy: session.start's policy_digest
# differs between two otherwise equal sessions with different limits.
digest() { python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["policy_digest"])' "$1"; }
capture jail --journal "$RUN/ok2.jsonl" --timeout 30s -- sh -c 'exit 3'
check "policy_digest names the limit (20s and 30s differ)" \
  set_and_not "$(digest "$RUN/ok.jsonl")" "$(digest "$RUN/ok2.jsonl")"
capture jail --journal "$RUN/ok3.jsonl" --timeout 20s -- sh -c 'exit 3'
check "policy_digest is the same for the same policy" \
  [ "$(digest "$RUN/ok.jsonl")" = "$(digest "$RUN/ok3.jsonl")" ]

finish
