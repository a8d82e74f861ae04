#!/bin/bash
# Every line of the journal is one JSON object in strict UTF-8 with v=1, the
# same session id, an RFC 3339 UTC timestamp with microseconds, and seq
# counting 1, 2, 3 ... without gaps; the first event is session.start and the
# last session.end. The session execs commands whose argv holds quotes,
# backslashes, control characters and invalid UTF-8, and makes a refused
# syscall, so several kinds of events are present.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

J=$RUN/j.jsonl
weird=$(printf 'q"b\\s\tt\001c\377\376x')
capture jail --journal "$J" -- sh -c 'ls >/dev/null; echo "$1" >/dev/null; /bin/echo "$1" >/dev/null
  python3 -c "import ctypes; ctypes.CDLL(None).syscall(101, 16, 1, 0, 0)"; true' sh "$weird"
check_capture "the jailed command ran (exit 0)" rc_is 0
check "the journal file exists at --journal $J" [ -s "$J" ]

# Prints one "BAD ..." line per violation and a summary "LINES n EVENTS a,b,...".
OUT=$(python3 - "$J" <<'PY'
import json, re, sys
ts_re = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")
raw = open(sys.argv[1], "rb").read()
if not raw.endswith(b"\n"):
    print("BAD the file does not end with a newline")
events, sessions = [], set()
expect = 1
for n, line in enumerate(raw.split(b"\n")[:-1] if raw.endswith(b"\n") else raw.split(b"\n"), 1):
    try:
        e = json.loads(line.decode("utf-8", "strict"))
    except (UnicodeDecodeError, ValueError) as x:
        print("BAD line %d is not JSON in UTF-8: %s: %r" % (n, x, line[:200])); continue
    if not isinstance(e, dict):
        print("BAD line %d is not an object" % n); continue
    if e.get("v") != 1 or type(e.get("v")) is not int:
        print("BAD line %d: v is %r" % (n, e.get("v")))
    if e.get("seq") != expect:
        print("BAD line %d: seq is %r, expected %d" % (n, e.get("seq"), expect))
    expect = (e["seq"] if isinstance(e.get("seq"), int) else expect) + 1
    if not isinstance(e.get("ts"), str) or not ts_re.match(e["ts"]):
        print("BAD line %d: ts %r is not RFC 3339 UTC with microseconds" % (n, e.get("ts")))
    if not isinstance(e.get("session"), str) or not e["session"]:
        print("BAD line %d: no session id" % n)
    sessions.add(e.get("session"))
    if not isinstance(e.get("event"), str):
        print("BAD line %d: no event name" % n)
    events.append(str(e.get("event")))
if len(sessions) != 1:
    print("BAD %d different session ids: %s" % (len(sessions), sorted(map(str, sessions))))
print("LINES %d" % len(events))
print("FIRST %s" % (events[0] if events else "-"))
print("LAST %s" % (events[-1] if events else "-"))
print("EVENTS %s" % ",".join(sorted(set(events))))
PY
) ERR="" RC=0
check_capture "journal: every line is a JSON object in strict UTF-8, v=1, ts RFC 3339 with microseconds and Z, seq 1.. without gaps, one session id" \
  out_lacks "BAD"
check_capture "journal: the first event is session.start" out_has_line "FIRST session.start"
check_capture "journal: the last event is session.end" out_has_line "LAST session.end"
check_capture "journal: exec and syscall.deny events are among them" \
  grep -qE '^EVENTS .*exec.*syscall\.deny' <<<"$OUT"
lines=$(printf '%s\n' "$OUT" | sed -n 's/^LINES //p')
check_capture "journal: the file has as many lines as events ($lines)" [ "$(wc -l <"$J")" = "$lines" ]

# The room set aside past the journal's end while the session ran is given
# back at its end (on this filesystem, whichever it is).
check "the finished journal takes no more room than its lines ($(du -k "$J" | cut -f1) KiB)" \
  int_le "$(du -k "$J" | cut -f1)" 64

finish
