#!/bin/bash
# The jailed command cannot ptrace or read the memory of a process outside the
# jail, even one of its own user that explicitly allows tracing.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

probe=$(install_probe sysprobe)
start_bg "$probe" target >"$T/target.out"
target=$BG_PID
wait_until 5 grep -qx "$target" "$T/target.out" || die "the target did not start"

# Control: without the jail, the test user can trace and read the target.
capture as_user "$probe" "ptrace:$target" "vmread:$target"
check_capture "control: ptrace attach to the host process works without the jail" out_has_line OK:ptrace
check_capture "control: process_vm_readv of the host process works without the jail" \
  out_has_line OK:process_vm_readv

capture jail -- "$probe" "ptrace:$target" "vmread:$target"
check_capture "the jailed probe ran (exit 0)" rc_is 0
check_capture "inside: ptrace attach to host pid $target fails" out_has "ERR:ptrace:"
check_capture "inside: process_vm_readv of host pid $target fails" out_has "ERR:process_vm_readv:"
check "host: the target is still alive and not traced" \
  sh -c "grep -q '^TracerPid:[[:space:]]*0$' /proc/$target/status"

finish
