#!/bin/bash
# The jail's private writable directories (/tmp, /var/tmp, home, /run,
# /dev/shm) are directories of one tmpfs: together they hold at most one
# tmpfs's size (half of RAM), where five tmpfs mounts would each hold half of
# RAM and let a command fill memory several times over. Shown by writing
# 32 MiB to /tmp and seeing home's free space shrink by as much, while each
# directory stays writable, private and of its own mode.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

probe='dirs="/tmp /var/tmp $HOME /run /dev/shm"
for d in $dirs; do
  echo "DEV:$(stat -c %d "$d")"
  echo "MODE:$d:$(stat -c %a "$d")"
  echo w > "$d/.aj-w" && echo "WRITABLE:$d"
done
echo "TYPE:$(stat -f -c %T /tmp)"
before=$(stat -f -c %a "$HOME")
head -c 33554432 /dev/zero > /tmp/fill || echo FILL:FAILED
sync
after=$(stat -f -c %a "$HOME")
echo "BSIZE:$(stat -f -c %S "$HOME")"
echo "SHRANK:$((before - after))"'

# at_least_product N SIZE MIN: N blocks of SIZE bytes make at least MIN bytes.
at_least_product() { [[ "$1" =~ ^[0-9]+$ ]] && [[ "$2" =~ ^[0-9]+$ ]] && [ $(($1 * $2)) -ge "$3" ]; }

capture jail -- sh -c "$probe"
check_capture "the jailed probe ran (exit 0)" rc_is 0
check_capture "inside: /tmp is a tmpfs" out_has_line TYPE:tmpfs
for d in /tmp /var/tmp "$FAKE_HOME" /run /dev/shm; do
  check_capture "inside: $d is writable" out_has_line "WRITABLE:$d"
done
check_capture "inside: /tmp keeps mode 1777" out_has_line MODE:/tmp:1777
check_capture "inside: /dev/shm keeps mode 1777" out_has_line MODE:/dev/shm:1777
devs=$(printf '%s\n' "$OUT" | sed -n 's/^DEV://p' | sort -u | wc -l)
OUT_SAVED=$OUT
OUT="distinct devices: $devs"
check_capture "inside: the five directories are one filesystem" [ "$devs" -eq 1 ]
OUT=$OUT_SAVED
bsize=$(field BSIZE)
shrank=$(field SHRANK)
OUT="home's free blocks shrank by $shrank of $bsize bytes after 32 MiB went to /tmp"
check_capture "inside: 32 MiB written to /tmp comes out of home's free space" \
  at_least_product "$shrank" "$bsize" 33554432

finish
