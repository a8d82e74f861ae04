#!/bin/bash
# `agentjail check PROFILE...` validates profiles by name or path: exit 0 when
# all are valid, 1 when any is not, naming the bad one; every shipped profile
# is valid. A setting not enforced yet is refused as run refuses it; what run
# would refuse only on this host (a missing path) is said, not counted.
source "$(dirname "$0")/lib.sh"
aj_setup

shipped=()
for f in "$PROFILES"/*.toml; do shipped+=("$(basename "$f" .toml)"); done
check "the source tree ships base, default and strict" \
  sh -c "ls '$PROFILES' | grep -qx base.toml && ls '$PROFILES' | grep -qx default.toml &&
    ls '$PROFILES' | grep -qx strict.toml"

for p in "${shipped[@]}"; do
  capture aj check --profile-dir "$PROFILES" "$p"
  check_capture "check $p (shipped) exits 0" rc_is 0
done
capture aj check --profile-dir "$PROFILES" "${shipped[@]}"
check_capture "check of all shipped profiles at once exits 0" rc_is 0
capture aj check --profile-dir "$PROFILES" "$PROFILES/default.toml"
check_capture "check by path exits 0" rc_is 0

mkdir -p "$T/bad"
printf '[filesystem]\nhide = "not-a-list"\n' >"$T/bad/wrongtype.toml"
printf '[limits]\nmemory = "lots"\n' >"$T/bad/badsize.toml"
printf '[profile]\nextends = ["itest-cycle-b"]\n' >"$PROFILES/itest-cycle-a.toml"
printf '[profile]\nextends = ["itest-cycle-a"]\n' >"$PROFILES/itest-cycle-b.toml"
printf '[filesystem]\nread_only = ["relative/path"]\n' >"$T/bad/relative.toml"
printf '[profile]\nextends = ["itest-no-such-parent"]\n' >"$T/bad/noparent.toml"
# Only the merged policy shows this one: the filter cannot deny execve.
printf '[profile]\nextends = ["default"]\n[seccomp]\ndeny = ["execve"]\n' >"$T/bad/noexec.toml"
chmod -R a+rX "$T/bad" "$PROFILES"

for b in wrongtype badsize relative noparent noexec; do
  capture aj check --profile-dir "$PROFILES" "$T/bad/$b.toml"
  check_capture "check $b.toml exits 1" rc_is 1
  check_capture "check $b.toml names the file" any_matches "$b\\.toml"
done
capture aj check --profile-dir "$PROFILES" itest-cycle-a
check_capture "check of an extends cycle exits 1" rc_is 1
check_capture "... and says it is a cycle" any_matches '[Cc]ycl'

# What run refuses anywhere is refused by check too: a setting not enforced
# yet (the proxy network mode).
printf '[profile]\nextends = ["default"]\n[network]\nmode = "proxy"\n' >"$T/bad/proxy.toml"
chmod a+r "$T/bad/proxy.toml"
capture aj check --profile-dir "$PROFILES" "$T/bad/proxy.toml"
check_capture "check of a profile asking for the proxy (not enforced yet) exits 1" rc_is 1
check_capture "... with file:line:col and 'not yet enforced'" \
  any_matches 'proxy\.toml:4:8: not yet enforced'
# What run refuses only on this host (a path missing and not optional) is
# said, but the profile stays valid; with the path optional, nothing is said.
printf '[profile]\nextends = ["default"]\n[filesystem]\nread_only = ["/itest-no-such-dir"]\n' \
  >"$T/bad/missing.toml"
printf '[profile]\nextends = ["default"]\n[filesystem]\nread_only = ["/itest-no-such-dir"]\noptional = ["/itest-no-such-dir"]\n' \
  >"$T/bad/optional.toml"
chmod a+r "$T/bad/missing.toml" "$T/bad/optional.toml"
capture aj check --profile-dir "$PROFILES" "$T/bad/missing.toml"
check_capture "check of a profile naming a missing path: valid (exit 0)" rc_is 0
check_capture "... and the missing path named with file:line:col" \
  any_matches "missing\.toml:4:14: '/itest-no-such-dir' does not exist"
check_capture "... and that run would refuse it here" any_matches 'run would refuse it on this host'
capture aj check --profile-dir "$PROFILES" "$T/bad/optional.toml"
check_capture "control: the same path listed as optional: ok" any_matches 'optional\.toml: ok'

# A required layer: check says what run does about it on this host (a
# cgroup for the default profile's process limit: root here, maybe not
# nobody).
printf '[profile]\nextends = ["default"]\nrequire = ["cgroup"]\n' >"$T/bad/require.toml"
chmod a+r "$T/bad/require.toml"
capture jail -p "$T/bad/require.toml" -- true
run_refused=no
err_matches "required layer 'cgroup' is not available here" && run_refused=yes
capture aj check --profile-dir "$PROFILES" "$T/bad/require.toml"
check_capture "check of a profile requiring a cgroup: valid (exit 0)" rc_is 0
if [ "$run_refused" = yes ]; then
  check_capture "run refuses it here (no cgroup): check says so" \
    any_matches "require\.toml:3:12: required layer 'cgroup' is not available here"
else
  check_capture "run accepts it here (a cgroup): check says ok" any_matches 'require\.toml: ok'
fi

# A "!" removal compares entries as written: one that matches nothing would
# leave the inherited entry in place, so it is an error, with the entry it
# probably meant (default.toml hides "~/.aws").
printf '[profile]\nextends = ["default"]\n[filesystem]\nhide = ["!${HOME}/.aws"]\n' \
  >"$T/bad/missed.toml"
printf '[profile]\nextends = ["default"]\n[filesystem]\nhide = ["!~/.aws"]\n' >"$T/bad/removes.toml"
chmod a+r "$T/bad/missed.toml" "$T/bad/removes.toml"
capture aj check --profile-dir "$PROFILES" "$T/bad/missed.toml"
check_capture "check of a removal that matches nothing exits 1" rc_is 1
check_capture "... with file:line:col and the entry it probably meant" \
  any_matches "missed\.toml:4:9: '!\\\$\{HOME\}/\.aws' in filesystem\.hide removes nothing.*did you mean '!~/\.aws'"
capture aj check --profile-dir "$PROFILES" "$T/bad/removes.toml"
check_capture "control: the removal spelt as inherited: ok" any_matches 'removes\.toml: ok'
capture jail --hide '!/itest-not-hidden' -- true
check_capture "run with --hide '!PATH' matching nothing: exit 125" rc_is 125
check_capture "... naming the option" err_matches "command line \(--hide\): '!/itest-not-hidden'.*removes nothing"
capture jail --hide '!~/.aws' -- true
check_capture "control: run with --hide '!~/.aws' (inherited): exit 0" rc_is 0

capture aj check --profile-dir "$PROFILES" default "$T/bad/badsize.toml"
check_capture "one bad profile among good ones: exit 1" rc_is 1
check_capture "... naming the bad one" any_matches 'badsize\.toml'
capture aj check --profile-dir "$PROFILES" itest-no-such-profile
check_capture "check of a profile that does not exist exits non-zero" [ "$RC" -ne 0 ]
check_capture "... and names it" any_matches 'itest-no-such-profile'

finish
