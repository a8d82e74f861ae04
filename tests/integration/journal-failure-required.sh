#!/bin/bash
# A journal that cannot be written is a clear error. With journal.required
# the session is stopped rather than run unlogged (exit 125, the command never
# runs); without it agentjail warns and the command runs.
# /dev/full makes every write fail with ENOSPC, like a full disk.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

write_profile itest-journal-required <<'TOML'
[profile]
extends = ["default"]
[journal]
required = true
TOML

token=$(unique_token)
capture jail --journal "$RUN/ok.jsonl" --profile itest-journal-required -- echo "ran-$token"
check_capture "control: with a writable journal the required profile runs" out_has_line "ran-$token"
check_capture "control: ... and exits 0" rc_is 0

capture jail --journal /dev/full -- echo "ran-$token"
check_capture "not required: an unwritable journal is reported" err_matches "journal: .*No space left on device"
check_capture "not required: the command still runs" out_has_line "ran-$token"

capture jail --journal /dev/full --profile itest-journal-required -- echo "ran-$token"
check_capture "required: agentjail exits 125" rc_is 125
check_capture "required: the error says why" err_matches "journal: .*No space left on device.*journal.required"
check_capture "required: the command never ran" out_lacks "ran-$token"
finish
