#!/bin/bash
# Where creating a user namespace is refused (here: user.max_user_namespaces
# = 0 inside an outer user namespace, as on hosts that disable them),
# agentjail says so in one line and runs with Landlock, seccomp, capabilities
# and rlimits: files outside the grants stay unreadable. With --require userns
# it refuses to start instead.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

mkfile_as_user "$RUN/outside-secret" "secret-$(unique_token)"
# No user namespaces inside this outer one.
no_userns() {
  as_user unshare --user --map-root-user sh -c \
    'echo 0 >/proc/sys/user/max_user_namespaces || exit 99; exec "$@"' sh "$@"
}

capture no_userns sh -c 'unshare --user true 2>/dev/null && echo CREATED || echo REFUSED'
check_capture "control: creating a user namespace is refused there" out_has_line REFUSED

token=$(unique_token)
capture no_userns "$AJ" --profile-dir "$PROFILES" -- sh -c \
  "echo ran-$token; cat '$RUN/outside-secret' 2>/dev/null || echo SECRET-DENIED"
check_capture "it says user namespaces are unavailable, in one line" \
  err_matches "cannot create a user namespace .*Landlock, seccomp, capabilities and rlimits only"
check_capture "the command runs (exit 0)" rc_is 0
check_capture "the command ran" out_has_line "ran-$token"
check_capture "Landlock alone still keeps an ungranted file unreadable" out_has_line SECRET-DENIED

capture no_userns "$AJ" --profile-dir "$PROFILES" --require userns -- echo "ran-$token"
check_capture "--require userns: refuses (exit 125)" rc_is 125
check_capture "--require userns: the command did not run" out_lacks "ran-$token"
check_capture "--require userns: says which layer is missing" err_matches "required layer 'userns'"
finish
