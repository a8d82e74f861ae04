#!/bin/bash
# With neither a user namespace (so no mount namespace) nor Landlock, nothing
# would keep the command's file access inside the profile: it could write
# every file of the user and, through /proc, the memory of the user's other
# processes. agentjail refuses to run then, with a one-line reason and exit
# 125; with Landlock (any ABI) and no user namespace it runs. Shown with
# --no-userns and --landlock-abi 0, as on a kernel without Landlock.
source "$(dirname "$0")/lib.sh"
aj_setup

capture aj --profile-dir "$PROFILES" --no-userns --landlock-abi 0 -- sh -c 'echo RAN-$((6*7))'
check_capture "no user namespace, no Landlock: refused with exit 125" rc_is 125
check_capture "no user namespace, no Landlock: the command did not run" out_lacks RAN-42
check_capture "no user namespace, no Landlock: the reason names both" \
  err_matches 'refusing to run: no user namespace and no Landlock'
capture aj --profile-dir "$PROFILES" --no-userns --landlock-abi 0 --dry-run -- true
check_capture "no user namespace, no Landlock: --dry-run says the same" rc_is 125

capture aj --profile-dir "$PROFILES" --no-userns --landlock-abi 1 -- sh -c 'echo RAN-$((6*7))'
check_capture "no user namespace, Landlock ABI 1: it runs" out_has_line RAN-42
if userns_available; then
  capture aj --profile-dir "$PROFILES" --landlock-abi 0 -- sh -c 'echo RAN-$((6*7))'
  check_capture "user namespace, no Landlock: it runs (the mounts bound the files)" \
    out_has_line RAN-42
else
  note "user namespaces are not available here: the namespace-only case is not shown"
fi

finish
