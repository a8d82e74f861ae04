#!/bin/bash
# agentjail is never setuid: installed setuid or setgid (effective id differs
# from the real one) it refuses to run, with a clear message, before doing
# anything. Root suite: a copy setuid to nobody run by root; nobody suite: a
# copy setuid to root run by nobody (and setgid variants of both).
source "$(dirname "$0")/lib.sh"
aj_setup
require_root_harness "making a setuid copy of the binary"
opts=$(findmnt -n -o OPTIONS -T "$T")
case ",$opts," in *,nosuid,*) skip "$T is on a nosuid mount ($opts)" ;; esac

if [ "$TEST_UID" -eq 0 ]; then owner=65534:65534; else owner=0:0; fi
cp "$AJ" "$T/bin/aj-setuid"
cp "$AJ" "$T/bin/aj-setgid"
chown "$owner" "$T/bin/aj-setuid" "$T/bin/aj-setgid"
chmod 4755 "$T/bin/aj-setuid"
chmod 2755 "$T/bin/aj-setgid"

cmd=(--profile-dir "$PROFILES" --dry-run -- sh -c 'echo RAN-$((6*7))')
capture as_user "$AJ" "${cmd[@]}"
check_capture "control: the ordinary binary accepts the same invocation (exit 0)" rc_is 0

for kind in setuid setgid; do
  capture as_user "$T/bin/aj-$kind" "${cmd[@]}"
  check_capture "$kind copy (owner $owner): refuses with a non-zero exit" [ "$RC" -ne 0 ]
  check_capture "$kind copy: says why (mentions set-user/group-ID)" \
    err_matches '[Ss]et[-]?[ug]id|set-(user|group)-ID|effective'
  check_capture "$kind copy: runs nothing" all_lacks RAN-42
done

finish
