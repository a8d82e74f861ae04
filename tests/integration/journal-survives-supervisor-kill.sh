#!/bin/bash
# SIGKILL to the supervisor in the middle of a busy session (an exec loop, so
# the journal is being written) leaves a journal whose every line is complete
# JSON (events are written whole, one write per line), and no sandboxed
# process survives.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

J=$RUN/j.jsonl
mark=4801.$(unique_token)
# Count complete exec lines so far.
exec_lines() { grep -c '"event":"exec"' "$J" 2>/dev/null; }
enough_execs() { [ "$(exec_lines || echo 0)" -ge "$1" ]; }

jail_argv --journal "$J" -- sh -c 'while :; do ls >/dev/null; done; echo "$1"' sh "$mark"
start_bg "${JAIL_ARGV[@]}" >"$T/bg.out" 2>"$T/bg.err"
aj_pid=$BG_PID
check "the session is journaling its exec loop (at least 20 exec lines)" wait_until 20 enough_execs 20
check "the loop is running, seen from the host" marker_alive "$mark"
check "the supervisor process is agentjail (pid $aj_pid)" \
  [ "$(cat "/proc/$aj_pid/comm" 2>/dev/null)" = agentjail ]
before=$(exec_lines)
kill -KILL "$aj_pid"
wait "$aj_pid" 2>/dev/null
check "after SIGKILL to the supervisor, the loop is gone" wait_until 5 marker_gone "$mark"
sleep 0.3
after=$(exec_lines)
check "the journal stopped growing ($before exec lines before the kill, $after after)" \
  [ "$after" = "$(exec_lines)" ]

OUT=$(python3 - "$J" <<'PY'
import json, sys
raw = open(sys.argv[1], "rb").read()
lines = raw.split(b"\n")
if lines and lines[-1] == b"":
    lines.pop()
else:
    print("TORN the file does not end with a newline: %r" % lines[-1][-120:])
seq = 0
for n, line in enumerate(lines, 1):
    try:
        e = json.loads(line.decode("utf-8"))
        if e.get("seq") != seq + 1:
            print("GAP line %d: seq %r after %d" % (n, e.get("seq"), seq))
        seq = e.get("seq") if isinstance(e.get("seq"), int) else seq
    except (UnicodeDecodeError, ValueError) as x:
        print("TORN line %d: %s: %r" % (n, x, line[:120]))
print("LINES %d" % len(lines))
PY
) ERR="" RC=0
check_capture "journal: every line parses as JSON (no torn line)" out_lacks TORN
check_capture "journal: seq has no gaps up to the kill" out_lacks GAP
check_capture "journal: it begins with session.start" \
  [ "$(head -n1 "$J" | python3 -c 'import json,sys; print(json.load(sys.stdin)["event"])' 2>/dev/null)" = session.start ]
for pid in $(pgrep -f -- "$mark"); do
  note "leftover: $(ps -o pid=,args= -p "$pid")"
  kill -KILL "$pid"  # a process this test caused; by its pid
done

finish
