#!/bin/bash
# Trace mode (--trace) journals a file open the policy refuses: reading a
# hidden credential (~/.ssh/id_rsa, with the home bound read-only, which the
# default profile hides) fails with EACCES and gives an fs.deny event with the
# path, access "read", decision deny and a rule. Without --trace the same read
# is journaled nowhere (control), and outside the jail the file is readable.
# A symbolic link made in the jail's /tmp to the key is refused and journaled
# the same way, with where it leads, and so is /tmp/d/../.ssh/id_rsa with d a
# link to ~/.ssh (by name that is /tmp/.ssh/id_rsa), and so is the key named
# through /proc/self/root; a link to a readable file still reads, and the
# link itself can still be opened with O_NOFOLLOW.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

bait=BAIT-$(unique_token)
key=$FAKE_HOME/.ssh/id_rsa
mkfile_as_user "$key" "$bait"
# READ:<content>, or ERR:<errno name>.
probe='import errno, sys
try:
    print("READ:" + open(sys.argv[1]).read().strip())
except OSError as e:
    print("ERR:" + errno.errorcode.get(e.errno, str(e.errno)))'

# "FSDENY <path>|<access>|<decision>|<rule>" per fs.deny event.
fs_denies() {
  python3 - "$1" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "fs.deny":
        print("FSDENY %s|%s|%s|%s" % (e.get("path"), e.get("access"), e.get("decision"), e.get("rule")))
        if "leads_to" in e:
            print("LEADS %s|%s" % (e.get("path"), e.get("leads_to")))
PY
}

capture as_user python3 -c "$probe" "$key"
check_capture "control: ~/.ssh/id_rsa is readable without the jail" out_has_line "READ:$bait"

capture jail --journal "$RUN/plain.jsonl" --ro "$FAKE_HOME" -- python3 -c "$probe" "$key"
check_capture "without --trace: the jailed probe ran (exit 0)" rc_is 0
check_capture "without --trace: the key's content cannot be read" out_lacks "$bait"
OUT=$(fs_denies "$RUN/plain.jsonl") ERR="" RC=0
check_capture "without --trace: the journal has no fs.deny event" [ -z "$OUT" ]
check "without --trace: the journal was written" [ -s "$RUN/plain.jsonl" ]

capture jail --journal "$RUN/trace.jsonl" --trace --ro "$FAKE_HOME" -- python3 -c "$probe" "$key"
check_capture "--trace: the jailed probe ran (exit 0)" rc_is 0
check_capture "--trace: reading ~/.ssh/id_rsa fails with EACCES" out_has_line "ERR:EACCES"
check_capture "--trace: the bait appears nowhere" all_lacks "$bait"
OUT=$(fs_denies "$RUN/trace.jsonl") ERR="" RC=0
check_capture "--trace: the journal has fs.deny for $key with access read, decision deny and a rule" \
  grep -qE "^FSDENY $key\|read\|deny\|[^|]+[^|]$" <<<"$OUT"
check "--trace: the bait appears nowhere in the journal" sh -c '! grep -qF -- "$1" "$2"' sh "$bait" "$RUN/trace.jsonl"

# Through links made inside the jail.
mkfile_as_user "$WS/readable.txt" "PLAIN-$bait"
links='ln -s "$1" /tmp/k && ln -s "$2" /tmp/ok && ln -s "${1%/*}" /tmp/d || exit 9
python3 -c "$3" /tmp/k
python3 -c "$3" /tmp/d/../.ssh/id_rsa
python3 -c "$3" "/proc/self/root$1"
python3 -c "$3" /tmp/ok
python3 -c "import os; os.open(\"/tmp/k\", os.O_PATH | os.O_NOFOLLOW); print(\"NOFOLLOW:ok\")"'
capture jail --journal "$RUN/links.jsonl" --trace --ro "$FAKE_HOME" -- \
  sh -c "$links" sh "$key" "$WS/readable.txt" "$probe"
check_capture "--trace, link: the jailed probe ran (exit 0)" rc_is 0
n_eacces=$(grep -c "^ERR:EACCES$" <<<"$OUT" || true)
check_capture "--trace, link: reading the key through /tmp/k fails with EACCES" out_has_line "ERR:EACCES"
check_capture "--trace, link: a link to a readable file still reads" out_has_line "READ:PLAIN-$bait"
check_capture "--trace, link: the link itself opens with O_NOFOLLOW" out_has_line "NOFOLLOW:ok"
check_capture "--trace, link: the bait appears nowhere" out_lacks "READ:$bait"
OUT=$(fs_denies "$RUN/links.jsonl") ERR="" RC=0
check_capture "--trace, link: fs.deny for /tmp/k, read, deny, with a rule" \
  grep -qE "^FSDENY /tmp/k\|read\|deny\|[^|]+[^|]$" <<<"$OUT"
check_capture "--trace, link: ... leading to $key" out_has_line "LEADS /tmp/k|$key"
check_capture "--trace, link: no fs.deny for the readable file" out_lacks "readable.txt"
check_capture "--trace, link: /tmp/d/../.ssh/id_rsa (d a link to ~/.ssh) is refused and recorded" \
  out_has_line "LEADS /tmp/d/../.ssh/id_rsa|$key"
check_capture "--trace, link: /proc/self/root$key is refused and recorded" \
  out_has_line "LEADS /proc/self/root$key|$key"
check "--trace, link: the three reads of the key through links failed with EACCES ($n_eacces)" \
  [ "$n_eacces" = 3 ]

# From a working directory deeper than PATH_MAX (its path cannot be read), a
# relative open cannot be judged: it is refused and recorded, not let through.
deep='import os, sys
for i in range(25):
    os.mkdir("d" * 200); os.chdir("d" * 200)
try:
    os.open("../" * 40 + sys.argv[1].lstrip("/"), os.O_RDONLY); print("DEEP:opened")
except OSError as e:
    print("DEEP:" + __import__("errno").errorcode[e.errno])'
capture jail --journal "$RUN/deep.jsonl" --trace -- python3 -c "$deep" /etc/hostname
check_capture "--trace, deep working directory: the jailed probe ran (exit 0)" rc_is 0
check_capture "--trace, deep working directory: the relative open is refused (EACCES)" \
  out_has_line "DEEP:EACCES"
OUT=$(fs_denies "$RUN/deep.jsonl") ERR="" RC=0
check_capture "--trace, deep working directory: an fs.deny records it" \
  out_matches "^FSDENY (\.\./)+etc/hostname\|read\|deny\|"
rm -rf "$WS/dddd"*

finish
