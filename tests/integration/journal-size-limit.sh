#!/bin/bash
# [journal] max_size bounds what one session may write to its journal: a
# command that execs in a loop cannot fill the disk through it, nor outgrow it
# and go on unrecorded. Reaching it writes a `limit` event (journal_size) and
# stops the session (exit 125); every line still parses and session.end
# closes the file. Control: the same loop under the default limit (1 GiB)
# runs to its end.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

write_profile small-journal <<'EOF'
[profile]
extends = ["default"]
[journal]
max_size = "16K"
EOF

loop='i=0; while [ $i -lt 400 ]; do /bin/true; i=$((i+1)); done; echo "LOOP-DONE-$((6*7))"'

# "LIMIT <limit> <value> <decision> <rule>" per limit event, "EXECS <n>",
# "END <exit_code>", and "BAD <n>" for lines that do not parse.
summary() {
  python3 - "$1" <<'PY'
import json, sys
execs = bad = 0
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    try:
        e = json.loads(line)
    except ValueError:
        bad += 1
        continue
    if e.get("event") == "limit":
        print("LIMIT", e.get("limit"), e.get("value"), e.get("decision"), e.get("rule"))
    elif e.get("event") == "exec":
        execs += 1
    elif e.get("event") == "session.end":
        print("END", e.get("exit_code"))
print("EXECS", execs)
print("BAD", bad)
PY
}

capture jail --journal "$RUN/big.jsonl" -- sh -c "$loop"
check_capture "control: under the default limit the loop runs to its end" out_has_line LOOP-DONE-42
check_capture "control: exit 0" rc_is 0
OUT=$(summary "$RUN/big.jsonl") ERR="" RC=0
check_capture "control: no limit event" out_lacks "LIMIT"
check_capture "control: all 400 execs are journaled" \
  sh -c "[ \"\$(printf '%s\n' \"\$1\" | sed -n 's/^EXECS //p')\" -ge 401 ]" sh "$OUT"

capture jail --profile small-journal --journal "$RUN/small.jsonl" -- sh -c "$loop"
check_capture "max_size 16K: the session is stopped before the loop ends" out_lacks LOOP-DONE-42
check_capture "max_size 16K: exit 125" rc_is 125
check_capture "max_size 16K: stderr says why" err_matches 'journal: 16K written, its \[journal\] max_size'
size=$(stat -c %s "$RUN/small.jsonl")
OUT="journal size: $size bytes"
check_capture "max_size 16K: the journal stopped growing near 16K (under 24K)" [ "$size" -lt 24576 ]
check_capture "max_size 16K: and reached it" [ "$size" -ge 16384 ]
OUT=$(summary "$RUN/small.jsonl") ERR="" RC=0
check_capture "journal: a limit event for journal_size, denied, naming the profile line" \
  out_matches '^LIMIT journal_size 16K deny .*small-journal\.toml:4:12$'
check_capture "journal: session.end records exit 125" out_has_line "END 125"
check_capture "journal: every line parses" out_has_line "BAD 0"

finish
