#!/bin/bash
# An execve from a thread other than the leader is journaled as the process
# it replaces: the event's pid is the process's (not the thread's id) and its
# ppid is the process's parent. (The notified id is the thread's.)
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

J=$RUN/j.jsonl
prog='import os, threading
t = threading.Thread(target=lambda: os.execv("/bin/echo", ["echo", "from-thread"]))
t.start(); t.join()'

# Control: outside the jail the thread's exec replaces python with echo.
capture as_user sh -c "python3 -c '$prog'"
check_capture "control: a thread's execv runs echo without the jail" out_has "from-thread"

capture jail --journal "$J" -- sh -c "python3 -c '$prog'"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: echo ran from python's thread" out_has "from-thread"

execs=$(journal_execs "$J")
OUT=$execs ERR="" RC=0
ev_field() { printf '%s\n' "$execs" | awk -v n="$1" -v f="$2" '$1 == n { print $f; exit }'; }
sh_pid=$(ev_field sh 2) py_pid=$(ev_field python3 2) py_ppid=$(ev_field python3 3)
echo_pid=$(ev_field echo 2) echo_ppid=$(ev_field echo 3)
all_set() { for v in "$@"; do [ -n "$v" ] || return 1; done; }
check_capture "journal: exec events for sh, python3 and echo" all_set "$sh_pid" "$py_pid" "$echo_pid"
check_capture "journal: python3's parent is sh ($sh_pid)" [ "$py_ppid" = "$sh_pid" ]
check_capture "journal: echo's pid is python's process ($py_pid), not the thread's id" \
  [ "$echo_pid" = "$py_pid" ]
check_capture "journal: echo's ppid is python's parent, sh ($sh_pid)" [ "$echo_ppid" = "$sh_pid" ]

finish
