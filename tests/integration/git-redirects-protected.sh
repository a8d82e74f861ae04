#!/bin/bash
# Besides .git/hooks and .git/config, git takes a repository's hooks and
# config from wherever some other metadata points: a .git file (a linked
# worktree's, a submodule checkout's), a commondir, a config.worktree. Where
# the default profile keeps hooks and config read-only, that metadata is
# read-only too when it exists (with a mount namespace), and watched (every
# change reported when the command ends) when it does not exist yet, or when
# there is no mount namespace, or when its directory can be renamed.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v git >/dev/null || die "git is needed"

g() { as_user git -c user.name=t -c user.email=t@t.invalid -c protocol.file.allow=always "$@"; }
# WRITTEN:<name> or DENIED:<name> for: echo TEXT > FILE.
try_write='name=$1; file=$2; text=$3
if (printf "%s\n" "$text" > "$file") 2>/dev/null; then echo "WRITTEN:$name"; else echo "DENIED:$name"; fi'

# A main repository in the workspace with a linked worktree beside it, and
# a submodule.
g init -q "$RUN/subsrc" && g -C "$RUN/subsrc" commit -q --allow-empty -m sub || die "git failed"
g init -q "$WS" && g -C "$WS" commit -q --allow-empty -m top || die "git failed"
g -C "$WS" submodule add -q "$RUN/subsrc" sub >/dev/null 2>&1 || die "git submodule add failed"
g -C "$WS" worktree add -q "$RUN/wt" >/dev/null 2>&1 || die "git worktree add failed"
[ -f "$WS/.git/worktrees/wt/commondir" ] && [ -f "$WS/sub/.git" ] && [ -f "$RUN/wt/.git" ] ||
  die "unexpected git layout"
wt_pointer=$(cat "$RUN/wt/.git")
sub_pointer=$(cat "$WS/sub/.git")
wt_commondir=$(cat "$WS/.git/worktrees/wt/commondir")

# 1. In the main repository.
J=$RUN/j.jsonl
rm -f "$J"
capture jail --journal "$J" -- sh -c "
sh -c '$try_write' sh wt-commondir .git/worktrees/wt/commondir ../../../evil
sh -c '$try_write' sh sub-pointer sub/.git 'gitdir: ../evil'
sh -c '$try_write' sh sub-commondir .git/modules/sub/commondir ../../../evil"
check_capture "main repository: the jailed command ran (exit 0)" rc_is 0
if [ "$AJ_TEST_MODE" = nouserns ]; then
  check_capture "no mount namespace: a linked worktree's commondir is reported" \
    err_matches "changed '$WS/\.git/worktrees/wt/commondir'"
  check_capture "no mount namespace: the submodule's .git file is reported" \
    err_matches "changed '$WS/sub/\.git'"
else
  check_capture "a linked worktree's commondir cannot be rewritten" out_has_line DENIED:wt-commondir
  check_capture "the submodule's .git file cannot be rewritten" out_has_line DENIED:sub-pointer
  check "host: the linked worktree's commondir is unchanged" \
    [ "$(cat "$WS/.git/worktrees/wt/commondir")" = "$wt_commondir" ]
  check "host: the submodule's .git file is unchanged" [ "$(cat "$WS/sub/.git")" = "$sub_pointer" ]
fi
check_capture "a submodule's new commondir is reported" \
  err_matches "created '$WS/\.git/modules/sub/commondir': git would take the repository's config and hooks"
check "journal: fs.changed for the submodule's commondir" grep -q "\"path\":\"$WS/.git/modules/sub/commondir\"" "$J"
# Put things back as they were.
printf '%s\n' "$wt_commondir" >"$WS/.git/worktrees/wt/commondir"
printf '%s\n' "$sub_pointer" >"$WS/sub/.git"
rm -f "$WS/.git/modules/sub/commondir"

# 2. The submodule's directory moved aside and another put in its place:
# refused where it is pinned (bound onto itself, as the directory above a
# read-only .git file), reported everywhere.
capture jail -- sh -c 'if mv sub sub-moved 2>/dev/null; then mkdir -p sub/.git && echo MOVED; else echo KEPT; fi'
if [ "$AJ_TEST_MODE" = nouserns ]; then
  check_capture "no mount namespace: the submodule's checkout can be moved aside" out_has_line MOVED
  check_capture "...and that is reported" err_matches "changed '$WS/sub/\.git'"
  rm -rf "$WS/sub" && mv "$WS/sub-moved" "$WS/sub"
else
  check_capture "the submodule's checkout cannot be moved aside (pinned)" out_has_line KEPT
fi

# 2b. The git directories holding the read-only binds moved aside, and new
# ones put in their place: refused where they are pinned (bound onto
# themselves, with a mount namespace), reported everywhere.
capture jail -- sh -c 'for d in .git/modules/sub .git/modules .git/worktrees/wt .git/worktrees; do
  if mv "$d" "$d.moved" 2>/dev/null; then echo "MOVED:$d"; mkdir -p "$d"; else echo "KEPT:$d"; fi
done'
if [ "$AJ_TEST_MODE" = nouserns ]; then
  check_capture "no mount namespace: moving the submodule's git directory aside is reported" \
    err_matches "'$WS/\.git/modules/sub/config'"
  check_capture "no mount namespace: moving the worktree's directory aside is reported" \
    err_matches "'$WS/\.git/worktrees/wt/commondir'"
else
  for d in .git/modules/sub .git/modules .git/worktrees/wt .git/worktrees; do
    check_capture "$d cannot be moved aside" out_has_line "KEPT:$d"
  done
fi
for d in .git/worktrees .git/worktrees/wt .git/modules .git/modules/sub; do  # moved last first
  if [ -d "$WS/$d.moved" ]; then rm -rf "${WS:?}/$d" && mv "$WS/$d.moved" "$WS/$d"; fi
done

# 3. The workspace is the linked worktree: its .git file.
capture jail --workspace "$RUN/wt" -- sh -c "cd '$RUN/wt' && sh -c '$try_write' sh wt-pointer .git 'gitdir: /elsewhere'"
if [ "$AJ_TEST_MODE" = nouserns ]; then
  check_capture "no mount namespace: the worktree's .git file is reported" \
    err_matches "changed '$RUN/wt/\.git'"
else
  check_capture "the worktree's .git file cannot be rewritten" out_has_line DENIED:wt-pointer
  check "host: the worktree's .git file is unchanged" [ "$(cat "$RUN/wt/.git")" = "$wt_pointer" ]
fi
printf '%s\n' "$wt_pointer" >"$RUN/wt/.git"

# 4. Hooks kept in the working tree (core.hooksPath, as Husky does with
# .husky/_, which git ignores): read-only too, or reported.
g -C "$WS" config core.hooksPath .husky/_ || die "git config failed"
mkdir -p "$WS/.husky/_" && chown -R "$TEST_UID:$TEST_GID" "$WS/.husky"
capture jail -- sh -c "sh -c '$try_write' sh husky-hook .husky/_/pre-commit 'echo planted'"
if [ "$AJ_TEST_MODE" = nouserns ]; then
  check_capture "no mount namespace: a hook planted under core.hooksPath is reported" \
    err_matches "changed '$WS/\.husky/_'"
else
  check_capture "a hook cannot be planted under core.hooksPath" out_has_line DENIED:husky-hook
  check "host: no hook appeared under core.hooksPath" [ ! -e "$WS/.husky/_/pre-commit" ]
fi
rm -rf "$WS/.husky"
g -C "$WS" config --unset core.hooksPath

# 5. A config file the repository includes from the working tree.
mkfile_as_user "$WS/.gitconfig" "[user]"
g -C "$WS" config include.path ../.gitconfig || die "git config failed"
capture jail -- sh -c "sh -c '$try_write' sh include '.gitconfig' '[core] fsmonitor = evil'"
if [ "$AJ_TEST_MODE" = nouserns ]; then
  check_capture "no mount namespace: a change to an included config file is reported" \
    err_matches "changed '$WS/\.gitconfig'"
else
  check_capture "an included config file cannot be changed" out_has_line DENIED:include
  check "host: the included config file is unchanged" [ "$(cat "$WS/.gitconfig")" = "[user]" ]
fi
g -C "$WS" config --unset include.path
rm -f "$WS/.gitconfig"

# 6. A workspace whose .git is a file naming a git directory inside it
# (git init --separate-git-dir): that directory's config and hooks are kept
# as .git's own would be.
mv "$WS/.git" "$RUN/git.saved"
g init -q --separate-git-dir="$WS/inner.git" "$WS" || die "git init failed"
capture jail -- sh -c "sh -c '$try_write' sh inner-config inner.git/config '[core] fsmonitor = evil'
sh -c '$try_write' sh inner-hook inner.git/hooks/post-commit 'echo planted'"
if [ "$AJ_TEST_MODE" = nouserns ]; then
  check_capture "no mount namespace: a change to the named git directory's config is reported" \
    err_matches "changed '$WS/inner\.git/config'"
else
  check_capture "the named git directory's config cannot be changed" out_has_line DENIED:inner-config
  check_capture "the named git directory's hooks cannot be changed" out_has_line DENIED:inner-hook
fi
rm -rf "$WS/.git" "$WS/inner.git"
mv "$RUN/git.saved" "$WS/.git"

# Ordinary work reports nothing: a commit in the main repository and in the
# submodule.
capture jail -- sh -c 'git -c user.name=t -c user.email=t@t.invalid commit -q --allow-empty -m in &&
  cd sub && git -c user.name=t -c user.email=t@t.invalid commit -q --allow-empty -m in-sub && echo COMMITS:OK'
check_capture "control: commits in the repository and its submodule work" out_has_line COMMITS:OK
check_capture "control: and report nothing" all_lacks "inspect it before"

finish
