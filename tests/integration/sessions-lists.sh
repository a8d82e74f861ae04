#!/bin/bash
# `agentjail sessions` lists the sessions recorded under
# $XDG_STATE_HOME/agentjail/sessions: id, start time, exit status (- without a
# session.end), number of denials and command, oldest first and the newest
# last (by start time, not by file name); it skips files that are not
# journals; with no sessions it says so and exits 0. The journals are written
# by hand: no jail runs.
source "$(dirname "$0")/lib.sh"
aj_setup
AJ_EXTRA_ENV=(TZ=UTC)

STATE=$T/state
S=$STATE/agentjail/sessions
AJ_EXTRA_ENV+=("XDG_STATE_HOME=$STATE")

capture aj sessions
check_capture "with no sessions directory: exit 0" rc_is 0
check_capture "... and it says there are no recorded sessions" err_matches "no recorded sessions"

mkdir -p "$S"
# line SESSION SEQ TS EVENT [DECISION] [EXTRA-JSON]
line() {
  local decision=""
  [ -n "${5:-}" ] && decision=",\"decision\":\"$5\""
  printf '{"v":1,"ts":"%s","session":"%s","seq":%d,"event":"%s"%s%s}\n' \
    "$3" "$1" "$2" "$4" "$decision" "${6:+,$6}"
}
{
  line aaaa 1 2026-11-29T10:00:00.000001Z session.start "" '"argv":["make","-j8"]'
  line aaaa 2 2026-11-29T10:00:01.000001Z syscall.deny deny '"syscall":"ptrace"'
  line aaaa 3 2026-11-29T10:00:02.000001Z session.end "" '"exit_code":124,"timed_out":true'
} >"$S/aaaa.jsonl"
{
  line bbbb 1 2026-11-28T09:00:00.000001Z session.start "" '"argv":["sh","-c","echo hi"]'
  line bbbb 2 2026-11-28T09:00:01.000001Z exec allow '"path":"/bin/sh"'
  line bbbb 3 2026-11-28T09:00:02.000001Z session.end "" '"exit_code":0'
} >"$S/bbbb.jsonl"
{
  line cccc 1 2026-11-30T08:00:00.000001Z session.start "" '"argv":["claude"]'
  line cccc 2 2026-11-30T08:00:01.000001Z fs.deny deny '"path":"/home/u/.ssh/id_rsa"'
  line cccc 3 2026-11-30T08:00:02.000001Z syscall.deny deny '"syscall":"bpf"'
  line cccc 4 2026-11-30T08:00:03.000001Z syscall.deny deny '"syscall":"keyctl"'
} >"$S/cccc.jsonl"
# Long journals (over 128 KiB): a finished one is summarised from its first
# and last lines, a running one (no session.end yet) is read through.
long_journal() {  # SESSION DAY ENDED
  local i
  line "$1" 1 "$2T07:00:00.000001Z" session.start "" '"argv":["npm","test"]'
  for ((i = 2; i < 2000; i++)); do
    line "$1" "$i" "$2T07:00:01.000001Z" exec allow \
      '"path":"/usr/bin/node","argv":["node","--max-old-space-size=4096","jest.js","--ci"]'
  done
  line "$1" 2000 "$2T07:00:02.000001Z" syscall.deny deny '"syscall":"ptrace"'
  line "$1" 2001 "$2T07:00:03.000001Z" syscall.deny deny '"syscall":"bpf"'
  [ "$3" = ended ] && line "$1" 2002 "$2T07:00:04.000001Z" session.end "" '"exit_code":1,"denied":2'
  return 0
}
long_journal dddd 2026-11-27 ended >"$S/dddd.jsonl"
long_journal eeee 2026-12-01 running >"$S/eeee.jsonl"
printf 'not a journal at all\n' >"$S/junk.jsonl"
printf '{"v":1,"event":"exec"}\n' >"$S/notes.txt"
chmod -R a+rX "$STATE"

capture aj sessions
check_capture "sessions exits 0" rc_is 0
check_capture "... prints a header" out_has_line "SESSION  START                EXIT            DENIED  COMMAND"
check_capture "... lists a finished session: id, start, exit, denials, command" \
  out_has_line "bbbb     2026-11-28 09:00:00  0                    0  sh -c 'echo hi'"
check_capture "... shows a timeout and the denial count" \
  out_has_line "aaaa     2026-11-29 10:00:00  124 (timeout)        1  make -j8"
check_capture "... shows - for a session without session.end" \
  out_has_line "cccc     2026-11-30 08:00:00  -                    3  claude"
check_capture "... a long finished journal: exit and denials from its last line" \
  out_has_line "dddd     2026-11-27 07:00:00  1                    2  npm test"
check_capture "... a long journal still being written: - and the denials counted" \
  out_has_line "eeee     2026-12-01 07:00:00  -                    2  npm test"
order=$(printf '%s\n' "$OUT" | awk 'NR > 1 { print $1 }' | tr '\n' ' ')
check_capture "... oldest first, newest last (by start time): got '$order'" \
  [ "$order" = "dddd bbbb aaaa cccc eeee " ]
check_capture "... skips a file holding no journal events" out_lacks "junk"
check_capture "... and files that are not *.jsonl" out_lacks "notes"

finish
