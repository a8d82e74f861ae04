#!/bin/bash
# The command joins a fresh session keyring: even a profile that allows the
# keyring syscalls cannot reach the caller's session keyring. (The default
# profile also denies them: see syscall-denied.)
source "$(dirname "$0")/lib.sh"
aj_setup
command -v python3 >/dev/null || die "python3 is needed"

probe='import ctypes
print("SESSION:%d" % ctypes.CDLL(None).syscall(250, 0, -3, 0))'
write_profile itest-keyring <<'TOML'
[profile]
extends = ["default"]
[seccomp]
deny = ["!@keyring"]
TOML

# Control: outside, the test user's session keyring id, asked twice in one
# session, is stable (so a different id inside means a different keyring).
capture as_user python3 -c "$probe"
host=$(field SESSION)
check_capture "control: the caller has a session keyring ($host)" set_and_not "$host" "-1"
capture as_user python3 -c "$probe"
check_capture "control: the same id again outside" out_has_line "SESSION:$host"

capture jail --profile itest-keyring -- python3 -c "$probe"
inside=$(field SESSION)
check_capture "inside: the keyring syscalls work under this profile" set_and_not "$inside" "-1"
check_capture "inside: the session keyring is not the caller's ($inside != $host)" \
  set_and_not "$inside" "$host"
finish
