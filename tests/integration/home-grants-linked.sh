#!/bin/bash
# A grant kept as a symbolic link to elsewhere (GNU stow's dotfiles:
# ~/.claude -> ~/dotfiles/claude) is reachable inside: the link is recreated
# and where it leads bound (or, without user namespaces, the private home
# links to the grant). Under the claude profile, ~/.claude.json as such a link
# is compared where it leads: Claude Code's own rewrite says nothing, a
# planted MCP server is named (it used to be "not compared" every time, and
# the state missing inside; round 16).
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns
command -v python3 >/dev/null || die "python3 is needed"

dot=$T/dotfiles
mkdir -p "$dot/claude/projects" "$dot/data"
printf '{"numStartups": 1, "mcpServers": {}}\n' >"$dot/claude.json"
chown -R "$TEST_UID:$TEST_GID" "$dot"
chmod -R a+rX "$T"
as_user ln -s "$dot/claude" "$FAKE_HOME/.claude"
as_user ln -s "$dot/claude.json" "$FAKE_HOME/.claude.json"
as_user ln -s "$dot/data" "$FAKE_HOME/data"
sleep 0.2  # older than the session by more than the clock's slack

capture jail --profile claude --journal "$RUN/read.jsonl" -- \
  sh -c 'cat "$HOME/.claude.json" && ls "$HOME/.claude" && echo READ-OK'
check_capture "inside: ~/.claude.json, a link, is read where it leads" out_has '"numStartups": 1'
check_capture "inside: ~/.claude, a link, lists" out_has_line projects
check_capture "inside: both through \$HOME" out_has_line READ-OK
OUT=$(grep '"fs.changed"' "$RUN/read.jsonl") ERR="" RC=0
check_capture "nothing changed: nothing reported (no 'not compared')" [ -z "$OUT" ]

capture jail --profile claude --journal "$RUN/plant.jsonl" -- python3 -c 'import json, os
p = os.path.join(os.environ["HOME"], ".claude.json")
d = json.load(open(p))
d["mcpServers"]["evil"] = {"command": "sh"}
json.dump(d, open(p, "w"))
print("PLANTED")'
check_capture "a server planted through the link" out_has_line PLANTED
OUT=$(grep '"fs.changed"' "$RUN/plant.jsonl") ERR="" RC=0
check_capture "...is named (settings changed, at the file the link leads to)" \
  out_matches "\"path\":\"$dot/claude.json\",\"change\":\"Claude Code settings changed\""

capture jail --rw "$FAKE_HOME/data" -- sh -c 'echo written > "$HOME/data/new" && echo WROTE'
check_capture "--rw of a link: writing through it works" out_has_line WROTE
check "...and lands where the link leads" grep -qx written "$dot/data/new"
finish
