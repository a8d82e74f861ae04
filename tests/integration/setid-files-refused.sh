#!/bin/bash
# The command cannot leave a set-user-ID or set-group-ID file behind: such a
# file outlives the session and runs, for whoever executes it later, as the
# user who started the jail (as root, when root did). Neither Landlock nor the
# mounts govern file modes, so seccomp refuses every way to set those bits
# (chmod, fchmod, fchmodat, fchmodat2, a mode given to open, openat, creat or
# mknod, an O_TMPFILE linked in) and answers openat2, whose mode it cannot
# read, with ENOSYS. Ordinary modes, creates and the sticky bit keep working;
# the refusals are journaled with the mode decoded; trace mode (where the
# supervisor sees opens first) refuses the same.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

probe=$(install_probe sysprobe)
refused=(chmod_suid chmod_sgid chmod_suid_hibits fchmod_suid fchmodat_suid fchmodat2_suid
  open_creat_suid openat_creat_sgid creat_suid tmpfile_suid mknod_suid)
allowed=(setid_create chmod_plain open_creat_plain mkdir_plain chmod_sticky)

# Control: without the jail, the test user makes set-ID files in a directory
# of its own (fchmodat2 needs Linux 6.6).
mkdir -p "$RUN/control" "$WS/jailed" "$WS/traced"
chown "$TEST_UID:$TEST_GID" "$RUN/control" "$WS/jailed" "$WS/traced"
capture as_user "$probe" "setid:$RUN/control"
controlled=()
for c in "${refused[@]}" openat2_creat_suid; do
  if out_has_line "OK:$c"; then
    controlled+=("$c")
  elif [ "$c" = fchmodat2_suid ] && out_has_line "ERR:$c:ENOSYS"; then
    note "fchmodat2 is not in this kernel (before 6.6): its refusal is still checked"
  else
    fail "control: $c makes a set-ID file as $TEST_USER without the jail"
    show_capture
  fi
done
pass "control: ${#controlled[@]} ways to make a set-ID file work as $TEST_USER without the jail"
check_capture "control: the set-ID files are there on the host" \
  [ -n "$(find "$RUN/control" -perm /6000 -print -quit)" ]

J=$RUN/setid.jsonl
capture jail --journal "$J" -- "$probe" "setid:$WS/jailed"
check_capture "the jailed probe ran (exit 0)" rc_is 0
for c in "${refused[@]}"; do
  check_capture "inside: $c is refused with EPERM" out_has_line "ERR:$c:EPERM"
done
check_capture "inside: openat2 answers ENOSYS (its mode is out of the filter's reach)" \
  out_has_line "ERR:openat2_creat_suid:ENOSYS"
for c in "${allowed[@]}"; do
  check_capture "inside: $c works" out_has_line "OK:$c"
done
left=$(find "$WS/jailed" -perm /6000 -printf '%p %m\n')
check_capture "host: no set-ID file was left in the workspace" [ -z "$left" ]
[ -z "$left" ] || note "left: $left"
check_capture "host: the plain file the command made is there" [ -f "$WS/jailed/setid-plain" ]

OUT=$(python3 - "$J" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "syscall.deny":
        print("DENY %s %s %s %s" % (e.get("syscall"), e.get("error"), e.get("decision"), e.get("args")))
PY
) ERR="" RC=0
check_capture "journal: chmod refused, with the mode decoded" out_has_line "DENY chmod EPERM deny mode=04755"
check_capture "journal: open refused, with flags and mode decoded" \
  out_matches '^DENY open EPERM deny flags=0[0-7]+ mode=04755$'
check_capture "journal: no deny event for openat2 (ENOSYS is compatibility, not a refusal)" \
  out_lacks "DENY openat2"

# Trace mode notifies opens before the filter's own answer: it must still
# refuse a set-ID create and keep openat2 at ENOSYS.
capture jail --trace --journal "$RUN/trace.jsonl" -- "$probe" "setid:$WS/traced"
check_capture "trace mode: the jailed probe ran (exit 0)" rc_is 0
for c in open_creat_suid openat_creat_sgid creat_suid tmpfile_suid; do
  check_capture "trace mode: $c is refused with EPERM" out_has_line "ERR:$c:EPERM"
done
check_capture "trace mode: openat2 answers ENOSYS" out_has_line "ERR:openat2_creat_suid:ENOSYS"
check_capture "trace mode: a plain create works" out_has_line "OK:open_creat_plain"
check_capture "trace mode, host: no set-ID file was left" \
  [ -z "$(find "$WS/traced" -perm /6000 -print -quit)" ]

# A profile whose action is kill keeps it for the calls trace mode notifies.
write_profile killcreat <<'TOML'
[profile]
extends = ["default"]
[seccomp]
deny = ["creat"]
action = "kill"
TOML
mkdir -p "$WS/killed" && chown "$TEST_UID:$TEST_GID" "$WS/killed"
capture jail --profile killcreat --trace --journal "$RUN/kill.jsonl" -- "$probe" "setid:$WS/killed"
# The supervisor kills with SIGKILL (seccomp itself would die of SIGSYS, 159).
check_capture "trace mode, kill action: creat kills the command (SIGKILL, exit 137)" rc_is 137
check_capture "trace mode, kill action: the probe got as far as creat and no further" \
  eval 'out_has_line ERR:openat_creat_sgid:EPERM && out_lacks :creat_suid && out_lacks :tmpfile_suid'

finish
