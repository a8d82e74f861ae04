#!/bin/bash
# syscall-denied.sh GROUP: a dangerous kernel interface is refused inside the
# jail (seccomp, and whatever other layer also stands in the way), while the
# control shows the same call working without the jail: as the test user in
# plain user+mount+net namespaces (what a namespace-only sandbox would allow),
# or, when the host refuses even that, as host root.
#
# GROUP  probe checks (see probe/sysprobe.c)
#   keyctl    keyctl(GET_KEYRING_ID)
#   bpf       bpf(PROG_LOAD) of a two-instruction socket filter
#   perf      perf_event_open(task clock, own process, user space only)
#   io_uring  io_uring_setup
#   mount     mount(tmpfs) on a scratch directory, fsopen("tmpfs")
#   userns    unshare(CLONE_NEWUSER), clone(CLONE_NEWUSER), unshare(CLONE_NEWNS)
#   handles   name_to_handle_at, open_by_handle_at
#   clone3    clone3 must fail with ENOSYS (so libc falls back to clone)
#   af_packet socket(AF_PACKET, SOCK_RAW)
source "$(dirname "$0")/lib.sh"
group=${1:?usage: syscall-denied.sh GROUP}
aj_setup
require_userns

probe=$(install_probe sysprobe)
mnt=$WS/.probe-mnt
mkdir -p "$mnt"
chown "$TEST_UID:$TEST_GID" "$mnt"
case "$group" in
  keyctl | bpf | perf | io_uring | clone3 | af_packet) args=("$group") results=("$group") ;;
  mount) args=("mount:$mnt" fsopen) results=(mount fsopen) ;;
  userns) args=(userns clone_newuser unshare_mnt) results=(userns clone_newuser unshare_mnt) ;;
  handles) args=(handles) results=(name_to_handle_at open_by_handle_at) ;;
  *) die "unknown group '$group'" ;;
esac

# Controls: which of the calls work without the jail, and how.
controlled=()
capture in_plain_namespaces "$probe" "${args[@]}"
plain=$OUT
if [ "$HARNESS_UID" -eq 0 ]; then
  # Host root; a private mount namespace so that a mount stays out of the host's.
  root_out=$(unshare --mount --propagation private "$probe" "${args[@]}" 2>&1)
else
  root_out=""
fi
for r in "${results[@]}"; do
  if printf '%s\n' "$plain" | grep -qx "OK:$r"; then
    pass "control: $r works as $TEST_USER in plain user namespaces, without the jail"
    controlled+=("$r")
  elif printf '%s\n' "$root_out" | grep -qx "OK:$r"; then
    pass "control: $r works as host root without the jail ($TEST_USER in plain user namespaces is refused: $(printf '%s\n' "$plain" | grep ":$r:" | cut -d: -f3))"
    controlled+=("$r")
  else
    note "$r is refused on this host even without the jail ($(printf '%s\n' "$plain" "$root_out" | grep ":$r:" | tr '\n' ' ')): nothing to show"
  fi
done
[ "${#controlled[@]}" -gt 0 ] || skip "this kernel refuses ${results[*]} even without the jail"

capture jail -- "$probe" "${args[@]}"
check_capture "the jailed probe ran (exit 0)" rc_is 0
for r in "${controlled[@]}"; do
  if [ "$group" = clone3 ]; then
    check_capture "inside: clone3 fails with ENOSYS (libc falls back to clone)" out_has_line "ERR:clone3:ENOSYS"
  else
    check_capture "inside: $r is refused" out_has "ERR:$r:"
  fi
done
[ "$group" = mount ] && check "inside: nothing was left mounted on the scratch directory" \
  [ -z "$(ls -A "$mnt")" ]

finish
