#!/bin/bash
# The command cannot end its own session unrecorded by killing the jail's
# init or the supervisor, nor signal the user's other processes, while it
# still signals its own. With a PID namespace neither is reachable; without
# one, on a kernel whose Landlock cannot scope signals (ABI < 6, here forced
# with --landlock-abi 5), seccomp refuses kill, tkill, tgkill,
# rt_sigqueueinfo and pidfd_open naming either (and kill of the supervisor's
# process group), and answers pidfd_send_signal with ENOSYS (an open
# /proc/<pid> directory is a pidfd no filter can read a pid from); and the
# supervisor lets kill, tkill, tgkill and rt_(tg)sigqueueinfo through only
# for targets in the session (descendants of the init); F_SETOWN is refused
# there (SIGIO would go to any process of the user). The journal then ends with session.end and nothing the
# command started is left.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"
install_probe tryop.py >/dev/null

abi=$(jail_landlock_abi)
extra=()
# Signal scoping (ABI 6) would hide what is tested: below it already, or forced.
[ "$AJ_TEST_MODE" = nouserns ] && [ "$abi" -ge 6 ] && extra=(--landlock-abi 5)
mark=SURVIVOR-$(unique_token)
start_bg /bin/sleep 300
victim=$BG_PID
wait_until 5 grep -qx sleep "/proc/$victim/comm" || die "the host process did not start"
cat >"$WS/killers.py" <<PY
import os, signal, sys, ctypes, subprocess, threading, time
sys.path.insert(0, ".probe")
from tryop import t
libc = ctypes.CDLL(None, use_errno=True)
def ok(r):
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
# A process that would survive the session if it ended early.
subprocess.Popen(["/bin/sh", "-c", "sleep 300; echo $mark"], start_new_session=True,
                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
victim = $victim
t("kill_host_process", lambda: os.kill(victim, signal.SIGTERM))
t("tgkill_host_process", lambda: ok(libc.syscall(234, victim, victim, signal.SIGTERM)))
import fcntl
pr, pw = os.pipe()
t("setown_host_process", lambda: fcntl.fcntl(pr, fcntl.F_SETOWN, victim))
import socket, struct, termios
sa, sb = socket.socketpair()
t("fiosetown_host_process", lambda: fcntl.ioctl(sa, 0x8901, struct.pack("i", victim)))  # FIOSETOWN
t("siocspgrp_host_process", lambda: fcntl.ioctl(sa, 0x8902, struct.pack("i", victim)))  # SIOCSPGRP
t("setsig_kill", lambda: fcntl.fcntl(sa, 10, signal.SIGKILL))  # F_SETSIG
t("set_o_async", lambda: fcntl.fcntl(sa, fcntl.F_SETFL, os.O_ASYNC))
t("fioasync", lambda: fcntl.ioctl(sa, termios.FIOASYNC, struct.pack("i", 1)))
t("set_o_nonblock", lambda: fcntl.fcntl(sa, fcntl.F_SETFL, os.O_NONBLOCK))
child = subprocess.Popen(["/bin/sleep", "30"])
t("kill_own_child", lambda: os.kill(child.pid, signal.SIGTERM))
child.wait()
t("kill_self", lambda: os.kill(os.getpid(), 0))
t("tgkill_own_thread", lambda: signal.pthread_kill(threading.get_ident(), 0))
init = os.getppid()  # the jail's init
sup = int(open("/proc/%d/stat" % init).read().rsplit(")", 1)[1].split()[1])
print("INIT_IS_ONE:%s" % (init == 1))
t("pidfd_init", lambda: ok(libc.syscall(434, init, 0)))
t("sigqueue_init", lambda: ok(libc.syscall(129, init, 0, ctypes.create_string_buffer(128))))
t("tgkill_init", lambda: ok(libc.syscall(234, init, init, 0)))
if sup > 1:
    t("kill_supervisor", lambda: os.kill(sup, signal.SIGKILL))
    t("tkill_supervisor", lambda: ok(libc.syscall(200, sup, signal.SIGKILL)))
    # A /proc/<pid> directory is a pidfd too, one no filter can read a pid from.
    t("pidfd_proc_supervisor", lambda: ok(libc.syscall(
        424, os.open("/proc/%d" % sup, os.O_RDONLY | os.O_DIRECTORY), signal.SIGKILL, None, 0)))
t("kill_init", lambda: os.kill(init, signal.SIGKILL))
print("STILL_HERE")
PY
chown "$TEST_UID:$TEST_GID" "$WS/killers.py"

J=$RUN/j/j.jsonl
mkdir -p "$RUN/j" && chown "$TEST_UID:$TEST_GID" "$RUN/j"
capture jail "${extra[@]}" --journal "$J" -- /usr/bin/python3 killers.py
check_capture "the probe ran to its end" out_has_line STILL_HERE
check_capture "the session ended normally (exit 0)" rc_is 0
for op in kill_host_process tgkill_host_process; do
  check_capture "inside: $op is refused" out_matches "^ERR:$op:"
done
check "host: the other process is alive" kill -0 "$victim"
for op in kill_own_child kill_self tgkill_own_thread set_o_nonblock; do
  check_capture "inside: $op works" out_has_line "OK:$op"
done
for op in pidfd_init sigqueue_init tgkill_init kill_init; do
  check_capture "inside: $op does not reach the init" out_matches "^(ERR:$op:|OK:$op$)"
done
if [ "$AJ_TEST_MODE" = nouserns ]; then
  for op in pidfd_init kill_init; do
    check_capture "no PID namespace: $op is refused" out_has_line "ERR:$op:Operation not permitted"
  done
  check_capture "no PID namespace: killing the supervisor is refused" \
    out_has_line "ERR:kill_supervisor:Operation not permitted"
  for op in setown_host_process fiosetown_host_process siocspgrp_host_process setsig_kill \
    set_o_async fioasync; do
    check_capture "no PID namespace: $op (a kernel-sent signal to any process) is refused" \
      out_has_line "ERR:$op:Operation not permitted"
  done
  check_capture "no PID namespace: pidfd_send_signal through /proc/<supervisor> is refused" \
    out_has_line "ERR:pidfd_proc_supervisor:Function not implemented"
else
  check_capture "PID namespace: the init is PID 1 (signals to it are ignored)" out_has_line INIT_IS_ONE:True
fi
check "the journal ends with session.end" sh -c "tail -n 1 '$J' | grep -q '\"event\":\"session.end\"'"
check "nothing the command started is left" wait_until 5 marker_gone "$mark"
for pid in $(pgrep -f -- "$mark"); do kill -KILL "$pid" 2>/dev/null; done  # this test's own

finish
