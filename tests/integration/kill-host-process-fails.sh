#!/bin/bash
# The jailed command cannot signal a process outside the jail, even one of its
# own user (PID namespace; without one, Landlock signal scoping, or below
# ABI 6 the supervisor, which lets signals through only to the session).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

probe=$(install_probe sysprobe)
start_bg "$probe" target >"$T/target.out"
target=$BG_PID
wait_until 5 grep -qx "$target" "$T/target.out" || die "the target did not start"

# Control: without the jail, the test user can signal the target (which
# ignores SIGUSR1, so it survives the control).
capture as_user "$probe" "kill:$target"
check_capture "control: kill(pid, 0) reaches the host process without the jail" out_has_line OK:kill0
check_capture "control: kill(pid, SIGUSR1) reaches it without the jail" out_has_line OK:killusr1

capture jail -- "$probe" "kill:$target"
check_capture "the jailed probe ran (exit 0)" rc_is 0
check_capture "inside: kill(host pid $target, 0) fails" out_has "ERR:kill0:"
check_capture "inside: kill(host pid $target, SIGUSR1) fails" out_has "ERR:killusr1:"

# And a signal that would kill it: SIGTERM through the shell.
capture jail -- sh -c "kill -TERM $target && echo SENT || echo REFUSED"
check_capture "inside: kill -TERM of host pid $target is refused" out_has_line REFUSED
check "host: the target is still alive" kill -0 "$target"

finish
