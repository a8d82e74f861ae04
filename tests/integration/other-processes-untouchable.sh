#!/bin/bash
# The command cannot reach the host's processes by pid, nor the host's IPC
# objects: with a PID namespace they are not there; without one
# (--no-userns) seccomp lets prlimit, setpriority, ioprio_set and the
# sched_set* calls name only the caller (pid 0), and refuses System V and
# POSIX message-queue IPC. Otherwise the command could set a host process's
# RLIMIT_NOFILE to 0, or the supervisor's RLIMIT_FSIZE to 1 and so kill it,
# leaving the session unrecorded and running. What a process does to itself
# still works.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"
install_probe tryop.py >/dev/null

start_victim() {
  start_bg /bin/sleep 300
  victim=$BG_PID
  wait_until 5 grep -qx sleep "/proc/$victim/comm" || die "the host process did not start"
}
start_victim
limits_before=$(grep "Max open files" "/proc/$victim/limits")
shm_key=$((0x41000000 + RANDOM))
shm_id=$(as_user python3 -c '
import ctypes, sys
libc = ctypes.CDLL(None, use_errno=True)
print(libc.shmget(int(sys.argv[1]), 4096, 0o1600))' "$shm_key")
[ "${shm_id:--1}" -ge 0 ] || die "cannot create the host's shared memory segment"
cleanup_shm() { ipcrm -m "$shm_id" 2>/dev/null; }
trap 'cleanup_shm; _cleanup' EXIT

cat >"$WS/others.py" <<'PY'
import ctypes, os, resource, sys
sys.path.insert(0, ".probe")
from tryop import t
victim, shm_key = int(sys.argv[1]), int(sys.argv[2])
control = len(sys.argv) > 3  # outside the jail: only what touches the victim and the segment
libc = ctypes.CDLL(None, use_errno=True)
def ok(r):
    if r < 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
t("prlimit_other", lambda: resource.prlimit(victim, resource.RLIMIT_NOFILE, (0, 0)))
t("setpriority_other", lambda: os.setpriority(os.PRIO_PROCESS, victim, 19))
t("shm_host", lambda: ok(libc.shmget(shm_key, 4096, 0o600)))
if control:
    sys.exit(0)
# Every process of the user (root's: the whole system): never tried outside.
t("setpriority_user", lambda: os.setpriority(os.PRIO_USER, 0, 19))
t("affinity_other", lambda: os.sched_setaffinity(victim, {0}))
t("sched_other", lambda: os.sched_setscheduler(victim, os.SCHED_BATCH, os.sched_param(0)))
t("ioprio_other", lambda: ok(libc.syscall(251, 1, victim, (3 << 13) | 7)))  # ioprio_set, idle
# The supervisor, an ancestor without a PID namespace: its RLIMIT_FSIZE.
pid, ancestors = os.getppid(), []
while pid > 1:
    ancestors.append(pid)
    with open("/proc/%d/stat" % pid) as f:
        pid = int(f.read().rsplit(")", 1)[1].split()[1])
sup = [p for p in ancestors if open("/proc/%d/comm" % p).read().strip() == "agentjail"]
print("SUPERVISOR_VISIBLE:%s" % bool(sup))
for p in sup:
    t("prlimit_supervisor", lambda: resource.prlimit(p, resource.RLIMIT_FSIZE, (1, 1)))
# What a process may do to itself.
t("prlimit_self", lambda: resource.prlimit(0, resource.RLIMIT_NOFILE, (512, 512)))
t("setrlimit_self", lambda: resource.setrlimit(resource.RLIMIT_CORE, (0, 0)))
t("setpriority_self", lambda: os.setpriority(os.PRIO_PROCESS, 0, 19))  # 19: never a raise
t("affinity_self", lambda: os.sched_setaffinity(0, os.sched_getaffinity(0)))
t("ioprio_self", lambda: ok(libc.syscall(251, 1, 0, (2 << 13) | 4)))
PY
chown "$TEST_UID:$TEST_GID" "$WS/others.py"

# Control: outside the jail the same calls reach the host process.
capture as_user python3 "$WS/others.py" "$victim" "$shm_key" control
check_capture "control: prlimit reaches the host process without the jail" out_has_line OK:prlimit_other
check_capture "control: setpriority reaches it" out_has_line OK:setpriority_other
check_capture "control: the host's shared memory is reachable" out_has_line OK:shm_host
# Put the victim back as it was (the control changed it).
kill "$victim" 2>/dev/null; wait "$victim" 2>/dev/null
start_victim
limits_before=$(grep "Max open files" "/proc/$victim/limits")
prio_before=$(awk '{print $19}' "/proc/$victim/stat")

J=$RUN/j.jsonl
capture jail --journal "$J" -- python3 others.py "$victim" "$shm_key"
check_capture "the jailed probe ran (exit 0)" rc_is 0
for op in prlimit_other setpriority_other setpriority_user affinity_other sched_other ioprio_other shm_host; do
  check_capture "inside: $op fails" out_matches "^ERR:$op:"
done
if [ "$AJ_TEST_MODE" = nouserns ]; then
  check_capture "no PID namespace: the supervisor is visible (the case that matters)" \
    out_has_line SUPERVISOR_VISIBLE:True
  check_capture "inside: the supervisor's RLIMIT_FSIZE cannot be set" \
    out_matches "^ERR:prlimit_supervisor:Operation not permitted"
fi
for op in prlimit_self setrlimit_self setpriority_self affinity_self ioprio_self; do
  check_capture "inside: $op works" out_has_line "OK:$op"
done
check "host: the process's open-file limit is unchanged" \
  [ "$(grep "Max open files" "/proc/$victim/limits")" = "$limits_before" ]
check "host: the process's nice value is unchanged" \
  [ "$(awk '{print $19}' "/proc/$victim/stat")" = "$prio_before" ]
check "the journal ends with session.end (the supervisor lived)" \
  sh -c "tail -n 1 '$J' | grep -q '\"event\":\"session.end\"'"

finish
