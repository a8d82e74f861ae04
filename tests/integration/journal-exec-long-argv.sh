#!/bin/bash
# The exec event's argv is read from the jailed process's memory in batches
# (the first 256 bytes of up to 64 strings per read); longer strings and
# longer lists are read in full: 100 arguments, one of 3000 bytes (under the
# journal's 4 KiB cap on one argument), one that
# is empty, all appear exactly as given.
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
finish
