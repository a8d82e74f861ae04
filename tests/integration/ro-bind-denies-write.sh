#!/bin/bash
# A path bound with --ro can be read but not written: neither an existing file
# changed, nor a new file created, nor a file removed. The host copy is intact.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

data=$T/data
mkdir -p "$data"
mkfile_as_user "$data/file" "original"
chown "$TEST_UID:$TEST_GID" "$data"

probe='d=$1
c=$(cat "$d/file" 2>/dev/null) && echo "READ:$c" || echo "NOREAD"
if (echo changed > "$d/file") 2>/dev/null; then echo "WROTE"; else echo "NOWRITE"; fi
if (echo new > "$d/new") 2>/dev/null; then echo "CREATED"; else echo "NOCREATE"; fi
if rm -f "$d/file" 2>/dev/null && [ ! -e "$d/file" ]; then echo "REMOVED"; else echo "NOREMOVE"; fi
if mkdir "$d/sub" 2>/dev/null; then echo "MKDIR"; else echo "NOMKDIR"; fi'

# Control: the test user can do all of it on a copy outside the jail.
cp -a "$data" "$T/data-control"
capture as_user sh -c "$probe" sh "$T/data-control"
check_capture "control: the file is readable without the jail" out_has_line "READ:original"
check_capture "control: the file is writable without the jail" out_has_line "WROTE"
check_capture "control: a new file can be created without the jail" out_has_line "CREATED"
check_capture "control: the file can be removed without the jail" out_has_line "REMOVED"

capture jail --ro "$data" -- sh -c "$probe" sh "$data"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "--ro: the file is readable inside" out_has_line "READ:original"
check_capture "--ro: the file cannot be overwritten inside" out_has_line "NOWRITE"
check_capture "--ro: no new file can be created inside" out_has_line "NOCREATE"
check_capture "--ro: the file cannot be removed inside" out_has_line "NOREMOVE"
check_capture "--ro: no directory can be created inside" out_has_line "NOMKDIR"
check "--ro: the host file still says 'original'" [ "$(cat "$data/file")" = original ]
check "--ro: no new file appeared on the host" [ ! -e "$data/new" ]
check "--ro: no directory appeared on the host" [ ! -e "$data/sub" ]

finish
