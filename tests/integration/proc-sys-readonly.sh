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

# Control: host root, without the jail, may open each knob for writing (for
# the nobody suite too: the point is that the knob is writable on this host at
# all; nobody is refused by plain file permissions). Knobs the host itself
# refuses (e.g. a container's read-only /proc/sys) are left out.
[ "$HARNESS_UID" -eq 0 ] || skip "only host root can show these knobs are writable at all"
capture "$PY" "$probe" "${present[@]}"
controlled=()
for k in "${present[@]}"; do
  if out_has_line "WRITABLE:$k"; then
    pass "control: host root can open $k for writing without the jail"
    controlled+=("$k")
  else
    note "$k is not writable even by host root here ($(printf '%s\n' "$OUT" | grep ":$k:")): left out"
  fi
done
[ "${#controlled[@]}" -gt 0 ] || skip "no kernel knob is writable on this host even without the jail"

capture jail -- "$PY" "$probe" "${controlled[@]}"
check_capture "the jailed probe ran (exit 0)" rc_is 0
for k in "${controlled[@]}"; do
  check_capture "inside: $k cannot be opened for writing" out_has "DENIED:$k:"
done

finish
