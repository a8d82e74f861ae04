#!/bin/bash
# What the profile keeps read-only but the jail cannot is watched, and every
# change to it is reported when the command ends (stderr and an fs.changed
# journal event), so the user knows what to inspect before git on the host
# runs it:
#  - a workspace with no repository yet: a .git/hooks made inside (nothing
#    could be bound read-only over a path that did not exist);
#  - a repository's .git/commondir, which would make git take config and
#    hooks from elsewhere (a missing file cannot be bound over either);
#  - without user namespaces, .git/hooks and .git/config themselves (Landlock
#    grants add up: inside the writable workspace they stay writable). The
#    start-up warning says so too.
# Ordinary work (files in the workspace, a commit) reports nothing.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v git >/dev/null || die "git is needed"
command -v python3 >/dev/null || die "python3 is needed"

J=$RUN/j.jsonl
# "CHANGED <path>|<change>|<first entry>|<count>" per fs.changed event.
changes() {
  python3 - "$J" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "fs.changed":
        ent = e.get("entries") or []
        print("CHANGED %s|%s|%s|%d" % (e.get("path"), e.get("change"), ent[0] if ent else "", len(ent)))
PY
}
plant_hook='mkdir -p .git/hooks 2>/dev/null; (printf "#!/bin/sh\necho planted\n" > .git/hooks/post-checkout) 2>/dev/null && echo HOOK:WRITTEN || echo HOOK:DENIED'

# 0. No repository at the start: a .git *file* naming a repository made
# elsewhere in the workspace (with a hook) is reported too.
rm -f "$J"
capture jail --journal "$J" -- sh -c 'git init -q .cache/x && printf "#!/bin/sh\necho planted\n" > .cache/x/.git/hooks/pre-commit && echo "gitdir: .cache/x/.git" > .git && echo GITFILE:WRITTEN'
check_capture "no repository yet: a .git file could be written" out_has_line GITFILE:WRITTEN
check_capture "no repository yet: stderr names the created .git" \
  err_matches "created '$WS/\.git': there was no repository when the jail started"
capture changes
check_capture "journal: fs.changed for .git, created" out_has_line "CHANGED $WS/.git|created|$WS/.git|1"
rm -rf "$WS/.git" "$WS/.cache"

# 1. No repository at the start: one made inside, with a hook, is reported.
rm -f "$J"
capture jail --journal "$J" -- sh -c "git init -q . && $plant_hook"
check_capture "no repository yet: the jailed git init ran (exit 0)" rc_is 0
check_capture "no repository yet: the hook could be written (nothing was there to protect)" \
  out_has_line HOOK:WRITTEN
check_capture "no repository yet: stderr names the created .git/hooks" \
  err_matches "created '$WS/\.git/hooks' \([0-9]+ changed entries in all\): read-only in the profile, but missing when the jail started"
check_capture "no repository yet: stderr names the created .git/config" err_matches "created '$WS/\.git/config'"
capture changes
check_capture "journal: fs.changed for .git/hooks, created, listing the planted hook" \
  out_matches "^CHANGED $WS/\.git/hooks\|created\|$WS/\.git/hooks\|[0-9]+$"
check "journal: the planted hook is among the changed entries" \
  python3 -c 'import json,sys
ev=[json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if any(sys.argv[2] in (e.get("entries") or []) for e in ev if e.get("event")=="fs.changed") else 1)' \
  "$J" "$WS/.git/hooks/post-checkout"

# Ordinary work in a repository the jail found: nothing to report.
as_user git -C "$WS" -c safe.directory='*' config user.name t || die "git config failed"
as_user git -C "$WS" -c safe.directory='*' config user.email t@t.invalid || die "git config failed"
rm -f "$WS/.git/hooks/post-checkout"
rm -f "$J"
capture jail --journal "$J" -- sh -c 'echo x > work.txt && git add work.txt && git commit -q -m work && echo COMMIT:OK'
check_capture "control: a jailed commit works" out_has_line COMMIT:OK
check_capture "control: ordinary work reports no change" all_lacks "which the profile keeps"
check_capture "control: ...and nothing that the jail could not keep read-only" all_lacks "inspect it before"
capture changes
check_capture "control: no fs.changed event in the journal" [ -z "$OUT" ]

# --dry-run lists what is watched, and why.
capture jail --dry-run -- true
check_capture "--dry-run lists .git/commondir among the watched paths" \
  out_has "$WS/.git/commondir: git would take the repository's config and hooks"

# 2. .git/commondir written inside is reported.
rm -f "$J"
capture jail --journal "$J" -- sh -c 'echo /tmp/elsewhere > .git/commondir && echo COMMONDIR:WRITTEN'
check_capture "commondir: the jailed command ran (exit 0)" rc_is 0
check_capture "commondir: stderr names it and why it matters" \
  err_matches "created '$WS/\.git/commondir': git would take the repository's config and hooks from where it points"
capture changes
check_capture "journal: fs.changed for .git/commondir, created" \
  out_has_line "CHANGED $WS/.git/commondir|created|$WS/.git/commondir|1"
rm -f "$WS/.git/commondir"

# 3. A hook planted in the existing .git/hooks: refused with a mount
# namespace; without one only reported (and warned about at the start).
rm -f "$J"
capture jail --journal "$J" -- sh -c "$plant_hook"
if [ "$AJ_TEST_MODE" = nouserns ]; then
  check_capture "no mount namespace: the start-up warning says .git/hooks stays writable" \
    err_matches "read-only '$WS/\.git/hooks' .*: no mount namespace; still writable through the grant '$WS'"
  check_capture "no mount namespace: the hook could be written" out_has_line HOOK:WRITTEN
  check_capture "no mount namespace: stderr reports the change beneath .git/hooks" \
    err_matches "changed '$WS/\.git/hooks' \(2 changed entries in all\)"
  capture changes
  check_capture "journal: fs.changed for .git/hooks, changed (a new entry)" \
    out_has_line "CHANGED $WS/.git/hooks|changed|$WS/.git/hooks|2"
else
  check_capture "mount namespace: the hook is refused" out_has_line HOOK:DENIED
  check_capture "mount namespace: nothing to report" all_lacks "inspect it before"
fi
rm -f "$WS/.git/hooks/post-checkout"

# 3b. The top of the workspace made a repository of its own (with .git
# spoiled, git would take it for a bare repository): its HEAD is reported.
rm -f "$J"
capture jail --journal "$J" -- sh -c 'echo "ref: refs/heads/master" > HEAD && mkdir -p objects refs && echo TOP:MADE'
check_capture "top made a repository: the command could write HEAD there" out_has_line TOP:MADE
check_capture "top made a repository: stderr names the created HEAD" \
  err_matches "created '$WS/HEAD': git on the host would take the workspace itself for a repository"
rm -rf "$WS/HEAD" "$WS/objects" "$WS/refs"

# 4. Without a mount namespace .git/config stays writable too: a setting that
# makes git run a program is named in the report.
if [ "$AJ_TEST_MODE" = nouserns ]; then
  rm -f "$J"
  cp "$WS/.git/config" "$RUN/config.saved"
  capture jail --journal "$J" -- sh -c 'printf "[core]\n\tfsmonitor = \"touch /tmp/x\"\n[alias]\n\tz = \"!true \033[8m\"\n" >> .git/config && echo CONFIG:WRITTEN'
  check_capture "no mount namespace: .git/config could be written" out_has_line CONFIG:WRITTEN
  check_capture "no mount namespace: stderr names the setting git would run" \
    err_matches "'$WS/\.git/config' now sets core\.fsmonitor = touch /tmp/x: git on the host would run it"
  check_capture "no mount namespace: the setting's terminal controls are shown escaped" \
    err_matches "now sets alias\.z = !true \\\\x1b\[8m"
  check_capture "no mount namespace: ... and not sent to the terminal" all_lacks $'\e[8m'
  check "journal: fs.changed for .git/config lists the setting" \
    python3 -c 'import json,sys
ev=[json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if any("core.fsmonitor = touch /tmp/x" in (e.get("git_settings_added") or []) for e in ev) else 1)' "$J"
  cp "$RUN/config.saved" "$WS/.git/config"
fi

finish
