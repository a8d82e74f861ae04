#!/bin/bash
# Nothing of the launcher leaks inward: the init (PID 1 inside) is not
# dumpable, so the command cannot read its environment (which still holds the
# caller's), its memory, its maps or its file descriptors.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

PY=/usr/bin/python3
probe=$(install_probe procread.py)
token=AJ-SECRET-$(unique_token)
AJ_EXTRA_ENV=("AJ_TEST_BAIT_SECRET=$token")
items=(environ mem maps fd cwd root exe)

# Control: without the jail, the test user can look into a process of its own
# that holds the same environment.
start_bg sleep 600
sibling=$BG_PID
wait_until 5 [ -e "/proc/$sibling/environ" ] || die "the sibling did not start"
capture as_user "$PY" "$probe" --grep "$token" "$sibling" "${items[@]}"
for i in "${items[@]}"; do
  check_capture "control: /proc/<own process>/$i is readable without the jail" out_has_line "READ:$i"
done
check_capture "control: the caller's environment holds the secret (found in environ)" \
  out_has_line "FOUND:environ"
kill -KILL "$sibling"
wait "$sibling" 2>/dev/null

capture jail -- "$PY" "$probe" --grep "$token" 1 "${items[@]}"
check_capture "the jailed probe ran (exit 0)" rc_is 0
for i in "${items[@]}"; do
  check_capture "inside: /proc/1/$i cannot be read" out_has "DENIED:$i:"
done
check_capture "inside: the caller's secret was not read from PID 1" out_lacks "FOUND:"

# Positive control inside: /proc works, the command can read its own entries.
capture jail -- "$PY" "$probe" self environ maps fd
check_capture "inside: the command can read its own /proc/self/environ (control)" out_has_line READ:environ
check_capture "inside: the command can read its own /proc/self/maps (control)" out_has_line READ:maps

finish
