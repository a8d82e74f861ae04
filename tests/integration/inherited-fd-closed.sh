#!/bin/bash
# File descriptors inherited from the caller (other than 0, 1, 2) are closed
# before the command runs, unless named with --pass-fd N.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

token=$(unique_token)
mkfile_as_user "$RUN/inherited.txt" "INHERITED-$token"
exec 7<"$RUN/inherited.txt"

probe='c=$(cat <&7 2>/dev/null) && echo "FD7:$c" || echo FD7:CLOSED
echo "FDS:$(ls /proc/self/fd | sort -n | tr "\n" " ")"'

capture as_user sh -c "$probe"
check_capture "control: fd 7 is readable without the jail" out_has_line "FD7:INHERITED-$token"

exec 7<"$RUN/inherited.txt"
capture jail -- sh -c "$probe"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: the inherited fd 7 is closed" out_has_line FD7:CLOSED
check_capture "inside: the inherited file's contents appear nowhere" all_lacks "INHERITED-$token"
fds=$(field FDS)
extra=$(for f in $fds; do case $f in 0 | 1 | 2) ;; *) [ -e "/proc/$$/fd/$f" ] && echo "$f" ;; esac; done)
note "inside, ls /proc/self/fd saw: $fds (ls's own directory fd is expected)"
check_capture "inside: only 0, 1, 2 and ls's own directory fd are open" int_le "$(echo $fds | wc -w)" 4

exec 7<"$RUN/inherited.txt"
capture jail --pass-fd 7 -- sh -c "$probe"
check_capture "--pass-fd 7: the fd is readable inside" out_has_line "FD7:INHERITED-$token"
exec 7<&-

finish
