#!/bin/bash
# A profile with mistakes is refused before anything runs: every error is
# printed as FILE:LINE:COL: message (with a did-you-mean for a misspelt key),
# `run` exits 125 and `check` exits 1. A TOML syntax error is located the same
# way. A correct profile (the control) runs.
source "$(dirname "$0")/lib.sh"
aj_setup

bad=$T/bad-profiles
mkdir -p "$bad"
cat >"$bad/broken.toml" <<'TOML'
# A profile with two mistakes, on lines 6 and 9.
[profile]
description = "broken on purpose"

[filesystem]
read_onyl = ["/usr"]

[network]
mode = "sometimes"
TOML
cat >"$bad/syntax.toml" <<'TOML'
[profile]
description = "unterminated
extends = ["default"]
TOML
cat >"$PROFILES/itest-ok.toml" <<'TOML'
[profile]
extends = ["default"]
description = "a correct profile extending default"
TOML
chmod -R a+rX "$bad" "$PROFILES"

# Control: a correct profile passes check and runs the command.
capture aj check --profile-dir "$PROFILES" itest-ok
check_capture "control: check accepts a correct profile (exit 0)" rc_is 0
if userns_available; then
  capture jail --profile itest-ok -- sh -c 'echo RAN-$((6*7))'
  check_capture "control: a correct profile runs the command" out_has_line RAN-42
else
  note "no user namespaces for $TEST_USER: the run control is left to the check control"
fi

capture jail --profile "$bad/broken.toml" -- sh -c 'echo RAN-$((6*7))'
check_capture "run with the broken profile exits 125" rc_is 125
check_capture "run with the broken profile does not run the command" all_lacks RAN-42
check_capture "the misspelt key is reported as broken.toml:6:COL:" err_matches 'broken\.toml:6:[0-9]+: '
check_capture "the bad enum value is reported as broken.toml:9:COL: (every error, not only the first)" \
  err_matches 'broken\.toml:9:[0-9]+: '
check_capture "the misspelt key gets a did-you-mean for read_only" err_matches 'read_only'
check_capture "the bad enum value is named" err_matches 'sometimes'

capture aj check --profile-dir "$PROFILES" "$bad/broken.toml"
check_capture "check with the broken profile exits 1" rc_is 1
check_capture "check reports broken.toml:6:COL:" any_matches 'broken\.toml:6:[0-9]+: '
check_capture "check reports broken.toml:9:COL:" any_matches 'broken\.toml:9:[0-9]+: '

capture aj check --profile-dir "$PROFILES" "$bad/syntax.toml"
check_capture "check with a TOML syntax error exits 1" rc_is 1
check_capture "the syntax error is located as syntax.toml:LINE:COL: (line 2 or 3)" \
  any_matches 'syntax\.toml:[23]:[0-9]+: '


# A key holding terminal controls (a hostile repository's profile retitling
# or clearing the terminal) is reported escaped.
printf '[profile]\n"x\\u001b]0;PWNED\\u0007" = 1\n' >"$bad/controls.toml"
capture aj check --profile-dir "$PROFILES" "$bad/controls.toml"
check_capture "check with a key holding controls exits 1" rc_is 1
check_capture "the key is shown escaped" any_matches "unknown key 'x\\\\x1b\]0;PWNED\\\\x07'"
check_capture "no raw escape or bell reaches the terminal" all_lacks $'\e]0;PWNED'

finish
