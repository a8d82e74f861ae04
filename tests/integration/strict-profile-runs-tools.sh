#!/bin/bash
# The strict profile (syscall allowlist) still runs what an agent needs in the
# workspace: sh, git init/commit, python3 -c, and node -e when installed.
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

finish
