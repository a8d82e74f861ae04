// Reporting what a session changed among the paths the profile keeps
// read-only but the jail could not (Plan::watched; supervise/watched_paths.h).
#pragma once

#include <time.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "journal/redact.h"
#include "plan/plan.h"
#include "supervise/watched_paths.h"

namespace aj {

class JournalSink;

// What Claude Code reads back in its later sessions that the command may
// write (the claude profile): its state file (~/.claude.json), whose MCP
// servers and permissions are compared (journal/claude_settings.h), and its
// memory (instructions it follows in later sessions), whose files written
// during the session are named: each project's (projects_dirs:
// ~/.claude/projects/*/memory) and each subagent's (memory_dirs:
// ~/.claude/agent-memory, the workspace's .claude/agent-memory*).
struct ClaudeWatch {
  std::vector<WatchedPath> state_files;
  std::vector<WatchedPath> projects_dirs;
  std::vector<WatchedPath> memory_dirs;
  std::string workspace;  // trust Claude Code records for it is the user's
};

class WatchedPaths {
 public:
  // Takes the paths' state; call before the command starts. env: the
  // command's environment, whose secret values the warnings never show.
  // link_roots: directories whose new symbolic links are reported
  // (Plan::link_watched; supervise/new_links.h).
  WatchedPaths(const std::vector<WatchedPath>& paths, const std::vector<WatchedPath>& link_roots,
               const ClaudeWatch& claude, const std::vector<std::string>& env);

  // Compares with the state now (once the session's processes are gone):
  // one warning and one fs.changed event (when journal is given) per watched
  // path that changed or has changed entries beneath it, and one of each
  // for a link root holding links made since the start. Once only.
  void report(JournalSink* journal);

 private:
  std::vector<std::string> git_settings_added(const std::string& path) const;
  void report_changes(JournalSink* journal);
  void report_new_links(JournalSink* journal);
  void report_claude_settings(JournalSink* journal);
  void report_claude_memory(JournalSink* journal);
  void report_new_submodules(JournalSink* journal);

  std::vector<WatchedPath> paths_;
  std::vector<WatchedPath> link_roots_;
  struct timespec start_ {};
  PathsState before_;
  // For each watched git config file (plan/git_protect.h), the settings that
  // run code it held before the command started.
  std::map<std::string, std::vector<std::string>> git_settings_before_;
  // For each git directory among the link roots, its submodules' git
  // directories at the start: one made since, or whose config changed, runs
  // on the host's next `git status` at the top.
  std::map<std::string, std::vector<std::string>> submodules_before_;
  ClaudeWatch claude_;
  // For each Claude Code state file, its text at the start (nullopt:
  // missing or unreadable), parsed only at the end: it holds the history of
  // every project, megabytes that would slow the start.
  std::map<std::string, std::optional<std::string>> claude_before_;
  Redactor redactor_;
  bool reported_ = false;
};

}  // namespace aj
