#!/bin/bash
# The shipped claude profile runs Claude Code where its native installer puts
# it (~/.local/bin/claude, a link into ~/.local/share/claude/versions/) and
# lets it keep its state (~/.claude, ~/.claude.json) and receive its API key,
# while the rest stays as in default: ~/.ssh hidden, other secrets withheld,
# the rest of home private. A stand-in program takes Claude Code's place, so
# the test needs no network and no account.
source "$(dirname "$0")/lib.sh"
aj_setup
require_userns

bait=BAIT-$(unique_token)
mkfile_as_user "$FAKE_HOME/.ssh/id_rsa" "$bait"
mkfile_as_user "$FAKE_HOME/.claude.json" '{"numStartups": 1}'
mkfile_as_user "$FAKE_HOME/.claude/settings.json" '{}'
mkfile_as_user "$FAKE_HOME/.bashrc" "# untouched"
version_dir=$FAKE_HOME/.local/share/claude/versions
mkfile_as_user "$version_dir/9.9.9" '#!/bin/sh
echo "AGENT-RAN-$((6*7))"
echo "KEY:${ANTHROPIC_API_KEY:-none}"
echo "OTHER:${GITHUB_TOKEN:-none}"
echo "{\"numStartups\": 2}" > "$HOME/.claude.json" && echo STATE-JSON:WRITTEN
echo session > "$HOME/.claude/session-1" && echo STATE-DIR:WRITTEN
if c=$(cat "$HOME/.ssh/id_rsa" 2>/dev/null) && [ -n "$c" ]; then echo "SSH:READ:$c"; else echo SSH:DENIED; fi
echo "# planted" >> "$HOME/.bashrc" && echo BASHRC:APPENDED
if (echo "{\"hooks\": {}}" > "$HOME/.claude/settings.json") 2>/dev/null; then
  echo SETTINGS:WRITTEN; else echo SETTINGS:DENIED; fi
for f in hooks/pre.sh plugins/cache/m/p/hooks/hooks.json commands/x.md CLAUDE.md local/claude rules/r.md remote-settings.json; do
  if (echo "planted" >> "$HOME/.claude/$f") 2>/dev/null; then echo "PLANT:$f:WRITTEN"; else echo "PLANT:$f:DENIED"; fi
done
if (mkdir -p "$HOME/.claude/agents" && echo "planted" > "$HOME/.claude/agents/new.md") 2>/dev/null; then echo AGENTS:CREATED; else echo AGENTS:DENIED; fi
mkdir -p "$HOME/.claude/session-env/s1" && echo "echo planted" > "$HOME/.claude/session-env/s1/sessionstart-hook-1.sh" && echo SESSION-ENV:WRITTEN
for f in .claude/settings.json .claude/settings.local.json .mcp.json .claude/hooks/h.sh .claude/launch.json .claude/workflows/w.js; do
  if (echo "planted" >> "$f") 2>/dev/null; then echo "PROJECT:$f:WRITTEN"; else echo "PROJECT:$f:DENIED"; fi
done'
chmod 755 "$version_dir/9.9.9"
mkdir -p "$FAKE_HOME/.local/bin"
ln -s "$version_dir/9.9.9" "$FAKE_HOME/.local/bin/claude"
# Existing hook script, plugin, command and memory: read-only in the jail. No
# agents directory yet: one made inside is reported when the session ends.
mkfile_as_user "$FAKE_HOME/.claude/hooks/pre.sh" '#!/bin/sh'
mkfile_as_user "$FAKE_HOME/.claude/plugins/cache/m/p/hooks/hooks.json" '{}'
mkfile_as_user "$FAKE_HOME/.claude/commands/x.md" 'a command'
mkfile_as_user "$FAKE_HOME/.claude/CLAUDE.md" 'my memory'
mkfile_as_user "$FAKE_HOME/.claude/local/claude" '#!/bin/sh'
mkfile_as_user "$FAKE_HOME/.claude/rules/r.md" 'a rule'
mkfile_as_user "$FAKE_HOME/.claude/remote-settings.json" '{}'
chown -R -h "$TEST_UID:$TEST_GID" "$FAKE_HOME/.local" "$FAKE_HOME/.claude"
# The project's own Claude Code settings (hooks, MCP servers): read-only too.
project_files=(.claude/settings.json .claude/settings.local.json .mcp.json .claude/hooks/h.sh
  .claude/launch.json .claude/workflows/w.js)
for f in "${project_files[@]}"; do mkfile_as_user "$WS/$f" '{}'; done
chown -R "$TEST_UID:$TEST_GID" "$WS/.claude"
AJ_EXTRA_ENV=("PATH=$FAKE_HOME/.local/bin:/usr/local/bin:/usr/bin:/bin"
  ANTHROPIC_API_KEY=sk-ant-test-key GITHUB_TOKEN=ghp_testtoken)

# Control: without the jail the stand-in reads the key and appends to ~/.bashrc.
cp -a "$FAKE_HOME/.bashrc" "$T/bashrc.orig"
capture as_user claude
check_capture "control: the stand-in runs without the jail" out_has_line AGENT-RAN-42
check_capture "control: it can read ~/.ssh/id_rsa without the jail" out_has_line "SSH:READ:$bait"
check_capture "control: it can change ~/.claude/settings.json without the jail" \
  out_has_line SETTINGS:WRITTEN
check_capture "control: it can append to ~/.claude/hooks/pre.sh without the jail" \
  out_has_line PLANT:hooks/pre.sh:WRITTEN
snapshot() { (cd "$FAKE_HOME/.claude" && cat hooks/pre.sh plugins/cache/m/p/hooks/hooks.json commands/x.md CLAUDE.md local/claude rules/r.md); }
for f in hooks/pre.sh commands/x.md CLAUDE.md local/claude rules/r.md; do sed -i '/^planted$/d' "$FAKE_HOME/.claude/$f"; done
sed -i '/^planted$/d' "$FAKE_HOME/.claude/plugins/cache/m/p/hooks/hooks.json"
rm -rf "$FAKE_HOME/.claude/agents"
kept=$(snapshot)
cp -a "$T/bashrc.orig" "$FAKE_HOME/.bashrc"
mkfile_as_user "$FAKE_HOME/.claude/settings.json" '{}'
mkfile_as_user "$FAKE_HOME/.claude.json" '{"numStartups": 1}'
rm -rf "$FAKE_HOME/.claude/session-env"  # the control's

capture jail --profile claude -- claude
check_capture "claude profile: the program under ~/.local runs" out_has_line AGENT-RAN-42
check_capture "claude profile: ANTHROPIC_API_KEY is passed" out_has_line KEY:sk-ant-test-key
check_capture "claude profile: other secrets are withheld" out_has_line OTHER:none
check_capture "claude profile: ~/.claude.json can be written" out_has_line STATE-JSON:WRITTEN
check_capture "claude profile: ~/.claude can be written" out_has_line STATE-DIR:WRITTEN
check_capture "claude profile: ~/.ssh/id_rsa cannot be read" out_has_line SSH:DENIED
check_capture "claude profile: the bait appears nowhere" all_lacks "$bait"
check_capture "claude profile: ~/.claude/settings.json (hooks) cannot be changed" \
  out_has_line SETTINGS:DENIED
for f in hooks/pre.sh plugins/cache/m/p/hooks/hooks.json commands/x.md CLAUDE.md local/claude rules/r.md remote-settings.json; do
  check_capture "claude profile: ~/.claude/$f cannot be changed" out_has_line "PLANT:$f:DENIED"
done
check "host: the hook script, plugin, command and memory are unchanged" [ "$(snapshot)" = "$kept" ]
for f in "${project_files[@]}"; do
  check_capture "claude profile: the project's $f cannot be changed" out_has_line "PROJECT:$f:DENIED"
done
check_capture "claude profile: a session script can be written inside" out_has_line SESSION-ENV:WRITTEN
check "host: ...but it stays in the session (~/.claude/session-env holds none)" \
  [ ! -e "$FAKE_HOME/.claude/session-env/s1/sessionstart-hook-1.sh" ]
check_capture "claude profile: an agents directory made inside is reported" \
  err_matches "created '$FAKE_HOME/\.claude/agents'"
check "host: ~/.claude.json holds what the agent wrote" grep -q '"numStartups": 2' "$FAKE_HOME/.claude.json"
check "host: ~/.claude/session-1 was kept" [ -f "$FAKE_HOME/.claude/session-1" ]
check "host: ~/.bashrc is unchanged (home is private)" cmp -s "$FAKE_HOME/.bashrc" "$T/bashrc.orig"

# Default profile: the same program is out of reach (home is private).
capture jail -- claude
check_capture "default profile: the program under ~/.local is not found (exit 127)" rc_is 127
check_capture "default profile: it did not run" out_lacks AGENT-RAN-42
check_capture "default profile: the error says where it is on the host" \
  err_matches "on the host, 'claude' is $FAKE_HOME/.local/bin/claude"

finish
