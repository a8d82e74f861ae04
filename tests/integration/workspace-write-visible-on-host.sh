#!/bin/bash
# The workspace (the current directory by default, or --workspace DIR) is bound
# read-write at the same path: what the command writes there is on the host
# afterwards, owned by the caller.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

token=$(unique_token)
probe='echo "$2" > "$1/out.txt" && echo WROTE || echo NOWRITE
mkdir -p "$1/dir/sub" && echo "$2" > "$1/dir/sub/deep" && echo DEEP || echo NODEEP
echo "PWD:$(pwd)"'

# Control: the test user can write the workspace without the jail.
capture as_user sh -c "$probe" sh "$WS" "$token"
check_capture "control: the workspace is writable without the jail" out_has_line WROTE
rm -rf "$WS/out.txt" "$WS/dir"
check "control: the file is gone before the jailed run" [ ! -e "$WS/out.txt" ]

# Default workspace: the current directory.
capture jail -- sh -c "$probe" sh "$WS" "$token"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: the working directory is the workspace" out_has_line "PWD:$WS"
check_capture "inside: the workspace is writable" out_has_line WROTE
check "host: out.txt holds what the command wrote" [ "$(cat "$WS/out.txt" 2>/dev/null)" = "$token" ]
check "host: a nested file written inside is there" [ "$(cat "$WS/dir/sub/deep" 2>/dev/null)" = "$token" ]
check "host: the file is owned by the caller (uid $TEST_UID)" \
  [ "$(stat -c %u "$WS/out.txt" 2>/dev/null)" = "$TEST_UID" ]

# An explicit --workspace elsewhere, invoked from outside it: the command starts
# in the workspace (the current directory is not part of the jail).
other=$T/other-ws
mkdir -p "$other"
chown "$TEST_UID:$TEST_GID" "$other"
capture jail --workspace "$other" -- sh -c "$probe" sh "$other" "$token"
check_capture "--workspace DIR: the jailed command ran (exit 0)" rc_is 0
check_capture "--workspace DIR: it is writable inside" out_has_line WROTE
check_capture "--workspace DIR: the command starts in the workspace" out_has_line "PWD:$other"
check "--workspace DIR: the write is visible on the host" \
  [ "$(cat "$other/out.txt" 2>/dev/null)" = "$token" ]

finish
