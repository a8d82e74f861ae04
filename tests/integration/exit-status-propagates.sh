#!/bin/bash
# agentjail exits with the command's own status: N for exit N, 128+N for death
# by signal N, 127 when the command is not found, 126 when it is not
# executable, 125 when agentjail itself fails before running anything.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

printf '#!/bin/sh\necho should-not-run\n' >"$WS/not-executable"
chmod 644 "$WS/not-executable"
chown "$TEST_UID:$TEST_GID" "$WS/not-executable"

# name | expected | command (env(1) is the control: same conventions without the jail)
cases=(
  "exit 0|0|sh -c 'exit 0'"
  "exit 3|3|sh -c 'exit 3'"
  "exit 255|255|sh -c 'exit 255'"
  "killed by SIGTERM|143|sh -c 'kill -TERM \$\$'"
  "killed by SIGKILL|137|sh -c 'kill -KILL \$\$'"
  "killed by SIGUSR1|138|sh -c 'kill -USR1 \$\$'"
  "command not found|127|/nonexistent/aj-no-such-command"
  "command not found in PATH|127|aj-no-such-command-$$"
  "not executable|126|$WS/not-executable"
)
for c in "${cases[@]}"; do
  IFS='|' read -r name want cmd <<<"$c"
  eval "argv=($cmd)"
  capture as_user env "${argv[@]}"
  check_capture "control: '$name' without the jail exits $want" rc_is "$want"
  capture jail -- "${argv[@]}"
  check_capture "jailed: '$name' exits $want" rc_is "$want"
done
check_capture "jailed: the non-executable script did not run" all_lacks should-not-run

# A run that fails in agentjail itself, before exec.
capture jail --workspace "$T/no-such-workspace" -- sh -c 'echo RAN-$((6*7))'
check_capture "a missing workspace is agentjail's own failure: exit 125" rc_is 125
check_capture "... and the command did not run" all_lacks RAN-42
check_capture "... and agentjail says why on stderr" err_matches 'no-such-workspace'

finish
