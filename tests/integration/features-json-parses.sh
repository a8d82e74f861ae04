#!/bin/bash
# `agentjail features --json` prints one JSON object describing this kernel:
# user namespaces (actually tried), the Landlock ABI, seccomp, cgroup v2,
# overlayfs in a user namespace and dev.tty.legacy_tiocsti; its user namespace
# and Landlock answers match what the test itself finds. `features` without
# --json prints text.
source "$(dirname "$0")/lib.sh"
aj_setup

PY=/usr/bin/python3
flat=$AJ_TEST_DIR/probe/jsonflat.py

# Control: the JSON check can fail.
OUT=$(printf '{"truncated": ' | "$PY" "$flat")
RC=$?
check_capture "control: the JSON check rejects truncated JSON" rc_is 1

capture aj features
check_capture "features exits 0" rc_is 0
check_capture "features prints text" [ -n "$OUT" ]

capture aj features --json
check_capture "features --json exits 0" rc_is 0
json=$OUT
OUT=$(printf '%s' "$json" | "$PY" "$flat")
RC=$?
check_capture "features --json is a JSON object" out_has_line TYPE:object
for topic in 'user_?n(ame)?s(pace)?' landlock seccomp cgroup overlay tiocsti; do
  check_capture "features --json covers '$topic'" \
    sh -c "printf '%s\n' \"\$1\" | grep -qiE '^[^=]*($topic)[^=]*='" sh "$OUT"
done

# Landlock ABI, asked of the kernel directly (landlock_create_ruleset, VERSION flag).
abi=$("$PY" -c 'import ctypes; l = ctypes.CDLL(None, use_errno=True)
print(max(l.syscall(444, None, 0, 1), 0))')
check_capture "features --json reports the Landlock ABI $abi" \
  sh -c "printf '%s\n' \"\$1\" | grep -iE '^[^=]*landlock[^=]*=' | grep -qE '=$abi\$'" sh "$OUT"

# User namespaces for this user: tried here, compared with what features says.
if userns_available; then want=true; else want=false; fi
check_capture "features --json says user namespaces are $want for $TEST_USER" \
  sh -c "printf '%s\n' \"\$1\" | grep -iE '^[^=]*user_?n(ame)?s(pace)?[^=]*=(true|false)\$' | head -n1 |
    grep -q '=$want\$'" sh "$OUT"

finish
