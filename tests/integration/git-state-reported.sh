#!/bin/bash
# Two more places in .git that make git on the host run what the command
# left, reported when the session ends: an interrupted rebase's todo list
# (git runs its `exec` lines at --continue) and a submodule git directory
# made under .git/modules (`git status` at the top runs its core.fsmonitor).
# Each is named (fs.changed, with the queued command or the setting, and its
# hooks); an ordinary commit says nothing. A submodule git directory without
# hooks at the start gets them watched (round 16); a registered submodule
# whose checkout holds a .git directory of its own is protected as one.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
git_workspace

# "CHANGED <path>|<change>|<settings joined by ;>" per fs.changed event.
changes() {
  python3 - "$1" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "fs.changed":
        print("CHANGED %s|%s|%s" % (e.get("path"), e.get("change"),
                                  ";".join(e.get("git_settings_added", []))))
PY
}

capture jail --journal "$RUN/commit.jsonl" -- git -c user.name=t -c user.email=t@t.invalid \
  commit -q --allow-empty -m inside
check_capture "control: a commit in the jail works" rc_is 0
OUT=$(changes "$RUN/commit.jsonl") ERR="" RC=0
check_capture "control: an ordinary commit is not reported" [ -z "$OUT" ]

marker=$RUN/ran-$(unique_token)
capture jail --journal "$RUN/state.jsonl" -- sh -c "
mkdir -p .git/rebase-merge && printf 'pick 0000000 x\nexec touch $marker\n' > .git/rebase-merge/git-rebase-todo
mkdir -p .git/modules/evil && git init -q --bare .git/modules/evil &&
git --git-dir=.git/modules/evil config core.fsmonitor 'touch $marker; false' &&
printf '#!/bin/sh\ntouch $marker\n' > .git/modules/evil/hooks/post-checkout && echo PLANTED"
check_capture "the command planted both" out_has_line PLANTED
check_capture "the queued command is named on stderr" err_matches "queues 'exec touch $marker'"
check_capture "the submodule git directory is named on stderr, with its setting" \
  err_matches "submodule git directory '$WS/.git/modules/evil' \(its config sets core.fsmonitor"
check_capture "...and its hook" err_matches "modules/evil' \(its config sets .*\(hooks: post-checkout\)"
OUT=$(changes "$RUN/state.jsonl") ERR="" RC=0
check_capture "journal: the rebase state, created, with the queued command" \
  out_has_line "CHANGED $WS/.git/rebase-merge|created|exec touch $marker"
check_capture "journal: the submodule git directory, created, with core.fsmonitor" \
  out_has_line "CHANGED $WS/.git/modules/evil|created|core.fsmonitor = touch $marker; false"
check "nothing ran the planted command inside" [ ! -e "$marker" ]

# A submodule git directory that had no hooks when the session started (git's
# --template= makes them so): a hooks directory made there is reported.
as_user git init -q --bare "$WS/.git/modules/lib" && rm -rf "$WS/.git/modules/lib/hooks" ||
  die "cannot make the submodule git directory"
capture jail --journal "$RUN/hooks.jsonl" -- sh -c "mkdir .git/modules/lib/hooks &&
printf '#!/bin/sh\ntouch $marker\n' > .git/modules/lib/hooks/post-checkout && echo PLANTED"
check_capture "the command planted a hook in a submodule git directory without hooks" \
  out_has_line PLANTED
OUT=$(changes "$RUN/hooks.jsonl") ERR="" RC=0
check_capture "journal: the hooks directory made there is reported" \
  out_matches "^CHANGED $WS/.git/modules/lib/hooks\|created\|"

# planted_config_held JOURNAL WHAT: after a run that tried to set
# core.fsmonitor in vendor/emb, the config was read-only, or, with no mount
# namespace, the change is reported.
planted_config_held() {
  if [ "$AJ_TEST_MODE" = nouserns ]; then
    OUT=$(changes "$1") ERR="" RC=0
    check_capture "$2, no mount namespace: the config change is reported" \
      out_matches "^CHANGED $WS/vendor/emb/.git/config\|changed\|core.fsmonitor"
  else
    check_capture "$2: the checkout's config is read-only" out_lacks CONFIG:WRITTEN
  fi
}

# A registered submodule whose checkout has a .git directory of its own:
# `git status` at the top runs git there with its config.
as_user git init -q "$WS/vendor/emb" && printf '[submodule "emb"]\n\tpath = vendor/emb\n' |
  as_user tee "$WS/.gitmodules" >/dev/null || die "cannot make the embedded submodule"
capture jail --journal "$RUN/emb.jsonl" -- sh -c "git -C vendor/emb config core.fsmonitor 'touch $marker; false' && echo CONFIG:WRITTEN"
planted_config_held "$RUN/emb.jsonl" "embedded submodule"
check "nothing ran the planted command inside" [ ! -e "$marker" ]

# Without .gitmodules (emptied by an earlier session), the gitlink in the
# index still names the checkout: git status at the top recurses into it.
as_user git -C "$WS/vendor/emb" config --unset core.fsmonitor >/dev/null 2>&1  # what the last run set
as_user git -C "$WS/vendor/emb" -c user.name=t -c user.email=t@t.invalid commit -q --allow-empty -m x &&
  as_user git -C "$WS" add vendor/emb >/dev/null 2>&1 || die "cannot add the gitlink"
rm -f "$WS/.gitmodules"
capture jail --journal "$RUN/emb2.jsonl" -- sh -c "git -C vendor/emb config core.fsmonitor 'touch $marker; false' && echo CONFIG:WRITTEN"
planted_config_held "$RUN/emb2.jsonl" "no .gitmodules, the index's gitlink"
finish
