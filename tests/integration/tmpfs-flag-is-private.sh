#!/bin/bash
# --tmpfs PATH mounts a fresh, empty, writable tmpfs there: the host's files at
# PATH are invisible inside and what is written there stays inside.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

token=$(unique_token)
mkfile_as_user "$WS/build/host-file" "host-$token"

probe='echo "LIST:[$(echo $(ls -A "$1/build" 2>/dev/null))]"
echo inside > "$1/build/inside-file" && echo WRITE:OK || echo WRITE:FAILED
echo "FSTYPE:$(stat -f -c %T "$1/build")"'

capture as_user sh -c "$probe" sh "$WS"
check_capture "control: without the jail, build/ holds the host file" out_has_line "LIST:[host-file]"
rm -f "$WS/build/inside-file"

capture jail --tmpfs "$WS/build" -- sh -c "$probe" sh "$WS"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: build/ is empty" out_has_line "LIST:[]"
check_capture "inside: build/ is writable" out_has_line WRITE:OK
check_capture "inside: build/ is a tmpfs" out_has_line FSTYPE:tmpfs
check "host: the file written inside did not reach the host" [ ! -e "$WS/build/inside-file" ]
check "host: the host file is intact" [ "$(cat "$WS/build/host-file")" = "host-$token" ]

finish
