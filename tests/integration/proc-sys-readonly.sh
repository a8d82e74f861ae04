#!/bin/bash
# Host-wide kernel knobs under /proc cannot be written from inside the jail,
# even when agentjail was invoked by root (uid 0 inside maps to the host's
# root): /proc/sys is read-only and /proc/sysrq-trigger and friends are
# read-only or masked. Nothing is ever written: the probe only opens for
# writing and closes.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

PY=/usr/bin/python3
probe=$(install_probe writable.py)
knobs=(/proc/sysrq-trigger /proc/sys/kernel/core_pattern /proc/sys/kernel/modprobe
  /proc/sys/vm/drop_caches /proc/sys/kernel/hostname /proc/sys/net/ipv4/ip_forward
  /proc/irq/default_smp_affinity)
present=()
for k in "${knobs[@]}"; do [ -e "$k" ] && present+=("$k"); done

# Control: host root, without the jail, may open every knob for writing.
# (For the nobody suite too: the point is that these knobs are writable on
# this host at all; nobody is refused by plain file permissions.)
if [ "$HARNESS_UID" -eq 0 ]; then
  capture "$PY" "$probe" "${present[@]}"
  for k in "${present[@]}"; do
    check_capture "control: host root can open $k for writing without the jail" \
      out_has_line "WRITABLE:$k"
  done
else
  note "not root: no control for the host-root case"
fi

capture jail -- "$PY" "$probe" "${present[@]}"
check_capture "the jailed probe ran (exit 0)" rc_is 0
for k in "${present[@]}"; do
  check_capture "inside: $k cannot be opened for writing" out_has "DENIED:$k:"
done
check_capture "inside: the probe reported every knob" \
  [ "$(printf '%s\n' "$OUT" | grep -c -e '^DENIED:' -e '^WRITABLE:')" -eq "${#present[@]}" ]

finish
