#!/bin/bash
# Invoked by root, the command gets no more power over the host's files than an
# ordinary user: root-owned system paths visible in the jail (/usr, /etc, ...)
# are not writable.
# Nothing is written: the probe opens files O_WRONLY and asks access(W_OK).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

PY=/usr/bin/python3
probe=$(install_probe writable.py)
paths=(/etc /etc/passwd /etc/hosts /usr /usr/bin /usr/bin/env /usr/lib /var /opt /srv)
present=()
for p in "${paths[@]}"; do [ -e "$p" ] && present+=("$p"); done

if [ "$HARNESS_UID" -eq 0 ]; then
  capture "$PY" "$probe" "${present[@]}"
  for p in "${present[@]}"; do
    check_capture "control: host root can write $p without the jail" out_has_line "WRITABLE:$p"
  done
else
  note "not root: no control for the host-root case"
fi

capture jail -- "$PY" "$probe" "${present[@]}"
check_capture "the jailed probe ran (exit 0)" rc_is 0
for p in "${present[@]}"; do
  check_capture "inside: $p is not writable" out_has "DENIED:$p:"
done

finish
