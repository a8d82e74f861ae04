#!/bin/bash
# The journal is out of the command's reach even when the home directory that
# holds it is bound read-write: with the default location
# ~/.local/state/agentjail/sessions (XDG_STATE_HOME unset) and --rw ~, the
# command sees no journal (neither its own nor an earlier session's), cannot
# read, append to, create or delete files there; on the host the journal is
# written (mode 0600, directory 0700) and untouched. Without user namespaces
# agentjail refuses that layout instead.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

D=$FAKE_HOME/.local/state/agentjail/sessions

# Without user namespaces nothing can be hidden inside a grant: agentjail must
# refuse this layout (with a clear reason) rather than expose the journal, and
# run once the journal is elsewhere.
if [ "${AJ_TEST_MODE:-userns}" = nouserns ]; then
  token=$(unique_token)
  capture jail --rw "$FAKE_HOME" -- echo "ran-$token"
  check_capture "no user namespace: refuses the journal inside a read-write home (exit 125)" rc_is 125
  check_capture "... saying the journal cannot be hidden" err_matches "journal's directory .* cannot be hidden"
  check_capture "... and the command did not run" out_lacks "ran-$token"
  capture jail --rw "$FAKE_HOME" --journal "$RUN/elsewhere.jsonl" -- echo "ran-$token"
  check_capture "control: with the journal outside the home it runs" out_has_line "ran-$token"
  check "control: ... and that journal was written" [ -s "$RUN/elsewhere.jsonl" ]
  finish
fi
# The host path is passed in: the jail may give the command another $HOME.
probe='D=$2
echo "SESSION:$AGENTJAIL_SESSION"
if l=$(ls -A "$D" 2>&1); then echo "LIST:$(echo $l)"; else echo "LISTERR"; fi
if cat "$D/$AGENTJAIL_SESSION.jsonl" >/dev/null 2>&1; then echo "READOWN"; else echo "READOWNERR"; fi
if cat "$D/$1.jsonl" >/dev/null 2>&1; then echo "READOLD"; else echo "READOLDERR"; fi
if echo "{\"FORGED-$((6*7))\":1}" 2>/dev/null >>"$D/$AGENTJAIL_SESSION.jsonl"; then echo "APPENDED"; else echo "APPENDERR"; fi
if echo "FORGED-$((6*7))" 2>/dev/null >"$D/forged.jsonl"; then echo "CREATED"; else echo "CREATEERR"; fi
rm -f "$D/$1.jsonl" 2>/dev/null
if echo x 2>/dev/null >"$HOME/home-write-ok"; then echo "HOMEWRITE"; else echo "HOMEWRITEERR"; fi'

# An earlier session leaves its journal in the default place.
capture jail --rw "$FAKE_HOME" -- sh -c 'echo "SESSION:$AGENTJAIL_SESSION"'
check_capture "a first session ran (exit 0)" rc_is 0
old=$(field SESSION)
check_capture "outside: the first session's journal is at $D/$old.jsonl" [ -n "$old" ] 
check "outside: ... and it exists" [ -s "$D/$old.jsonl" ]

# Control: outside the jail the test user can list and write the directory.
capture as_user sh -c 'ls -A "$1" && echo x >"$1/control" && rm "$1/control" && echo CONTROL-OK' sh "$D"
check_capture "control: without the jail, the test user lists and writes $D" out_has_line CONTROL-OK

capture jail --rw "$FAKE_HOME" -- sh -c "$probe" sh "$old" "$D"
check_capture "the jailed probe ran (exit 0)" rc_is 0
check_capture "inside: the home is bound read-write (a file can be written there)" out_has_line HOMEWRITE
new=$(field SESSION)
list=$(field LIST)
check_capture "inside: the sessions directory is unreadable or empty" \
  sh -c '[ "$1" = "" ] || [ "$2" = yes ]' sh "$list" "$(out_has_line LISTERR && echo yes)"
check_capture "inside: no journal file name is visible (neither $old nor $new)" \
  sh -c '! printf "%s\n" "$1" | grep -qE "$2|$3|jsonl"' sh "$list" "$old" "$new"
check_capture "inside: the session's own journal cannot be read" out_has_line READOWNERR
check_capture "inside: the earlier session's journal cannot be read" out_has_line READOLDERR
check_capture "inside: nothing can be appended to the session's journal path" out_has_line APPENDERR
check_capture "inside: no file can be created in the sessions directory" out_has_line CREATEERR

check "outside: this session's journal exists at $D/$new.jsonl" [ -s "$D/$new.jsonl" ]
check "outside: it starts with session.start and ends with session.end" python3 - "$D/$new.jsonl" <<'PY'
import json, sys
ev = [json.loads(l).get("event") for l in open(sys.argv[1])]
sys.exit(0 if ev and ev[0] == "session.start" and ev[-1] == "session.end" else 1)
PY
# (The command line holds FORGED-$((6*7)); only a write from inside yields FORGED-42.)
check "outside: nothing forged reached it" sh -c '! grep -q FORGED-42 "$1"' sh "$D/$new.jsonl"
check "outside: no forged file appeared in $D" [ ! -e "$D/forged.jsonl" ]
check "outside: the earlier journal is still there (rm -f inside did not reach it)" [ -s "$D/$old.jsonl" ]
check "outside: the journal is mode 0600 ($(stat -c %a "$D/$new.jsonl" 2>/dev/null))" \
  [ "$(stat -c %a "$D/$new.jsonl" 2>/dev/null)" = 600 ]
check "outside: the sessions directory is mode 0700 ($(stat -c %a "$D" 2>/dev/null))" \
  [ "$(stat -c %a "$D" 2>/dev/null)" = 700 ]

finish
