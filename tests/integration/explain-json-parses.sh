#!/bin/bash
# `agentjail explain --json` prints the effective policy (after extends and the
# command line) as one JSON object: the workspace is writable, the hidden
# credential paths are listed (expanded), and a command-line --ro shows up;
# so do the plan's mounts, ids, environment names and watched paths.
# `explain` without --json prints text with the same facts.
source "$(dirname "$0")/lib.sh"
aj_setup

PY=/usr/bin/python3
flat=$AJ_TEST_DIR/probe/jsonflat.py
mkdir -p "$T/extra-ro"

# Control: the JSON check can fail.
OUT=$(printf '[1, 2' | "$PY" "$flat")
RC=$?
check_capture "control: the JSON check rejects broken JSON" rc_is 1

capture aj explain --profile-dir "$PROFILES"
check_capture "explain exits 0" rc_is 0
check_capture "explain (text) names the workspace" any_matches "$WS"
check_capture "explain (text) names ~/.ssh as hidden" any_matches "$FAKE_HOME/\\.ssh|~/\\.ssh"

capture aj explain --profile-dir "$PROFILES" --json --ro "$T/extra-ro"
check_capture "explain --json exits 0" rc_is 0
json=$OUT
OUT=$(printf '%s' "$json" | "$PY" "$flat")
RC=$?
check_capture "explain --json is a JSON object" out_has_line TYPE:object
check_capture "explain --json names the workspace ($WS)" out_has "\"$WS"
check_capture "explain --json lists the hidden ~/.ssh" \
  any_matches "=\"($FAKE_HOME|~|\\\$\\{HOME\\})/\\.ssh\""
check_capture "explain --json includes the command line's --ro $T/extra-ro" out_has "\"$T/extra-ro"
check_capture "explain --json says the network is none or loopback" \
  any_matches '^[^=]*net[^=]*="(none|loopback)"$'
# The plan's facts, as the text shows them: mounts (with the rule that asked
# for each), ids, the environment's names, the watched paths.
if [ "$(as_user unshare --user true 2>/dev/null && echo yes)" = yes ]; then
  check_capture "explain --json lists the mounts, the --ro one with its option" \
    any_matches "^mounts\[[0-9]+\]\.op=\"[^\"]*$T/extra-ro"
  check_capture "explain --json: ...and the rule that asked for it" \
    any_matches '^mounts\[[0-9]+\]\.rule="command line \(--ro\)"$'
fi
check_capture "explain --json gives the uid" any_matches "^ids\.uid=$TEST_UID$"
check_capture "explain --json names the environment's variables (names only)" \
  out_has_line 'env[0]="AGENTJAIL"'
check_capture "explain --json lists a watched path" any_matches '^watched\[0\]\.path="'

# A call allowed by name wins over a group denied: explain says so (the
# denied list alone claimed kcmp denied).
write_profile itest-allow <<'TOML'
[profile]
extends = ["default"]
[seccomp]
allow = ["kcmp"]
TOML
capture aj explain --profile-dir "$PROFILES" --profile itest-allow
check_capture "explain names a call allowed over a denied group" \
  any_matches "allowed, over any group denied: kcmp"

capture aj explain --profile-dir "$PROFILES" --json --net host
OUT=$(printf '%s' "$OUT" | "$PY" "$flat")
check_capture "explain --json --net host: the CLI override shows" any_matches '^[^=]*net[^=]*="host"$'

finish
