#!/bin/bash
# The host-wide kernel files under /proc that only root may read (symbol
# addresses, the kernel heap's and physical memory's maps, timers, keys) are
# hidden from the jail, where a root caller would read them; and base hides
# /etc/.pwd.lock, whose read lock held from inside would stop the host's
# passwd and useradd (the jail locks its own empty copy).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

files=(/proc/kallsyms /proc/slabinfo /proc/vmallocinfo /proc/pagetypeinfo /proc/kpageflags
  /proc/kpagecount /proc/timer_list)
probe='for f in "$@"; do n=$(head -c 4096 "$f" 2>/dev/null | wc -c); echo "SIZE:$f:$n"; done'

# Control: root reads them outside the jail.
if [ "$TEST_UID" -eq 0 ]; then
  capture as_user sh -c "$probe" sh "${files[@]}"
  for f in "${files[@]}"; do
    [ -e "$f" ] || continue
    check_capture "control: root reads $f without the jail" out_matches "^SIZE:$f:[1-9]"
  done
else
  note "the test user is not root: these files are unreadable to it anyway (no control)"
fi

capture jail -- sh -c "$probe"'; stat -c "PWDLOCK:%i:%s" /etc/.pwd.lock 2>/dev/null || echo PWDLOCK:absent' sh "${files[@]}"
check_capture "the jailed probe ran (exit 0)" rc_is 0
for f in "${files[@]}"; do
  check_capture "inside: $f reads nothing" out_has_line "SIZE:$f:0"
done
if [ -e /etc/.pwd.lock ]; then
  host_inode=$(stat -c %i /etc/.pwd.lock)
  check_capture "inside: /etc/.pwd.lock is an empty stand-in, not the host's lock file" \
    sh -c 'printf "%s\n" "$1" | grep -q "^PWDLOCK:" && ! printf "%s\n" "$1" | grep -q "^PWDLOCK:$2:"' sh "$OUT" "$host_inode"
else
  note "no /etc/.pwd.lock on this host"
fi

finish
