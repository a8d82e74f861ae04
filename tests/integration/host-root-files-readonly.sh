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

# Control: host root can write each path without the jail (paths the host
# itself keeps read-only, e.g. in a container, are left out).
[ "$HARNESS_UID" -eq 0 ] || skip "only host root can show these paths are writable at all"
capture "$PY" "$probe" "${present[@]}"
controlled=()
for p in "${present[@]}"; do
  if out_has_line "WRITABLE:$p"; then
    pass "control: host root can write $p without the jail"
    controlled+=("$p")
  else
    note "$p is not writable even by host root here: left out"
  fi
done
[ "${#controlled[@]}" -gt 0 ] || skip "none of these paths is writable on this host even without the jail"

capture jail -- "$PY" "$probe" "${controlled[@]}"
check_capture "the jailed probe ran (exit 0)" rc_is 0
for p in "${controlled[@]}"; do
  check_capture "inside: $p is not writable" out_has "DENIED:$p:"
done

finish
