#!/bin/bash
# A path named on the command line or in a profile that does not exist (and is
# not marked optional) stops agentjail before anything runs: exit 125 and a
# message naming the path and the reason.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

missing=$T/no-such-dir-$(unique_token)
mkdir -p "$T/present"

capture jail --ro "$T/present" -- sh -c 'echo RAN-$((6*7))'
check_capture "control: --ro of an existing path runs the command" out_has_line RAN-42

for opt in --ro --rw; do
  capture jail "$opt" "$missing" -- sh -c 'echo RAN-$((6*7))'
  check_capture "$opt missing: exit 125" rc_is 125
  check_capture "$opt missing: the command did not run" all_lacks RAN-42
  check_capture "$opt missing: the message names the path" err_matches "$missing"
  check_capture "$opt missing: the message gives the reason" \
    err_matches 'No such file or directory|does not exist'
  # The command line has no `optional`: the advice is one that can be taken.
  check_capture "$opt missing: the message names the option and says to create it" \
    err_matches "command line \\($opt\\): .* \\(create it first\\)"
done

finish
