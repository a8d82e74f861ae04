#!/bin/bash
# /tmp inside the jail is a private, empty, writable tmpfs: host files in /tmp
# are invisible, files written there do not reach the host, and two sessions do
# not share it. (The test's own scratch directory lives under /tmp, so the only
# entries allowed in the jail's /tmp are the directories leading to the
# workspace.)
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

token=$(unique_token)
bait=/tmp/aj-bait-$token
printf 'bait\n' >"$bait"
chmod 644 "$bait"
trap 'rm -f "$bait" "/tmp/aj-inside-$token"; _cleanup' EXIT
ws_top=${WS#/tmp/}
ws_top=${ws_top%%/*}  # the first path component of the workspace below /tmp

probe='for e in /tmp/* /tmp/.[!.]*; do [ -e "$e" ] && echo "ENTRY:${e#/tmp/}"; done
[ -e "$1" ] && echo BAIT:SEEN || echo BAIT:UNSEEN
echo hi > "/tmp/aj-inside-$2" && echo TMP:WRITABLE || echo TMP:NOWRITE
[ -e "/tmp/aj-session-mark-$2" ] && echo MARK:SEEN || echo MARK:UNSEEN
echo x > "/tmp/aj-session-mark-$2"
echo "TMPFS:$(stat -f -c %T /tmp)"'

# Control: without the jail, the bait is visible and /tmp is writable.
capture as_user sh -c "$probe" sh "$bait" "$token"
check_capture "control: the host's /tmp bait is visible without the jail" out_has_line BAIT:SEEN
check_capture "control: /tmp is writable without the jail" out_has_line TMP:WRITABLE
rm -f "/tmp/aj-inside-$token" "/tmp/aj-session-mark-$token"

capture jail -- sh -c "$probe" sh "$bait" "$token"
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: the host's /tmp bait is invisible" out_has_line BAIT:UNSEEN
check_capture "inside: /tmp is writable" out_has_line TMP:WRITABLE
check_capture "inside: /tmp is a tmpfs" out_has_line TMPFS:tmpfs
extra=$(printf '%s\n' "$OUT" | sed -n 's/^ENTRY://p' | grep -vxF -e "$ws_top" -e "aj-inside-$token")
check_capture "inside: /tmp holds nothing but the path to the workspace${extra:+ (found: $(echo $extra))}" \
  [ -z "$extra" ]
check "host: the file written to /tmp inside did not reach the host" [ ! -e "/tmp/aj-inside-$token" ]

# A second session does not see the first one's /tmp.
capture jail -- sh -c "$probe" sh "$bait" "$token"
check_capture "a second session ran (exit 0)" rc_is 0
check_capture "a second session does not see the first session's /tmp file" out_has_line MARK:UNSEEN

finish
