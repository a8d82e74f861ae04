#!/bin/bash
# Files outside the paths the profile grants cannot be read or written, and
# programs outside `exec` cannot be run. With --no-userns there is no mount
# namespace to hide them: Landlock alone must refuse (the test's own files sit
# in /tmp/aj-itest.*, which the default profile does not grant).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

if [ "$AJ_TEST_MODE" = nouserns ] && [ "$(jail_landlock_abi)" -eq 0 ]; then
  skip "no mount namespace and no Landlock (ABI 0 here): nothing keeps files outside the grants from being read; agentjail warns that file access is not enforced"
fi

token=$(unique_token)
outside=$T/outside
mkfile_as_user "$outside/secret.txt" "SECRET-$token"
chown "$TEST_UID:$TEST_GID" "$outside"
cp /bin/true "$outside/true-copy"
chown "$TEST_UID:$TEST_GID" "$outside/true-copy"

probe='c=$(cat "$1/secret.txt" 2>/dev/null) && echo "READ:$c" || echo READ:DENIED
ls "$1" >/dev/null 2>&1 && echo LIST:OK || echo LIST:DENIED
(echo x > "$1/new.txt") 2>/dev/null && echo WRITE:OK || echo WRITE:DENIED
"$1/true-copy" 2>/dev/null && echo EXEC:OK || echo EXEC:DENIED
head -c 1 /usr/bin/env >/dev/null && echo SYSREAD:OK || echo SYSREAD:DENIED
echo ws > "$2/ws.txt" && echo WSWRITE:OK || echo WSWRITE:DENIED'

capture as_user sh -c "$probe" sh "$outside" "$WS"
check_capture "control: the file outside is readable without the jail" out_has_line "READ:SECRET-$token"
check_capture "control: the directory outside is writable without the jail" out_has_line WRITE:OK
check_capture "control: the program outside runs without the jail" out_has_line EXEC:OK
rm -f "$outside/new.txt" "$WS/ws.txt"

capture jail -- sh -c "$probe" sh "$outside" "$WS"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: the system is readable (positive control)" out_has_line SYSREAD:OK
check_capture "inside: the workspace is writable (positive control)" out_has_line WSWRITE:OK
check_capture "inside: the file outside the granted paths cannot be read" out_has_line READ:DENIED
check_capture "inside: the directory outside cannot be listed" out_has_line LIST:DENIED
check_capture "inside: the directory outside cannot be written" out_has_line WRITE:DENIED
check_capture "inside: the program outside cannot be run" out_has_line EXEC:DENIED
check_capture "inside: the secret appears nowhere" all_lacks "SECRET-$token"
check "host: nothing was written outside" [ ! -e "$outside/new.txt" ]

finish
