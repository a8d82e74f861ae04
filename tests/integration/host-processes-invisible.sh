#!/bin/bash
# The command lives in its own PID namespace: host processes are invisible and
# cannot be signalled, and PID 1 is agentjail's init (not the command).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

mark=3778.$(unique_token)
start_bg sleep "$mark"
wait_until 5 marker_alive "sleep $mark" || die "the host marker process did not start"
host_pid=$(pgrep -f -- "sleep $mark" | head -n1)

probe='seen=0
for c in /proc/[0-9]*/cmdline; do
  tr "\0" " " < "$c" 2>/dev/null | grep -q "sleep[ ]$1" && seen=1  # [ ]: grep must not match its own argv
done
[ "$seen" = 1 ] && echo MARK:SEEN || echo MARK:UNSEEN
kill -0 "$2" 2>/dev/null && echo KILL0:OK || echo KILL0:FAILED
echo "NPROC:$(ls -d /proc/[0-9]* | wc -l)"
echo "SELF:$$"
echo "PPID:$PPID"
echo "PID1COMM:$(cat /proc/1/comm 2>/dev/null)"
echo "SELFCOMM:$(cat /proc/$$/comm)"'

# Control: without the jail, the host marker is visible and signalable.
capture as_user sh -c "$probe" sh "$mark" "$host_pid"
check_capture "control: the host marker process is visible without the jail" out_has_line MARK:SEEN
check_capture "control: kill -0 reaches it without the jail" out_has_line KILL0:OK
host_nproc=$(field NPROC)

capture jail -- sh -c "$probe" sh "$mark" "$host_pid"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: the host marker process is invisible" out_has_line MARK:UNSEEN
check_capture "inside: kill -0 of the host pid $host_pid fails" out_has_line KILL0:FAILED
nproc=$(field NPROC)
check_capture "inside: only a handful of processes exist (${nproc:-?} inside, $host_nproc on the host)" \
  int_le "$nproc" 6
self=$(field SELF)
check_capture "inside: the command is not PID 1 (it is ${self:-?})" set_and_not "$self" 1
check_capture "inside: the command's parent is PID 1, the init" out_has_line "PPID:1"
pid1=$(field PID1COMM)
check_capture "inside: PID 1 exists and is not the command ('${pid1}')" \
  set_and_not "$pid1" sh
check "host: the marker process is still alive (not signalled from inside)" kill -0 "$host_pid"

finish
