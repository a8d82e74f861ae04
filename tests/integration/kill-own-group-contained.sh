#!/bin/bash
# kill(0, sig) signals the caller's whole process group, and the jail shares
# it (it is the caller's terminal job): without a guard, a jailed command could
# signal the script that started it, its other children and the supervisor.
# Landlock ABI 6 keeps signals inside the jail; on older kernels (Debian 12's
# 6.1, Ubuntu 24.04's 6.8) seccomp refuses kill(0), and kill(-1) too when there
# is no PID namespace. --landlock-abi 5 shows the older kernel's case here.
#
# The caller is a shell that leads a fresh process group and traps SIGUSR1;
# the probe ignores SIGUSR1 and calls kill(0, SIGUSR1).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v setsid >/dev/null || die "setsid (util-linux) is needed"

probe=$(install_probe sysprobe)
J=$RUN/j.jsonl
mode_args=()
[ "$AJ_TEST_MODE" = nouserns ] && mode_args=(--no-userns)
# "This kernel" is the suite's ABI (AJ_TEST_LANDLOCK_ABI, when set); the
# older kernel's case is ABI 5, or the suite's when that is lower still.
kernel_args=("${mode_args[@]}")
old_abi=5
if [ -n "${AJ_TEST_LANDLOCK_ABI:-}" ]; then
  kernel_args+=(--landlock-abi "$AJ_TEST_LANDLOCK_ABI")
  [ "$AJ_TEST_LANDLOCK_ABI" -lt "$old_abi" ] && old_abi=$AJ_TEST_LANDLOCK_ABI
fi

# in_own_group CMD...: CMD run by a shell leading a new session and process
# group, as the test user; the shell reports a SIGUSR1 that reached it.
in_own_group() {
  as_user timeout -s KILL "$AJ_TEST_TIMEOUT" setsid -w sh -c \
    'trap "echo CALLER-SIGNALLED" USR1; "$@"; echo "caller-rc=$?"' sh "$@"
}

capture in_own_group "$probe" killgroup
check_capture "control: without the jail, kill(0, SIGUSR1) works" out_has_line OK:killgroup
check_capture "control: ... and reaches the calling shell" out_has_line CALLER-SIGNALLED

capture in_own_group "$AJ" --profile-dir "$PROFILES" ${kernel_args[@]+"${kernel_args[@]}"} -- \
  "$probe" killgroup
check_capture "this kernel: the jailed probe ran to the end" out_has_line caller-rc=0
check_capture "this kernel: kill(0) from the jail does not reach the caller" out_lacks CALLER-SIGNALLED

capture in_own_group "$AJ" --profile-dir "$PROFILES" ${mode_args[@]+"${mode_args[@]}"} \
  --landlock-abi "$old_abi" --journal "$J" -- "$probe" killgroup
check_capture "ABI $old_abi: the jailed probe ran to the end" out_has_line caller-rc=0
check_capture "ABI $old_abi: kill(0) is refused with EPERM" out_has_line ERR:killgroup:EPERM
check_capture "ABI $old_abi: kill(0) with high bits in the pid is refused too" \
  out_has_line ERR:killgroup_high:EPERM
check_capture "ABI $old_abi: nothing reached the caller" out_lacks CALLER-SIGNALLED
if [ "$AJ_TEST_MODE" = nouserns ]; then
  check_capture "ABI $old_abi, no PID namespace: kill(-1, 0) is refused with EPERM" \
    out_has_line ERR:killall0:EPERM
else
  check_capture "ABI $old_abi, PID namespace: kill(-1, 0) is left to the namespace (not EPERM)" \
    out_lacks ERR:killall0:EPERM
fi
OUT=$(grep '"syscall.deny"' "$J" 2>/dev/null) ERR="" RC=0
check_capture "ABI $old_abi: the refusal is journaled with the pid decoded" \
  out_matches '"syscall":"kill","args":"pid=0 sig=10"'

# Signals between the jail's own processes still work.
capture aj --profile-dir "$PROFILES" ${mode_args[@]+"${mode_args[@]}"} --landlock-abi "$old_abi" -- \
  sh -c 'sleep 30 & kill $!; wait $!; echo "child-status=$?"'
check_capture "ABI $old_abi: the command can still kill its own child" out_has_line child-status=143

finish
