#!/bin/bash
# `agentjail journal --follow FILE` shows the events already there, then the
# ones appended while the session runs (a line only once it is complete), and
# exits 0 by itself once the session's session.end arrives. The journal is
# appended to by hand: no jail runs.
source "$(dirname "$0")/lib.sh"
aj_setup
AJ_EXTRA_ENV=(TZ=UTC)

J=$RUN/live.jsonl
F=$RUN/follow.out
line() {
  printf '{"v":1,"ts":"2026-11-29T18:40:%02d.000001Z","session":"live","seq":%d,"event":"%s"%s}\n' \
    "$1" "$1" "$2" "${3:+,$3}"
}
line 1 session.start '"argv":["agent"]' >"$J"
chown "$TEST_UID:$TEST_GID" "$J"
chmod 644 "$J"

start_bg sh -c 'exec "$0" journal --follow "$1" >"$2" 2>&1' "$AJ" "$J" "$F"
follower=$BG_PID
alive() { kill -0 "$follower" 2>/dev/null; }
has() { grep -qF -- "$1" "$F" 2>/dev/null; }

check "the events already there are shown" wait_until 10 has "session.start  -         agent"
line 2 exec '"decision":"allow","path":"/bin/echo","argv":["echo","one"]' >>"$J"
check "an appended event is shown" wait_until 10 has "/bin/echo: echo one"
check "the follower keeps running while the session has not ended" alive

# Half a line: the writer is mid-event. Nothing may be shown for it yet.
half=$(line 3 exec '"decision":"allow","path":"/bin/false","argv":["false"]')
printf '%s' "${half:0:40}" >>"$J"
sleep 0.7
check "half a line is not shown (nor reported as malformed)" sh -c "! grep -qE 'false|not a journal' '$F'"
printf '%s\n' "${half:40}" >>"$J"
check "... and is shown once its newline arrives" wait_until 10 has "/bin/false: false"
check "the follower is still running" alive

line 4 session.end '"exit_code":0' >>"$J"
check "session.end is shown" wait_until 10 has "exit 0"
check "the follower exits by itself after session.end" wait_until 10 sh -c "! kill -0 $follower 2>/dev/null"
wait "$follower"
rc=$?
check "... with status 0 (got $rc)" [ "$rc" -eq 0 ]
check "nothing was reported as malformed" sh -c "! grep -q 'not a journal' '$F'"
[ "$_failures" -eq 0 ] || sed 's/^/       follow| /' "$F"

finish
