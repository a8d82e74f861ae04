#!/bin/bash
# A chain of 1,500 processes, each the child of the one before, left running
# by the command, dies with the session in every mode. With a PID namespace
# the kernel ends them all with the init; without one (--no-userns) the init,
# their subreaper, finds every descendant through /proc and kills them, however
# deep (it used to kill only its own children, one generation per round, and
# gave up after 1,000 rounds).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

chain=$(install_probe chain)
mark=CHAIN-$(unique_token)
depth=1500

capture jail --journal off -- sh -c '"$1" "$2" "$3" "$4" </dev/null >/dev/null 2>&1 &
  i=0; while [ ! -e "$3" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
  [ -e "$3" ] && echo CHAIN:READY; exit 0' sh "$chain" "$depth" "$WS/ready" "$mark"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: the chain of $depth processes was complete" out_has_line CHAIN:READY
wait_until 10 marker_gone "$mark"
left=$(pgrep -f -c -- "$mark")
check "after the session, none of the chain is left on the host ($left left)" [ "$left" -eq 0 ]
for pid in $(pgrep -f -- "$mark"); do kill -KILL "$pid" 2>/dev/null; done  # this test's own

finish
