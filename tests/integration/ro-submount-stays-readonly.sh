#!/bin/bash
# A read-only bind is read-only recursively: a writable mount below a path
# bound with --ro must not stay writable inside the jail.
#
# The writable submount is a tmpfs mounted in a private mount namespace (so the
# host's mount table is never touched); agentjail runs inside that namespace.
source "$(dirname "$0")/lib.sh"
aj_setup
require_root_harness "mounting a writable submount for the test"
require_userns

data=$T/data
mkdir -p "$data/sub"
mkfile_as_user "$data/top" "top"

# A process holding a private mount namespace; commands enter it with nsenter.
unshare --mount --propagation private sleep 600 &
holder=$!
track_pid "$holder"
wait_until 5 sh -c "[ \"\$(readlink /proc/$holder/ns/mnt)\" != \"\$(readlink /proc/self/ns/mnt)\" ]" ||
  die "the mount-namespace holder did not start"
nsenter -t "$holder" -m mount -t tmpfs -o "mode=0755,uid=$TEST_UID,gid=$TEST_GID" aj-sub "$data/sub" ||
  die "cannot mount the submount"
AJ_PREFIX=(nsenter -t "$holder" -m "--wd=$WS" --)

probe='d=$1
if (echo x > "$d/sub/file") 2>/dev/null; then echo "SUB:WROTE"; else echo "SUB:NOWRITE"; fi
if (echo x > "$d/top") 2>/dev/null; then echo "TOP:WROTE"; else echo "TOP:NOWRITE"; fi
if grep -q " $d/sub " /proc/self/mountinfo; then echo "SUB:MOUNTED"; else echo "SUB:ABSENT"; fi'

# Control: in that namespace, without the jail, the submount is writable.
capture as_user sh -c "$probe" sh "$data"
check_capture "control: the submount is mounted" out_has_line "SUB:MOUNTED"
check_capture "control: the submount is writable without the jail" out_has_line "SUB:WROTE"
nsenter -t "$holder" -m rm -f "$data/sub/file"

capture jail --ro "$data" -- sh -c "$probe" sh "$data"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: the submount is visible under the read-only bind" out_has_line "SUB:MOUNTED"
check_capture "inside: the read-only bind itself is not writable" out_has_line "TOP:NOWRITE"
check_capture "inside: the writable submount is read-only too" out_has_line "SUB:NOWRITE"
check "the submount on the host holds no file written from inside" \
  nsenter -t "$holder" -m sh -c "[ ! -e '$data/sub/file' ]"

finish
