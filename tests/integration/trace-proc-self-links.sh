#!/bin/bash
# Trace mode judges a path reached through /proc/self as the caller's own:
# with a directory open on fd 7, a hidden file read as /dev/fd/7/NAME (a
# link to /proc/self/fd), through a link the command made to /proc/self, or
# as /proc/thread-self/fd/7/NAME fails with EACCES and is journaled as fs.deny
# leading to the hidden file. Looked up by the supervisor, /proc/self named
# the supervisor (or nothing, in the jail's own /proc), so these opens went
# through unjudged: without user namespaces, onto the real file. Control: a
# readable file opened the same ways reads.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

bait=BAIT-$(unique_token)
# In a directory of its own: the supervisor holds the workspace open, so a
# lookup of its own /proc/self/fd would find the same names there.
mkfile_as_user "$WS/sub/secret.txt" "$bait"
mkfile_as_user "$WS/sub/plain.txt" "PLAIN-$bait"
# "<name>: READ:<content>" or "<name>: ERR:<errno name>" per path.
probe='import errno, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
os.dup2(fd, 7)
os.symlink("/proc/self", "me")
for base in ("/dev/fd/7", os.getcwd() + "/me/fd/7", "/proc/thread-self/fd/7"):
    for name in ("secret.txt", "plain.txt"):
        try:
            print("%s/%s: READ:%s" % (base, name, open(base + "/" + name).read().strip()))
        except OSError as e:
            print("%s/%s: ERR:%s" % (base, name, errno.errorcode.get(e.errno, str(e.errno))))'

# "FSDENY <path>|<leads_to>" per fs.deny event.
fs_denies() {
  python3 - "$1" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "fs.deny":
        print("FSDENY %s|%s" % (e.get("path"), e.get("leads_to")))
PY
}

capture jail --journal "$RUN/trace.jsonl" --trace --hide "$WS/sub/secret.txt" -- python3 -c "$probe" "$WS/sub"
check_capture "the jailed probe ran (exit 0)" rc_is 0
for base in /dev/fd/7 "$WS/me/fd/7" /proc/thread-self/fd/7; do
  check_capture "$base/secret.txt (hidden) fails with EACCES" out_has_line "$base/secret.txt: ERR:EACCES"
  check_capture "control: $base/plain.txt reads" out_has_line "$base/plain.txt: READ:PLAIN-$bait"
done
check_capture "the hidden file's content appears nowhere" out_lacks "READ:$bait"
journal=$(fs_denies "$RUN/trace.jsonl")
OUT=$journal
for path in /dev/fd/7 "$WS/me/fd/7" /proc/thread-self/fd/7; do
  check_capture "fs.deny for $path/secret.txt, leading to $WS/sub/secret.txt" \
    out_has_line "FSDENY $path/secret.txt|$WS/sub/secret.txt"
done
check_capture "no fs.deny for the readable file" out_lacks "plain.txt"

finish
