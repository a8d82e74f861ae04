#!/bin/bash
# Before exec, the command loses every capability (bounding, ambient,
# effective, permitted, inheritable) and gets no_new_privs, so setuid binaries
# inside are inert, also when agentjail was invoked by root.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

probe='grep -E "^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):" /proc/self/status | tr -d "\t " '

capture as_user sh -c "$probe"
check_capture "control: without the jail the bounding set is not empty" out_lacks CapBnd:0000000000000000
check_capture "control: without the jail no_new_privs is off" out_has_line NoNewPrivs:0

capture jail -- sh -c "$probe"
check_capture "the jailed command ran (exit 0)" rc_is 0
for c in CapInh CapPrm CapEff CapAmb; do
  check_capture "inside: $c is empty" out_has_line "$c:0000000000000000"
done
if [ "$AJ_TEST_MODE" = nouserns ] && [ "$TEST_UID" -ne 0 ]; then
  # Dropping from the bounding set needs CAP_SETPCAP, which an unprivileged
  # caller without a user namespace does not have; no_new_privs (checked
  # below) is what keeps exec from gaining anything then.
  note "not checked: an unprivileged caller without a user namespace cannot empty the bounding set ($(field CapBnd))"
else
  check_capture "inside: CapBnd is empty" out_has_line "CapBnd:0000000000000000"
fi
check_capture "inside: no_new_privs is set" out_has_line NoNewPrivs:1
check_capture "inside: a seccomp filter is installed" out_has_line Seccomp:2

# A setuid-root copy of id in the workspace gives nothing (only as root can the
# test make one; nosuid or no_new_privs must make it inert either way).
if [ "$HARNESS_UID" -eq 0 ]; then
  cp /usr/bin/id "$WS/suid-id"
  chown 0:0 "$WS/suid-id"
  chmod 4755 "$WS/suid-id"
  capture jail -- "$WS/suid-id" -u
  check_capture "inside: a setuid-root binary runs with the caller's uid ($TEST_UID)" out_has_line "$TEST_UID"
fi

finish
