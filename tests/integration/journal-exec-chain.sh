#!/bin/bash
# Every execve inside the jail is journaled as an `exec` event with its path,
# its argv and host pids: `sh -c 'ls; git --version'` gives exec events for
# sh, ls and git, and ls and git name sh as their parent.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v git >/dev/null || die "git is needed"
command -v python3 >/dev/null || die "python3 is needed"

J=$RUN/j.jsonl
script='ls >/dev/null; git --version'

# Control: the same command line outside the jail runs both programs.
capture as_user sh -c "$script"
check_capture "control: sh -c '$script' prints git's version without the jail" out_has "git version"

capture jail --journal "$J" -- sh -c "$script"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: git printed its version" out_has "git version"
check "the journal file exists at --journal $J" [ -s "$J" ]

execs=$(journal_execs "$J")
OUT=$execs ERR="" RC=0
ev() { printf '%s\n' "$execs" | awk -v n="$1" '$1 == n' | head -n1; }
sh_ev=$(ev sh) ls_ev=$(ev ls) git_ev=$(ev git)
check_capture "journal: an exec event for sh with argv [sh,-c,SCRIPT]" \
  [ "$(echo "$sh_ev" | cut -d' ' -f4,6-)" = "allow $(python3 -c 'import json,sys; print(json.dumps(["sh","-c",sys.argv[1]], separators=(",",":")))' "$script")" ]
check_capture "journal: an exec event for ls with argv [ls], decision allow" \
  [ "$(echo "$ls_ev" | cut -d' ' -f4,6-)" = 'allow ["ls"]' ]
check_capture "journal: an exec event for git with argv [git,--version], decision allow" \
  [ "$(echo "$git_ev" | cut -d' ' -f4,6-)" = 'allow ["git","--version"]' ]
sh_pid=$(echo "$sh_ev" | cut -d' ' -f2)
check_capture "journal: sh's pid is a positive integer ($sh_pid)" int_le "${sh_pid:-x}" 4194304
check_capture "journal: ls's ppid is sh's pid ($sh_pid)" [ "$(echo "$ls_ev" | cut -d' ' -f3)" = "$sh_pid" ]
check_capture "journal: git's ppid is sh's pid ($sh_pid)" [ "$(echo "$git_ev" | cut -d' ' -f3)" = "$sh_pid" ]
ls_pid=$(echo "$ls_ev" | cut -d' ' -f2) git_pid=$(echo "$git_ev" | cut -d' ' -f2)
distinct3() { [ -n "$1" ] && [ -n "$2" ] && [ -n "$3" ] && [ "$1" != "$2" ] && [ "$2" != "$3" ] && [ "$1" != "$3" ]; }
check_capture "journal: sh, ls and git have three distinct pids" distinct3 "$sh_pid" "$ls_pid" "$git_pid"

finish
