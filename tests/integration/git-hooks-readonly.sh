#!/bin/bash
# The default profile keeps the workspace writable but its .git/hooks and
# .git/config read-only: code planted there would later run on the host,
# outside any sandbox. Commits still work. .git itself cannot be moved aside
# (and a fresh .git put in its place, with hooks of the command's choosing).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v git >/dev/null || die "git is needed"

git_id=(-c user.name=agentjail-test -c user.email=test@agentjail.invalid -c init.defaultBranch=main)
as_user git "${git_id[@]}" init -q "$WS" || die "git init failed"
config_before=$(cat "$WS/.git/config")

probe='cd "$1" || exit 9
g="git -c user.name=t -c user.email=t@t.invalid"
echo change >> file.txt
$g add file.txt && $g commit -q -m "from $2" && echo COMMIT:OK || echo COMMIT:FAILED
if (printf "#!/bin/sh\necho planted\n" > .git/hooks/pre-commit) 2>/dev/null; then
  echo HOOK:WRITTEN; else echo HOOK:DENIED; fi
if (echo "# x" >> .git/hooks/pre-push.sample) 2>/dev/null; then
  echo SAMPLE:WRITTEN; else echo SAMPLE:DENIED; fi
if (echo "[core] fsmonitor = evil" >> .git/config) 2>/dev/null; then
  echo CONFIG:WRITTEN; else echo CONFIG:DENIED; fi
if git config core.hooksPath /tmp/evil 2>/dev/null; then
  echo GITCONFIG:WRITTEN; else echo GITCONFIG:DENIED; fi
if mv .git/hooks .git/hooks-moved 2>/dev/null; then echo HOOKSDIR:MOVED; else echo HOOKSDIR:KEPT; fi
if mv .git/config .git/config-moved 2>/dev/null; then echo CONFIGFILE:MOVED; else echo CONFIGFILE:KEPT; fi
if mv .git .git-moved 2>/dev/null; then echo GITDIR:MOVED; mv .git-moved .git; else echo GITDIR:KEPT; fi'

# Control: on a clone outside the jail, the same actions succeed.
cp -a "$WS" "$T/ws-control"
capture as_user sh -c "$probe" sh "$T/ws-control" control
check_capture "control: a commit works without the jail" out_has_line COMMIT:OK
check_capture "control: .git/hooks is writable without the jail" out_has_line HOOK:WRITTEN
check_capture "control: .git/config is writable without the jail" out_has_line CONFIG:WRITTEN
check_capture "control: git config can change core.hooksPath without the jail" \
  out_has_line GITCONFIG:WRITTEN
check_capture "control: .git can be moved aside without the jail" out_has_line GITDIR:MOVED

capture jail -- sh -c "$probe" sh "$WS" jail
check_capture "the jailed command ran (exit 0)" rc_is 0
check_capture "inside: a commit still works" out_has_line COMMIT:OK
check_capture "inside: a new hook cannot be planted in .git/hooks" out_has_line HOOK:DENIED
check_capture "inside: an existing hook sample cannot be changed" out_has_line SAMPLE:DENIED
check_capture "inside: .git/config cannot be appended to" out_has_line CONFIG:DENIED
check_capture "inside: git config cannot set core.hooksPath" out_has_line GITCONFIG:DENIED
check_capture "inside: .git/hooks cannot be moved aside" out_has_line HOOKSDIR:KEPT
check_capture "inside: .git/config cannot be moved aside" out_has_line CONFIGFILE:KEPT
if [ "$AJ_TEST_MODE" = nouserns ]; then
  note "without a mount namespace .git is not pinned (Landlock cannot refuse one rename)"
else
  check_capture "inside: .git itself cannot be moved aside" out_has_line GITDIR:KEPT
fi
check "host: no pre-commit hook appeared" [ ! -e "$WS/.git/hooks/pre-commit" ]
check "host: .git/config is unchanged" [ "$(cat "$WS/.git/config" 2>/dev/null)" = "$config_before" ]
check "host: the commit made inside is in the history" \
  sh -c "git -C '$WS' -c safe.directory='*' log --format=%s | grep -qx 'from jail'"

# A submodule's git directory (.git/modules/NAME) holds hooks and a config of
# its own, which git on the host runs too (`git status` at the top runs the
# submodule's core.fsmonitor): read-only as well; its commits still work.
as_user git "${git_id[@]}" init -q "$RUN/subsrc" && as_user git -C "$RUN/subsrc" "${git_id[@]}" \
  commit -q --allow-empty -m sub || die "cannot make the submodule's source"
as_user git -C "$WS" "${git_id[@]}" -c protocol.file.allow=always submodule add -q "$RUN/subsrc" sub \
  >/dev/null 2>&1 || die "git submodule add failed"
[ -d "$WS/.git/modules/sub/hooks" ] || die "no .git/modules/sub/hooks after submodule add"
sub_config_before=$(cat "$WS/.git/modules/sub/config")
subprobe='cd "$1/sub" || exit 9
g="git -c user.name=t -c user.email=t@t.invalid"
$g commit -q --allow-empty -m "sub from $2" && echo SUBCOMMIT:OK || echo SUBCOMMIT:FAILED
if (printf "#!/bin/sh\necho planted\n" > ../.git/modules/sub/hooks/pre-commit) 2>/dev/null; then
  echo SUBHOOK:WRITTEN; else echo SUBHOOK:DENIED; fi
if (echo "[core] fsmonitor = evil" >> ../.git/modules/sub/config) 2>/dev/null; then
  echo SUBCONFIG:WRITTEN; else echo SUBCONFIG:DENIED; fi'
rm -rf "$T/ws-control2" && cp -a "$WS" "$T/ws-control2"
capture as_user sh -c "$subprobe" sh "$T/ws-control2" control
check_capture "control: the submodule's hooks are writable without the jail" \
  out_has_line SUBHOOK:WRITTEN
check_capture "control: the submodule's config is writable without the jail" \
  out_has_line SUBCONFIG:WRITTEN
capture jail -- sh -c "$subprobe" sh "$WS" jail
check_capture "inside: a commit in the submodule still works" out_has_line SUBCOMMIT:OK
check_capture "inside: a hook cannot be planted in the submodule's git directory" \
  out_has_line SUBHOOK:DENIED
check_capture "inside: the submodule's config cannot be appended to" out_has_line SUBCONFIG:DENIED
check "host: no pre-commit hook appeared in the submodule" \
  [ ! -e "$WS/.git/modules/sub/hooks/pre-commit" ]
check "host: the submodule's config is unchanged" \
  [ "$(cat "$WS/.git/modules/sub/config")" = "$sub_config_before" ]

finish
