#!/bin/bash
# The command cannot empty a file outside its writable paths, even one its
# user owns: truncate(2) by name, or open(O_RDONLY | O_TRUNC) of a file it may
# only read. With a user namespace the read-only mounts refuse both (EROFS);
# without one only Landlock's TRUNCATE right (ABI 3) does, so on older kernels
# (Debian 12's 6.1 has ABI 2; here as --landlock-abi 2) seccomp refuses
# truncate(2) and read-only opens with O_TRUNC. Truncating in the workspace
# by descriptor keeps working; truncate(2) by name too, except without user
# namespaces below ABI 3, where it is refused everywhere.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
install_probe tryop.py >/dev/null

RO=$RUN/ro
mkdir -p "$RO" && chown "$TEST_UID:$TEST_GID" "$RO"
cat >"$WS/trunc.py" <<'PY'
import os, sys
sys.path.insert(0, ".probe")
from tryop import t
target = sys.argv[1]
t("truncate_outside", lambda: os.truncate(target, 0))
t("open_rdonly_trunc_outside", lambda: os.close(os.open(target, os.O_RDONLY | os.O_TRUNC)))
with open("mine", "w") as f:
    f.write("workspace data\n")
t("open_wronly_trunc_workspace", lambda: os.close(os.open("mine", os.O_WRONLY | os.O_TRUNC)))
t("ftruncate_workspace", lambda: os.ftruncate(os.open("mine", os.O_WRONLY), 0))
t("truncate_workspace", lambda: os.truncate("mine", 0))
PY
chown "$TEST_UID:$TEST_GID" "$WS/trunc.py"
fill() { mkfile_as_user "$RO/owned" "the user's data, outside the workspace"; }
size_of() { stat -c %s "$1"; }

fill
capture as_user /usr/bin/python3 "$WS/trunc.py" "$RO/owned"
check_capture "control: without the jail, $TEST_USER empties its own file with truncate" \
  out_has_line OK:truncate_outside
fill
want=$(size_of "$RO/owned")

abis=(kernel)
[ -z "${AJ_TEST_LANDLOCK_ABI:-}" ] && abis+=(2)
for abi in "${abis[@]}"; do
  extra=()
  [ "$abi" = 2 ] && extra=(--landlock-abi 2)
  capture jail "${extra[@]}" --ro "$RO" -- /usr/bin/python3 "$WS/trunc.py" "$RO/owned"
  check_capture "ABI $abi: the jailed script ran" rc_is 0
  check_capture "ABI $abi: truncate(2) of the file outside is refused" \
    out_matches '^ERR:truncate_outside:'
  check_capture "ABI $abi: a read-only open with O_TRUNC of the file outside is refused" \
    out_matches '^ERR:open_rdonly_trunc_outside:'
  check "ABI $abi, host: the file outside kept its data" [ "$(size_of "$RO/owned")" = "$want" ]
  fill
  check_capture "ABI $abi: O_WRONLY | O_TRUNC in the workspace works" \
    out_has_line OK:open_wronly_trunc_workspace
  check_capture "ABI $abi: ftruncate in the workspace works" out_has_line OK:ftruncate_workspace
  if [ "$AJ_TEST_MODE" = nouserns ] && { [ "$abi" = 2 ] || [ "$(jail_landlock_abi)" -lt 3 ]; }; then
    check_capture "ABI $abi, no user namespace: truncate(2) is refused in the workspace too" \
      out_matches '^ERR:truncate_workspace:'
  else
    check_capture "ABI $abi: truncate(2) in the workspace works" out_has_line OK:truncate_workspace
  fi
done

finish
