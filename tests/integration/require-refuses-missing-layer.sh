#!/bin/bash
# --require LAYER (or a profile's require = [...]) refuses to start when the
# layer is not active: with --no-userns, requiring userns exits 125 with a
# message naming the layer, and runs nothing; without --no-userns it runs.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

write_profile itest-require <<'TOML'
[profile]
extends = ["default"]
require = ["userns"]
TOML

if [ "$AJ_TEST_MODE" = userns ]; then
  capture jail --require userns -- sh -c 'echo RAN-$((6*7))'
  check_capture "control: --require userns runs when user namespaces are used" out_has_line RAN-42
fi
capture aj --profile-dir "$PROFILES" --require landlock --require seccomp -- sh -c 'echo RAN-$((6*7))'
check_capture "control: --require landlock --require seccomp runs on this kernel" out_has_line RAN-42

capture aj --profile-dir "$PROFILES" --no-userns --require userns -- sh -c 'echo RAN-$((6*7))'
check_capture "--no-userns --require userns: exit 125" rc_is 125
check_capture "--no-userns --require userns: runs nothing" all_lacks RAN-42
check_capture "--no-userns --require userns: the message names the layer" err_matches 'userns|user namespace'

capture aj --profile-dir "$PROFILES" --no-userns --profile itest-require -- sh -c 'echo RAN-$((6*7))'
check_capture "profile require = [\"userns\"] with --no-userns: exit 125" rc_is 125
check_capture "profile require: runs nothing" all_lacks RAN-42

capture aj --profile-dir "$PROFILES" --require no-such-layer -- sh -c 'echo RAN-$((6*7))'
check_capture "--require of an unknown layer is an error (exit 125)" rc_is 125
check_capture "... and runs nothing" all_lacks RAN-42

finish
