#!/bin/bash
# A syscall of another architecture (i386 getpid through int 0x80) kills the
# process inside the jail: a filter written for x86_64 numbers must not be
# bypassed through the 32-bit table.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

probe=$(install_probe sysprobe)
capture as_user "$probe" int80
if out_has_line OK:int80; then
  pass "control: int 0x80 works without the jail"
else
  skip "this kernel has no 32-bit syscall entry (int 0x80 outside the jail: $OUT)"
fi

capture jail -- "$probe" int80
check_capture "the jailed probe ran (exit 0)" rc_is 0
check_capture "inside: the process making the i386 syscall is killed (SIGSYS)" out_has_line KILLED:int80:SIGSYS

finish
