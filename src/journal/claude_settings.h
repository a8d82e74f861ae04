// What a Claude Code state file (~/.claude.json) says about code that Claude
// Code runs, or lets run unasked, in its later sessions: the MCP servers (the
// user's, and each project's), each project's allowed tools, approved
// .mcp.json servers and accepted trust, and the approvals given once for
// every session. The claude profile must leave that
// file writable (Claude Code rewrites it as it runs), so a command in the
// jail can add a server there that Claude Code started on the host would
// run: the supervisor compares these settings before and after the session
// and names each change (supervise side: app_watched.cc). Pure.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aj {

// Each such setting, named by where it is ("mcpServers.NAME",
// "projects[/p].allowedTools", ...), with its value as canonical JSON.
// nullopt when the text is not a JSON object, or repeats a name within an
// object (JSON.parse, as Claude Code reads it, keeps the last: what it would
// see cannot be told from the first).
std::optional<std::map<std::string, std::string>> claude_code_run_settings(std::string_view json);

// The settings added or changed from before to after, and those removed
// ("... (removed)"), by name; values are never shown (they may hold keys).
std::vector<std::string> claude_code_settings_changed(
    const std::map<std::string, std::string>& before,
    const std::map<std::string, std::string>& after);

}  // namespace aj
