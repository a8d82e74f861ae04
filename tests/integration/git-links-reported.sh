#!/bin/bash
# git on the host writes through a symbolic link in its own directory: it
# appends the reflog to .git/logs/HEAD, rewrites COMMIT_EDITMSG, makes
# refs. The jail cannot stop the command from putting links there (.git is
# writable, so commits work), so every link made during the session beneath
# a protected git directory, or moved there, is reported when the command
# ends: on stderr and as an fs.changed event ("links added") naming each
# link and what it says. A link that was there before is not; nor is
# ordinary work. The same holds for every writable directory outside the
# workspace (Claude Code's ~/.claude under the claude profile: it appends
# to its history and transcripts there, from the host too).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
git_workspace
as_user ln -s "$RUN/old-target" "$WS/.git/info/old" || die "ln failed"
sleep 0.2  # older than the session by more than the file system clock's slack

J=$RUN/j.jsonl
# "LINKS <path>|<entries joined by ,>|<targets joined by ,>" per event.
links_events() {
  python3 - "$J" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("event") == "fs.changed" and e.get("change") == "links added":
        print("LINKS %s|%s|%s" % (e["path"], ",".join(e["entries"]), ",".join(e["link_targets"])))
PY
}

# Control: ordinary work in the repository reports no link.
rm -f "$J"
capture jail --journal "$J" -- sh -c 'echo x > f && git add f &&
  git -c user.name=t -c user.email=t@t.invalid commit -q -m work && echo COMMIT:OK'
check_capture "control: a jailed commit works" out_has_line COMMIT:OK
check_capture "control: no link reported" all_lacks "symbolic link"
capture links_events
check_capture "control: no links-added event" [ -z "$OUT" ]

# The attack: the reflog and the commit message file made links out of the
# workspace, and a link made elsewhere moved in among the refs.
rm -f "$J"
capture jail --journal "$J" -- sh -c "
rm -f .git/logs/HEAD && ln -s '$RUN/victim' .git/logs/HEAD &&
rm -f .git/COMMIT_EDITMSG && ln -s '$RUN/victim2' .git/COMMIT_EDITMSG &&
ln -s ../../../x y && mv y .git/refs/heads/y && echo PLANTED"
check_capture "the jailed command could plant the links (.git is writable)" out_has_line PLANTED
check_capture "stderr names the links, the first one and what it leads to" \
  err_matches "made 3 symbolic links in '$WS/\.git' \(first '$WS/\.git/[^']+' -> '[^']+'\).*remove them before anything on the host writes there"
capture links_events
check_capture "journal: one links-added event for .git" out_matches "^LINKS $WS/\.git\|"
check_capture "journal: the reflog link and where it leads" \
  out_matches "$WS/\.git/logs/HEAD.*\|.*$RUN/victim(,|$)"
check_capture "journal: the commit message link" out_has "$WS/.git/COMMIT_EDITMSG"
check_capture "journal: the link moved in (rename sets its ctime)" out_has "$WS/.git/refs/heads/y"
check_capture "journal: the link that was there before is not named" out_lacks "$WS/.git/info/old"

# Staged in one session where nothing is looked at twice, moved into place
# in the next: moving a directory leaves its links' ctime alone, but sets
# the directory's, so the link is new all the same.
rm -f "$J"
capture jail --journal "$J" -- sh -c "mkdir -p .git/objects/ab/stage/logs &&
  ln -s '$RUN/victim3' .git/objects/ab/stage/logs/HEAD && echo STAGED"
check_capture "staging: the link was made (and reported where it was made)" out_has_line STAGED
sleep 0.2
rm -f "$J"
capture jail --journal "$J" -- sh -c "rm -rf .git/logs && mv .git/objects/ab/stage/logs .git/logs && rm -rf .git/objects/ab/stage && echo MOVED"
check_capture "staging: the directory was moved into place" out_has_line MOVED
capture links_events
check_capture "journal: the link in the moved directory is new" \
  out_matches "^LINKS $WS/\.git\|$WS/\.git/logs/HEAD\|$RUN/victim3$"

# Deeper than any fixed limit: 150 directories down, still found.
rm -f "$J"
capture jail --journal "$J" -- sh -c "d=.git/logs/refs/heads; for i in \$(seq 150); do d=\$d/d; done; mkdir -p \$d && ln -s '$RUN/victim4' \$d/b && echo DEEP"
check_capture "deep: the link was made" out_has_line DEEP
capture links_events
check_capture "journal: the deep link is found" out_matches "/d/d/b(,|\|).*$RUN/victim4(,|$)"

# A directory the supervisor cannot list (mode 0311, as the command may
# leave it): said, never passed over in silence. Root lists it anyway.
rm -f "$J"
capture jail --journal "$J" -- sh -c "mkdir -p .git/logs/refs/heads/x && ln -s '$RUN/victim5' .git/logs/refs/heads/x/b && chmod 0311 .git/logs/refs/heads/x && echo HIDDEN"
check_capture "unlistable: the link was made and its directory closed" out_has_line HIDDEN
if [ "$TEST_UID" -eq 0 ]; then
  capture links_events
  check_capture "unlistable (root): the link is found anyway" out_has "$WS/.git/logs/refs/heads/x/b"
else
  check_capture "unlistable: stderr says the directory could not be searched" \
    err_matches "could not be searched for links \('$WS/\.git/logs/refs/heads/x'\)"
  check "journal: the directory is listed as unsearched" \
    python3 -c 'import json,sys
ev=[json.loads(l) for l in open(sys.argv[1])]
sys.exit(0 if any(sys.argv[2] in (e.get("unsearched") or []) for e in ev if e.get("event")=="fs.changed") else 1)' \
    "$J" "$WS/.git/logs/refs/heads/x"
fi
as_user chmod 0755 "$WS/.git/logs/refs/heads/x"
# Listable but not searchable (0444): the same.
rm -f "$J"
capture jail --journal "$J" -- sh -c "ln -s '$RUN/victim6' .git/logs/refs/heads/x/c && chmod 0444 .git/logs/refs/heads/x && echo CLOSED"
check_capture "listable only: the link was made and its directory closed" out_has_line CLOSED
if [ "$TEST_UID" -ne 0 ]; then
  check_capture "listable only: stderr says the directory could not be searched" \
    err_matches "could not be searched for links \('$WS/\.git/logs/refs/heads/x'\)"
fi
as_user chmod 0755 "$WS/.git/logs/refs/heads/x"

# A writable directory outside the workspace, as the claude profile's
# ~/.claude: a link made there is reported too.
as_user mkdir -p "$FAKE_HOME/state" || die "mkdir failed"
write_profile itest-state <<'TOML'
[profile]
extends = ["default"]
[filesystem]
read_write = ["~/state"]
TOML
rm -f "$J"
capture jail -p itest-state --journal "$J" -- sh -c "ln -s '$FAKE_HOME/.bashrc' '$FAKE_HOME/state/history.jsonl' && echo PLANTED"
check_capture "a writable state directory: the link could be made" out_has_line PLANTED
check_capture "a writable state directory: stderr names the link" \
  err_matches "made a symbolic link in '$FAKE_HOME/state' \('$FAKE_HOME/state/history\.jsonl' -> '$FAKE_HOME/\.bashrc'\)"
capture links_events
check_capture "a writable state directory: journal event" \
  out_has_line "LINKS $FAKE_HOME/state|$FAKE_HOME/state/history.jsonl|$FAKE_HOME/.bashrc"

# A project whose .git/hooks is a link to nothing in the workspace (the
# command could make it and plant hooks there): the jail refuses to start.
mv "$WS/.git/hooks" "$RUN/hooks.saved" || die "mv failed"
as_user ln -s ../tools/hooks "$WS/.git/hooks" || die "ln failed"
capture jail -- true
check_capture "a dangling .git/hooks link: refused before anything runs (125)" rc_is 125
check_capture "a dangling .git/hooks link: the error names it and what it names" \
  err_matches "'$WS/\.git/hooks' is a symbolic link to '\.\./tools/hooks', which does not exist"
rm -f "$WS/.git/hooks" && mv "$RUN/hooks.saved" "$WS/.git/hooks" || die "restore failed"

# Paths a project plants reach the terminal escaped: an include.path whose
# name holds an escape sequence and a newline (a fake line) shows in the
# --dry-run and explain lists with both made visible.
as_user git -C "$WS" config include.path "$(printf 'inc\033]0;x\007\nagentjail: all clear')" ||
  die "git config failed"
capture jail --dry-run -- true
check_capture "--dry-run: the planted name is listed" out_has 'inc\x1b]0;x\x07\x0aagentjail: all clear'
check_capture "--dry-run: no raw escape reaches the terminal" [ "${OUT//$'\033'/}" = "$OUT" ]
out_lacks_line_start() { ! printf '%s\n' "$OUT" | grep -q "^$1"; }
capture aj --profile-dir "$PROFILES" explain
check_capture "explain: no raw escape reaches the terminal" [ "${OUT//$'\033'/}" = "$OUT" ]
check_capture "explain: no forged line" out_lacks_line_start 'agentjail: all clear'
as_user git -C "$WS" config --unset include.path || die "git config failed"

# --dry-run says where new links are looked for.
capture jail --dry-run -- true
check_capture "--dry-run lists .git among the directories searched for new links" \
  out_has "$WS/.git: git on the host writes through a symbolic link"
finish
