#!/bin/bash
# The caller's uid and gid are mapped to themselves (a single mapping, with
# setgroups denied): inside, the command has the caller's ids, and files it
# creates are the caller's on the host.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

probe='echo "UID:$(id -u)"; echo "GID:$(id -g)"
echo "UIDMAP:$(echo $(cat /proc/self/uid_map) | tr -s " ")"  # all lines, one space apart
echo "GIDMAP:$(echo $(cat /proc/self/gid_map) | tr -s " ")"
echo "SETGROUPS:$(cat /proc/self/setgroups)"
touch "$1/owned"'

capture as_user sh -c "$probe" sh "$WS"
check_capture "control: without the jail, the test user is uid $TEST_UID" out_has_line "UID:$TEST_UID"
check_capture "control: without the jail, the uid map is not the jail's single self-mapping" \
  out_lacks "UIDMAP:$TEST_UID $TEST_UID 1"
rm -f "$WS/owned"

capture jail -- sh -c "$probe" sh "$WS"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: uid is the caller's ($TEST_UID)" out_has_line "UID:$TEST_UID"
check_capture "inside: gid is the caller's ($TEST_GID)" out_has_line "GID:$TEST_GID"
check_capture "inside: exactly one uid is mapped, to itself" out_has_line "UIDMAP:$TEST_UID $TEST_UID 1"
check_capture "inside: exactly one gid is mapped, to itself" out_has_line "GIDMAP:$TEST_GID $TEST_GID 1"
check_capture "inside: setgroups is denied" out_has_line "SETGROUPS:deny"
check "host: the file created inside belongs to uid $TEST_UID" \
  [ "$(stat -c %u "$WS/owned" 2>/dev/null)" = "$TEST_UID" ]

finish
