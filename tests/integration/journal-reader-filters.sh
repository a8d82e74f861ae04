#!/bin/bash
# `agentjail journal` reads a journal by path, by session id (or a unique
# prefix), or the newest recorded session; shows a table of time, event,
# decision and summary; --denied and --event filter it; --json passes the
# chosen lines through unchanged; a line that is not an event is reported as
# FILE:LINE and skipped (exit 1); text from the journal cannot put control
# characters on the terminal. The journals are written by hand: no jail runs.
source "$(dirname "$0")/lib.sh"
aj_setup
AJ_EXTRA_ENV=(TZ=UTC)

S=$FAKE_HOME/.local/state/agentjail/sessions
mkdir -p "$S"

# ev SESSION SEQ SECOND EVENT [DECISION] [EXTRA-JSON]: one journal line.
ev() {
  local decision=""
  [ -n "${5:-}" ] && decision=",\"decision\":\"$5\""
  printf '{"v":1,"ts":"2026-11-29T18:40:%02d.123456Z","session":"%s","seq":%d,"event":"%s"%s%s}\n' \
    "$3" "$1" "$2" "$4" "$decision" "${6:+,$6}"
}

# The newer session (by start time) sorts first by name and is written first.
OLD=ffff000011112222
NEW=0000aaaabbbbcccc
{
  ev $NEW 1 10 session.start "" '"argv":["sh","-c","ls; git --version"],"profile_chain":["/p/default.toml","command line"]'
  ev $NEW 2 11 exec allow '"pid":12,"ppid":5,"path":"/usr/bin/git","argv":["git","--version"]'
  ev $NEW 3 12 syscall.deny deny '"pid":12,"syscall":"ioctl","args":"fd=0 request=TIOCSTI (0x5412)","errno":1,"error":"EPERM"'
  ev $NEW 4 13 net.connect deny '"host":"evil.example","port":443,"reason":"not in allowlist"'
  ev $NEW 5 14 net.request allow '"method":"GET","url":"https://ok.example/"'
  ev $NEW 6 15 exec allow '"pid":13,"ppid":12,"path":"/tmp/x","argv":["x","\u001b]0;pwned\u0007","a\nb"]'
  ev $NEW 7 16 session.end "" '"exit_code":1,"duration_ms":6000,"denied":2'
} >"$S/$NEW.jsonl"
# Last by name and by mtime: only the start times make $NEW the newest.
{
  ev $OLD 1 1 session.start "" '"argv":["make"]'
  ev $OLD 2 2 session.end "" '"exit_code":0'
} >"$S/$OLD.jsonl"
chown -R "$TEST_UID:$TEST_GID" "$FAKE_HOME/.local"

rows_are() { [ "$(printf '%s\n' "$OUT" | wc -l)" -eq "$1" ]; }
rows_with_are() { [ "$(printf '%s\n' "$OUT" | grep -cF -- "$1")" -eq "$2" ]; }
# No control character other than newline in the captured stdout.
out_has_no_controls() { ! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$T/.out"; }

capture aj journal "$S/$NEW.jsonl"
check_capture "journal FILE exits 0" rc_is 0
check_capture "... prints the table header" out_has_line "TIME          EVENT          DECISION  SUMMARY"
check_capture "... summarises exec as path, argv, pid and ppid" \
  out_has_line "18:40:11.123  exec           allow     /usr/bin/git: git --version (pid 12, ppid 5)"
check_capture "... summarises syscall.deny with its decoded argument" \
  out_has_line "18:40:12.123  syscall.deny   deny      ioctl(fd=0 request=TIOCSTI (0x5412)) -> EPERM (pid 12)"
check_capture "... summarises session.start with the command and profile" \
  out_has "session.start  -         sh -c 'ls; git --version' (profile default)"
check_capture "... summarises session.end with the exit status" out_has "exit 1 after 6.0s, 2 denied"
check_capture "... prints every event (7 rows + header)" rows_are 8
check_capture "... shows journal text with its control characters escaped" \
  out_has "'\\x1b]0;pwned\\x07' 'a\\nb'"
check "... and puts no ESC, BEL or other control byte on the terminal" out_has_no_controls

capture aj journal $NEW
check_capture "journal SESSION finds it in the state directory" out_has "git --version (pid 12"
capture aj journal 0000aa
check_capture "journal with a unique prefix of a session id finds it" out_has "git --version (pid 12"
# A file named after the session in the current directory (the workspace,
# where a jailed command could leave a forged one) does not shadow it.
{
  ev $NEW 1 10 session.start "" '"argv":["make","test"]'
  ev $NEW 2 11 session.end "" '"exit_code":0'
} >"$WS/$NEW"
cp "$WS/$NEW" "$WS/0000aa"
chown "$TEST_UID:$TEST_GID" "$WS/$NEW" "$WS/0000aa"
capture aj journal $NEW
check_capture "a file named after the session does not shadow its journal" \
  out_has "git --version (pid 12"
check_capture "...and the user is told which was read" err_matches "is a session in"
capture aj journal 0000aa
check_capture "nor one named after a prefix" out_has "git --version (pid 12"
capture aj journal "./$NEW"
check_capture "./NAME still reads the file" out_has "make test"
rm -f "$WS/$NEW" "$WS/0000aa"
capture aj journal
check_capture "journal alone shows the newest session (by start time, not name)" \
  out_has "git --version (pid 12"
capture aj journal --last
check_capture "journal --last too" out_has "git --version (pid 12"

capture aj journal --denied $NEW
check_capture "--denied exits 0" rc_is 0
check_capture "--denied keeps the refused syscall" out_has "ioctl(fd=0"
check_capture "--denied keeps the refused connection" out_has "evil.example:443"
check_capture "--denied drops the rest" out_lacks "exec           allow"
check_capture "... 2 rows + header" rows_are 3

capture aj journal --event exec $NEW
check_capture "--event exec keeps the 2 exec events" rows_with_are "  exec  " 2
check_capture "... and only them (2 rows + header)" rows_are 3
capture aj journal --event net $NEW
check_capture "--event net takes net.connect" out_has "net.connect"
check_capture "... and net.request" out_has "net.request"
check_capture "... and nothing else (2 rows + header)" rows_are 3
# One TYPE per --event: the session after it is the session, not a type
# (the older one here, while the newest would be taken by default).
capture aj journal --event session.end $OLD
check_capture "--event TYPE SESSION: the SESSION named is shown" out_has "exit 0"
check_capture "... not the newest" out_lacks "exit 1 after"
capture aj journal --event bogus $NEW
check_capture "--event with a type that does not exist is a usage error (125)" rc_is 125
check_capture "... naming it" err_matches "--event 'bogus': not an event type"
capture aj journal --event exec --event session.end $NEW
check_capture "--event may be repeated (3 rows + header)" rows_are 4

capture aj journal --json --denied $NEW
check_capture "--json --denied exits 0" rc_is 0
check_capture "--json passes the deny lines through byte for byte" \
  [ "$OUT" = "$(grep '"decision":"deny"' "$S/$NEW.jsonl")" ]

# A journal that also holds a line that is not an event, and one cut short.
BAD=$RUN/bad.jsonl
{
  ev bad 1 1 session.start
  printf 'this is not json\n'
  ev bad 2 2 exec allow '"path":"/bin/true","argv":["true"]'
  printf '{"v":1,"event":"exec","argv":["cut'
} >"$BAD"
chown "$TEST_UID:$TEST_GID" "$BAD"
capture aj journal "$BAD"
check_capture "a journal with malformed lines exits 1" rc_is 1
check_capture "... names FILE:LINE of the bad line" err_matches "^agentjail: $BAD:2: not a journal event$"
check_capture "... and of the cut-off last line" err_matches "^agentjail: $BAD:4: not a journal event$"
check_capture "... and still shows the valid events" out_has "/bin/true: true"

capture as_user sh -c "'$AJ' journal --json - <'$S/$NEW.jsonl'"
check_capture "journal - reads standard input" [ "$OUT" = "$(cat "$S/$NEW.jsonl")" ]

capture aj journal no-such-session
check_capture "an unknown session exits 1" rc_is 1
check_capture "... and says so, naming it" err_matches "no-such-session"
cp "$S/$OLD.jsonl" "$S/ffff0000aaaa.jsonl"
chown "$TEST_UID:$TEST_GID" "$S/ffff0000aaaa.jsonl"
capture aj journal ffff0000
check_capture "an ambiguous prefix exits 1" rc_is 1
check_capture "... and says it is ambiguous" err_matches "ambiguous"
capture aj journal --last $NEW
check_capture "--last with a SESSION is a usage error (125)" rc_is 125

finish
