#!/bin/bash
# A command that fills the filesystem its journal is on does not end the
# record: room is set aside past the journal's end when the session starts,
# and the session's events, session.end included, still land. And when no
# room could be set aside (the filesystem was full before), a line that
# cannot be written whole is cut off again: every line in the file parses.
source "$(dirname "$0")/lib.sh"
aj_setup
require_root_harness "mounting a small filesystem for the journal"

full=$RUN/full
mkdir -p "$full"
mount -t tmpfs -o size=2M,mode=0777 tmpfs "$full" || skip "cannot mount a tmpfs here"
mkdir -p "$full/ws" "$full/j"
chown "$TEST_UID:$TEST_GID" "$full/ws" "$full/j"
lines_parse() {
  python3 -c 'import json, sys
data = open(sys.argv[1], "rb").read()
assert data.endswith(b"\n"), "the file ends in a partial line"
for line in data.splitlines():
    json.loads(line)' "$1"
}
events_of() { python3 -c 'import json, sys
print(" ".join(json.loads(l).get("event", "?") for l in open(sys.argv[1])))' "$1"; }

# 1. The command fills the filesystem, then execs 100 programs.
J=$full/j/a.jsonl
capture jail -w "$full/ws" --journal "$J" -- sh -c \
  'head -c 4000000 /dev/zero > fill 2>/dev/null; for i in $(seq 100); do /bin/true; done; rm -f fill; echo RAN-$((6*7))'
check_capture "filled: the jailed command ran" out_has_line RAN-42
check "filled: every line of the journal parses" lines_parse "$J"
execs=$(events_of "$J" | tr ' ' '\n' | grep -c '^exec$')
check "filled: the 100 execs after the disk was full are journaled ($execs exec events)" \
  int_le 101 "$execs"
last=$(events_of "$J" | tr ' ' '\n' | tail -1)
check "filled: the journal ends with session.end ($last)" [ "$last" = session.end ]
check "filled: the room set aside was given back (the file takes under 64 KiB)" \
  int_le "$(du -k "$J" | cut -f1)" 64

# 2. Full before the session: no room; what cannot be written whole is cut off.
J2=$full/j/b.jsonl
printf '{"pad":"%s"}\n' "$(head -c 3000 /dev/zero | tr '\0' x)" >"$J2"
chown "$TEST_UID:$TEST_GID" "$J2"
head -c 4000000 /dev/zero >"$full/fill" 2>/dev/null
capture jail -w "$full/ws" --journal "$J2" -- sh -c 'for i in 1 2 3; do /bin/true; done'
check_capture "full before: agentjail says the journal could not be written" \
  err_matches "write journal .*No space left on device"
check "full before: the journal holds no partial line (every line parses)" lines_parse "$J2"
rm -f "$full/fill"

umount "$full"
finish
