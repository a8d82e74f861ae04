#!/bin/bash
# The strict profile (syscall allowlist) still runs what an agent needs in the
# workspace: sh, git init/commit, python3 -c, and node -e when installed. And
# no file in the workspace runs: not directly (Landlock), not through the
# dynamic loader (the workspace is mounted noexec; without user namespaces
# there is no mount to make noexec, and explain says so).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v git >/dev/null || die "git is needed"

probe='cd "$1" || exit 9
sh -c "echo sh-\$((6*7))" && echo SH:OK
g="git -c user.name=t -c user.email=t@t.invalid -c init.defaultBranch=main"
$g init -q repo && cd repo && echo x > f && $g add f && $g commit -q -m first && echo GIT:OK
cd "$1"
/usr/bin/python3 -c "import json, os; print(\"py-%d\" % (6*7))" && echo PY:OK
if [ -x /usr/bin/node ]; then /usr/bin/node -e "console.log(\"node-\" + 6*7)" && echo NODE:OK
else echo NODE:ABSENT; fi'

capture as_user sh -c "$probe" sh "$WS"
for t in SH GIT PY; do check_capture "control: $t works without the jail" out_has_line "$t:OK"; done
rm -rf "$WS/repo"

capture jail --profile strict -- sh -c "$probe" sh "$WS"
check_capture "strict: the command ran (exit 0)" rc_is 0
check_capture "strict: sh runs" out_has_line SH:OK
check_capture "strict: git init and commit work" out_has_line GIT:OK
check_capture "strict: python3 -c works" out_has_line PY:OK
if out_has_line NODE:ABSENT; then
  note "node is not installed: not checked"
else
  check_capture "strict: node -e works" out_has_line NODE:OK
fi
check "host: the commit made under strict is in the repository" \
  sh -c "git -C '$WS/repo' -c safe.directory='*' log --format=%s | grep -qx first"

cp /bin/true "$WS/prog" && chown "$TEST_UID:$TEST_GID" "$WS/prog"
loader=$(ls /lib64/ld-linux-x86-64.so.2 /lib/ld-linux-aarch64.so.1 2>/dev/null | head -n1)
[ -n "$loader" ] || die "no dynamic loader found"
runs='./prog && echo DIRECT:RAN || echo DIRECT:REFUSED
"$1" ./prog && echo LOADER:RAN || echo LOADER:REFUSED
cp ./prog "${TMPDIR:-/tmp}/p" && "$1" "${TMPDIR:-/tmp}/p" && echo TMPLOADER:RAN || echo TMPLOADER:REFUSED
echo DONE'
capture as_user sh -c "$runs" sh "$loader"
check_capture "control: the workspace program runs directly without the jail" out_has_line DIRECT:RAN
check_capture "control: ...and through the loader" out_has_line LOADER:RAN
capture jail --profile strict -- sh -c "$runs" sh "$loader"
check_capture "strict: a workspace program cannot be run directly" out_has_line DIRECT:REFUSED
if [ "$AJ_TEST_MODE" = nouserns ]; then
  note "without user namespaces the loader is not stopped (no mount to make noexec)"
  capture aj explain --profile-dir "$PROFILES" --no-userns --profile strict
  check_capture "no user namespace: explain says the loader can still run a file" \
    out_has "the dynamic loader can still run a file from there"
else
  check_capture "strict: nor through the dynamic loader (noexec mount)" out_has_line LOADER:REFUSED
  check_capture "strict: nor a copy in /tmp through the loader (all writable paths noexec)" \
    out_has_line TMPLOADER:REFUSED
fi
capture jail -- sh -c "$runs" sh "$loader"
check_capture "default: a workspace program runs (the workspace is executable there)" \
  out_has_line DIRECT:RAN
check_capture "default: /tmp stays mappable (noexec there would only break programs)" \
  out_has_line TMPLOADER:RAN

finish
