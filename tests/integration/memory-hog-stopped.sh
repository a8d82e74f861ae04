#!/bin/bash
# A memory hog inside the jail is stopped by the profile's memory limit (an
# allocation fails or the process is killed) well before it gets what it asks
# for; without the jail it gets all of it.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

probe=$(install_probe sysprobe)
want=1024
write_profile itest-memory <<'TOML'
[profile]
extends = ["default"]
description = "default, at most 256 MiB of memory"

[limits]
memory = "256M"
TOML

capture as_user "$probe" "hog:$want"
check_capture "control: without the jail the probe gets all $want MiB" out_has_line HOG:DONE

capture jail --profile itest-memory -- "$probe" "hog:$want"
got=$(printf '%s\n' "$OUT" | sed -n 's/^HOG:\([0-9]*\)$/\1/p' | tail -n1)
check_capture "inside: the hog does not get $want MiB" out_lacks HOG:DONE
check_capture "inside: it is stopped near the limit (got ${got:-0} MiB of 256)" int_le "${got:-0}" 320
if out_has HOG:FAILED; then
  pass "inside: the allocation failed ($(out_has HOG:FAILED && printf '%s\n' "$OUT" | grep HOG:FAILED))"
elif [ "$RC" -eq 137 ] || [ "$RC" -eq 125 ]; then
  pass "inside: the process was killed (exit $RC)"
else
  fail "inside: the allocation failed or the process was killed (exit $RC)"
  show_capture
fi

finish
