#!/bin/bash
# A directory (or O_PATH) descriptor on fds 0-2 or named with --pass-fd was
# opened in the host's mount namespace: through openat(fd, "..") or
# /proc/self/fd/N the command would walk the host's tree past every hidden
# path. agentjail refuses to start with one; a regular file still passes.
source "$(dirname "$0")/lib.sh"
aj_setup

token=$(unique_token)
mkfile_as_user "$RUN/outside/secret.txt" "OUTSIDE-$token"

probe='c=$(cat /proc/self/fd/0/secret.txt 2>/dev/null) && echo "READ:$c"
echo RAN-$((6*7))'

# Control: without the jail, a directory on stdin reaches the file.
capture as_user sh -c "$probe" <"$RUN/outside"
check_capture "control: the file is read through the directory on stdin" \
  out_has_line "READ:OUTSIDE-$token"

capture jail -- sh -c "$probe" <"$RUN/outside"
check_capture "a directory on stdin: agentjail refuses (exit 125)" rc_is 125
check_capture "a directory on stdin: the command did not run" out_lacks RAN-42
check_capture "a directory on stdin: the message names the descriptor" \
  err_matches "file descriptor 0 .*is a directory"
check_capture "a directory on stdin: the file's contents appear nowhere" all_lacks "OUTSIDE-$token"

capture jail --pass-fd 7 -- sh -c 'echo RAN-$((6*7))' 7<"$RUN/outside"
check_capture "--pass-fd of a directory: agentjail refuses (exit 125)" rc_is 125
check_capture "--pass-fd of a directory: the command did not run" out_lacks RAN-42

# The allowed thing: a regular file on stdin is read as before.
capture jail -- sh -c 'cat; echo RAN-$((6*7))' <"$RUN/outside/secret.txt"
check_capture "a regular file on stdin: the command ran (exit 0)" rc_is 0
check_capture "a regular file on stdin: it reads the file" out_has_line "OUTSIDE-$token"

finish
