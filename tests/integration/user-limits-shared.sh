#!/bin/bash
# Some kernel limits are counted per user, the host's programs and the
# jail's together: a command that took all it could made them fail for every
# program of the user on the host (round 16). Queued real-time signals
# (RLIMIT_SIGPENDING): the jail's limit is a built-in 1024. inotify
# instances (and watches, fanotify groups and marks): with user namespaces,
# the jail's namespace gets half of the user's. Meanwhile a host program of
# the same user can still queue signals and make an inotify instance.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

# Queues SIGRTMIN to its own thread (blocked; tgkill, which is refused at
# the limit, where kill() would only drop the signal's data) until refused,
# says how many, then holds them for HOLD seconds.
probe='import os, signal, sys, threading, time
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGRTMIN])
n = 0
while n < 200000:
    try:
        signal.pthread_kill(threading.get_ident(), signal.SIGRTMIN)
    except OSError as e:
        print("QUEUED:%d:%s" % (n, os.strerror(e.errno)), flush=True)
        break
    n += 1
else:
    print("QUEUED:%d:no limit" % n, flush=True)
time.sleep(float(sys.argv[1]))'

limit=$(as_user python3 -c 'import resource; print(resource.getrlimit(resource.RLIMIT_SIGPENDING)[0])')
capture as_user python3 -c "$probe" 0
check_capture "control: without the jail the user may queue more than 1024 (ulimit -i: $limit)" \
  sh -c 'n=$(printf "%s\n" "$1" | sed -n "s/^QUEUED:\([0-9]*\):.*/\1/p"); [ "${n:-0}" -gt 1024 ]' sh "$OUT"

jail_argv -q --journal off -- python3 -c "$probe" 8
start_bg "${JAIL_ARGV[@]}" >"$RUN/jail.out" 2>&1
wait_until 10 grep -q QUEUED "$RUN/jail.out" || die "the jailed probe did not report"
OUT=$(cat "$RUN/jail.out") ERR="" RC=0
queued=$(printf '%s\n' "$OUT" | sed -n 's/^QUEUED:\([0-9]*\):.*/\1/p')
check_capture "inside: at most 1024 signals queued ($queued)" int_le "${queued:-999999}" 1024
capture as_user python3 -c "$probe" 0
check_capture "host, meanwhile: the user's programs can still queue signals" \
  sh -c 'n=$(printf "%s\n" "$1" | sed -n "s/^QUEUED:\([0-9]*\):.*/\1/p"); [ "${n:-0}" -gt 1000 ]' sh "$OUT"
# inotify: instances held until refused, then HOLD seconds.
iprobe='import ctypes, sys, time
libc = ctypes.CDLL(None, use_errno=True)
fds = []
while len(fds) < 100000:
    fd = libc.inotify_init1(0)
    if fd < 0:
        break
    fds.append(fd)
print("INSTANCES:%d" % len(fds), flush=True)
time.sleep(float(sys.argv[1]))'
host_max=$(cat /proc/sys/user/max_inotify_instances)
if [ "$AJ_TEST_MODE" = nouserns ]; then
  note "without user namespaces the inotify limits are the user's own: not divided"
else
  jail_argv -q --journal off -- python3 -c "$iprobe" 8
  start_bg "${JAIL_ARGV[@]}" >"$RUN/ino.out" 2>&1
  wait_until 10 grep -q INSTANCES "$RUN/ino.out" || die "the jailed inotify probe did not report"
  OUT=$(cat "$RUN/ino.out") ERR="" RC=0
  n=$(printf '%s\n' "$OUT" | sed -n 's/^INSTANCES://p')
  check_capture "inside: at most half of the user's inotify instances ($n of $host_max)" \
    int_le "${n:-999999}" $((host_max / 2))
  capture as_user python3 -c "$iprobe" 0
  m=$(printf '%s\n' "$OUT" | sed -n 's/^INSTANCES://p')
  check_capture "host, meanwhile: the user can still make inotify instances ($m)" \
    sh -c '[ "${1:-0}" -gt 0 ]' sh "$m"
fi
finish
