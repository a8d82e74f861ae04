#!/bin/bash
# --timeout ends the session: SIGTERM, a grace period, then SIGKILL to every
# process in it; agentjail exits 124 within a few seconds, also when the
# command ignores SIGTERM, and nothing it started survives.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

# Control: a command that finishes in time keeps its own status.
capture jail --timeout 20s -- sh -c 'sleep 0.2; exit 5'
check_capture "control: a command that finishes in time exits with its own status (5)" rc_is 5

mark=3781.$(unique_token)
start=$SECONDS
capture jail --timeout 2s -- sh -c 'setsid -f sleep "$1" </dev/null >/dev/null 2>&1; sleep 100' sh "$mark"
took=$((SECONDS - start))
check_capture "--timeout 2s on sleep 100: exit 124" rc_is 124
check "--timeout 2s on sleep 100: over within 8 s (took ${took}s)" [ "$took" -le 8 ]
check "--timeout: the command's daemon is gone too" wait_until 5 marker_gone "sleep $mark"

start=$SECONDS
capture jail --timeout 2s -- sh -c 'trap "" TERM; while :; do sleep 1; done'
took=$((SECONDS - start))
check_capture "--timeout 2s on a command ignoring SIGTERM: exit 124" rc_is 124
check "--timeout 2s on a command ignoring SIGTERM: over within 20 s (took ${took}s)" [ "$took" -le 20 ]

for pid in $(pgrep -f -- "sleep $mark"); do kill -KILL "$pid"; done  # caused by this test; by pid

finish
