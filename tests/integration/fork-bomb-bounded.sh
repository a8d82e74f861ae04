#!/bin/bash
# A fork bomb inside the jail is bounded by the profile's process limit (also
# when agentjail was invoked by root, for whom RLIMIT_NPROC is not enforced:
# then a pids cgroup must do it), and the host survives.
#
# Safety net: everything runs in a pids cgroup capped at 600 made by this test,
# so a jail that fails to bound the bomb cannot hurt the host; the probe also
# stops by itself after 400 forks.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
require_root_harness "a safety-net pids cgroup"
enter_safety_cgroup 600 || skip "no writable pids cgroup for the safety net"

probe=$(install_probe sysprobe)
limit=64
tries=400
write_profile itest-nproc <<TOML
[profile]
extends = ["default"]
description = "default, at most $limit processes"

[limits]
processes = $limit
TOML

capture as_user "$probe" "forkbomb:$tries"
check_capture "control: without the jail the probe forks all $tries children" out_has_line "FORKS:$tries"

capture jail --profile itest-nproc -- "$probe" "forkbomb:$tries"
check_capture "the jailed probe ran (exit 0)" rc_is 0
forks=$(field FORKS | cut -d: -f1)
check_capture "inside: the fork bomb is stopped at the limit ($forks forks, limit $limit)" \
  int_le "${forks:-999}" "$limit"
check_capture "inside: ... by EAGAIN" out_has "FORKS:$forks:EAGAIN"
check "host: the harness can still fork" sh -c 'true'
check "host: no process is left in the safety cgroup" \
  wait_until 5 sh -c "[ -z \"\$(cat '$SAFETY_CGROUP/cgroup.procs')\" ]"

finish
