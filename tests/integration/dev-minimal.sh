#!/bin/bash
# /dev inside the jail is minimal: null, zero, full, random, urandom, tty, pts,
# ptmx, shm (plus the fd/stdin/stdout/stderr links), working as expected, and
# nothing else: no disks, no /dev/kmsg, /dev/mem, /dev/kvm, loop devices.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

required=(null zero full random urandom tty pts ptmx shm)
token=$(unique_token)
allowed=("${required[@]}" fd stdin stdout stderr core console mqueue)

probe='for e in /dev/* /dev/.[!.]*; do [ -e "$e" ] || [ -L "$e" ] && echo "ENTRY:${e#/dev/}"; done
echo "BLOCK:$(find /dev -xdev -type b 2>/dev/null | wc -l)"
echo x > /dev/null && echo NULL:OK || echo NULL:FAILED
[ "$(head -c 4 /dev/zero | od -An -tx1 | tr -d " ")" = 00000000 ] && echo ZERO:OK || echo ZERO:FAILED
[ "$(head -c 16 /dev/urandom | wc -c)" = 16 ] && echo URANDOM:OK || echo URANDOM:FAILED
if (echo x > /dev/full) 2>/dev/null; then echo FULL:WROTE; else echo FULL:ENOSPC; fi
echo x > "/dev/shm/aj-probe-$1" && echo SHM:OK || echo SHM:FAILED
[ -d /dev/pts ] && echo PTS:OK || echo PTS:MISSING'

# Control: the host's /dev has more than the minimum (e.g. block devices).
capture sh -c "$probe" sh "$token"
host_extra=$(printf '%s\n' "$OUT" | sed -n 's/^ENTRY://p' | grep -vxF "${allowed[@]/#/-e}" | wc -l)
if [ "$host_extra" -gt 0 ]; then
  pass "control: the host's /dev has $host_extra entries beyond the minimal set"
else
  note "the host's /dev is minimal too: the 'nothing else' check shows little here"
fi
rm -f "/dev/shm/aj-probe-$token"

capture jail -- sh -c "$probe" sh "$token"
check_capture "the jailed command ran (exit 0)" rc_is 0
entries=$(printf '%s\n' "$OUT" | sed -n 's/^ENTRY://p')
for r in "${required[@]}"; do
  check_capture "inside: /dev/$r exists" out_has_line "ENTRY:$r"
done
extra=$(printf '%s\n' "$entries" | grep -vxF "${allowed[@]/#/-e}" | tr '\n' ' ')
check_capture "inside: /dev holds nothing else${extra:+ (found: $extra)}" [ -z "$extra" ]
check_capture "inside: no block devices" out_has_line BLOCK:0
check_capture "inside: /dev/null swallows writes" out_has_line NULL:OK
check_capture "inside: /dev/zero reads zeros" out_has_line ZERO:OK
check_capture "inside: /dev/urandom reads bytes" out_has_line URANDOM:OK
check_capture "inside: /dev/full refuses writes" out_has_line FULL:ENOSPC
check_capture "inside: /dev/shm is writable" out_has_line SHM:OK
check "host: /dev/shm did not receive the jail's file" [ ! -e "/dev/shm/aj-probe-$token" ]

finish
