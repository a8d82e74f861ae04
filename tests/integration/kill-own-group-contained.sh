#!/bin/bash
# kill(0, sig) signals the caller's whole process group. Sharing the caller's
# terminal (--share-terminal), the jail stays in the caller's terminal job
# (for job control and ^C), so without a guard a command could signal the
# script that started it, its other children and the supervisor: Landlock
# ABI 6 keeps signals inside the jail; on older kernels (Debian 12's 6.1,
# Ubuntu 24.04's 6.8) seccomp refuses kill(0), and kill(-1) too when there is
# no PID namespace. --landlock-abi 5 shows the older kernel's case here.
# With a terminal of its own (the default) or none, the jail has a session
# of its own, and kill(0) inside simply reaches the jail.
#
# The caller is a shell that traps SIGUSR1; the probe ignores SIGUSR1 and
# calls kill(0, SIGUSR1).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v setsid >/dev/null || die "setsid (util-linux) is needed"
command -v script >/dev/null || die "script (util-linux) is needed"

probe=$(install_probe sysprobe)
J=$RUN/j.jsonl
mode_args=()
[ "$AJ_TEST_MODE" = nouserns ] && mode_args=(--no-userns)
# "This kernel" is the suite's ABI (AJ_TEST_LANDLOCK_ABI, when set); the
# older kernel's case is ABI 5, or the suite's when that is lower still.
kernel_args=(${mode_args[@]+"${mode_args[@]}"})
old_abi=5
if [ -n "${AJ_TEST_LANDLOCK_ABI:-}" ]; then
  kernel_args+=(--landlock-abi "$AJ_TEST_LANDLOCK_ABI")
  [ "$AJ_TEST_LANDLOCK_ABI" -lt "$old_abi" ] && old_abi=$AJ_TEST_LANDLOCK_ABI
fi
old_args=(${mode_args[@]+"${mode_args[@]}"} --landlock-abi "$old_abi")

cat >"$RUN/caller.sh" <<'EOF'
#!/bin/sh
trap 'echo CALLER-SIGNALLED' USR1
"$@"
echo "caller-rc=$?"
EOF
chmod 755 "$RUN/caller.sh"

# no_terminal CMD...: run by the caller, leading a new session without a
# controlling terminal, as the test user.
no_terminal() { as_user timeout -s KILL "$AJ_TEST_TIMEOUT" setsid -w "$RUN/caller.sh" "$@"; }
# in_terminal CMD...: run by the caller in the foreground job of a fresh
# terminal (script(1)), as the test user.
in_terminal() {
  local cmd
  cmd="exec $(printf '%q ' "$RUN/caller.sh" "$@")"
  as_user timeout -s KILL "$AJ_TEST_TIMEOUT" script -qec "$cmd" /dev/null </dev/null | tr -d '\r' | sed 's/^\^@//'
}

capture no_terminal "$probe" killgroup
check_capture "control: without the jail, kill(0, SIGUSR1) works" out_has_line OK:killgroup
check_capture "control: ... and reaches the calling shell" out_has_line CALLER-SIGNALLED
OUT=$(in_terminal "$probe" killgroup) ERR="" RC=0
check_capture "control, in a terminal: it reaches the calling shell too" out_has_line CALLER-SIGNALLED

# Sharing the terminal: the jail shares the caller's process group.
OUT=$(in_terminal "$AJ" --profile-dir "$PROFILES" ${kernel_args[@]+"${kernel_args[@]}"} \
  --share-terminal -- "$probe" killgroup) ERR="" RC=0
check_capture "terminal, this kernel: the jailed probe ran to the end" out_has_line caller-rc=0
check_capture "terminal, this kernel: kill(0) does not reach the caller" out_lacks CALLER-SIGNALLED

OUT=$(in_terminal "$AJ" --profile-dir "$PROFILES" "${old_args[@]}" --share-terminal \
  --journal "$J" -- "$probe" killgroup) ERR="" RC=0
check_capture "terminal, ABI $old_abi: the jailed probe ran to the end" out_has_line caller-rc=0
check_capture "terminal, ABI $old_abi: kill(0) is refused with EPERM" \
  out_has_line ERR:killgroup:EPERM
check_capture "terminal, ABI $old_abi: kill(0) with high bits in the pid is refused too" \
  out_has_line ERR:killgroup_high:EPERM
check_capture "terminal, ABI $old_abi: nothing reached the caller" out_lacks CALLER-SIGNALLED
OUT=$(grep '"syscall.deny"' "$J" 2>/dev/null) ERR="" RC=0
check_capture "terminal, ABI $old_abi: the refusal is journaled with the pid decoded" \
  out_matches '"syscall":"kill","args":"pid=0 sig=10"'

# A terminal of the jail's own (the default): a session of the jail's own.
OUT=$(in_terminal "$AJ" --profile-dir "$PROFILES" "${old_args[@]}" -- "$probe" killgroup) ERR="" RC=0
check_capture "own terminal, ABI $old_abi: the jailed probe ran to the end" out_has_line caller-rc=0
check_capture "own terminal, ABI $old_abi: kill(0) works, inside the jail's own session" \
  out_has OK:killgroup
check_capture "own terminal, ABI $old_abi: nothing reached the caller" out_lacks CALLER-SIGNALLED

# Without a terminal: a session of the jail's own.
capture no_terminal "$AJ" --profile-dir "$PROFILES" "${old_args[@]}" -- "$probe" killgroup
check_capture "no terminal, ABI $old_abi: the jailed probe ran to the end" \
  out_has_line caller-rc=0
check_capture "no terminal, ABI $old_abi: kill(0) works, inside the jail's own session" \
  out_has_line OK:killgroup
check_capture "no terminal, ABI $old_abi: nothing reached the caller" out_lacks CALLER-SIGNALLED
if [ "$AJ_TEST_MODE" = nouserns ]; then
  check_capture "no terminal, ABI $old_abi, no PID namespace: kill(-1, 0) is refused with EPERM" \
    out_has_line ERR:killall0:EPERM
else
  check_capture "no terminal, ABI $old_abi, PID namespace: kill(-1, 0) is left to the namespace" \
    out_lacks ERR:killall0:EPERM
fi

# Signals between the jail's own processes still work.
capture aj --profile-dir "$PROFILES" "${old_args[@]}" -- \
  sh -c 'sleep 30 & kill $!; wait $!; echo "child-status=$?"'
check_capture "ABI $old_abi: the command can still kill its own child" out_has_line child-status=143

finish
