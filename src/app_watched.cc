#include "app_watched.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "app_journal_sink.h"
#include "base/log.h"
#include "journal/claude_settings.h"
#include "journal/summary.h"
#include "plan/git_protect.h"
#include "policy/variables.h"
#include "supervise/new_links.h"
#include "sys/host_probe.h"

namespace aj {
namespace {

std::vector<std::string> roots_of(const std::vector<WatchedPath>& paths) {
  std::vector<std::string> roots;
  for (const auto& p : paths) roots.push_back(p.path);
  return roots;
}

constexpr std::size_t kMaxGitConfigBytes = 256 * 1024;

// The code-running settings of a git config file, or none when it cannot be
// read as a regular file (a link is not followed).
std::vector<std::string> git_settings_of(const std::string& path) {
  const auto text = RealDisk().read_text(path, kMaxGitConfigBytes);
  return text ? git_code_settings(*text) : std::vector<std::string>();
}

// Claude Code keeps its state and history in one file; larger than this, it
// is not compared (and that is said).
constexpr std::size_t kMaxClaudeStateBytes = 64 * 1024 * 1024;

// "a, b, c", for the warnings.
std::string comma_joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::optional<std::string> claude_state_text(const std::string& path) {
  return RealDisk().read_text(path, kMaxClaudeStateBytes);
}

std::optional<std::map<std::string, std::string>> claude_settings_in(
    const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  return claude_code_run_settings(*text);
}

// The commands an interrupted rebase or cherry-pick left queued for git to
// run at --continue: its todo list's exec (x) lines.
std::vector<std::string> queued_commands(const std::string& state_dir) {
  std::vector<std::string> out;
  for (const char* todo : {"/git-rebase-todo", "/todo"}) {
    const auto text = RealDisk().read_text(state_dir + todo, kMaxGitConfigBytes);
    if (!text) continue;
    std::size_t at = 0;
    while (at < text->size()) {
      std::size_t end = text->find('\n', at);
      if (end == std::string::npos) end = text->size();
      std::string line = text->substr(at, end - at);
      at = end + 1;
      line.erase(0, line.find_first_not_of(" \t"));
      const std::string command = line.substr(0, line.find_first_of(" \t"));
      if (command == "exec" || command == "x") out.push_back(line);
    }
  }
  return out;
}

bool is_sequencer_state(const std::string& path) {
  for (const char* name : {"/rebase-merge", "/rebase-apply", "/sequencer"}) {
    const std::string_view n(name);
    if (path.size() >= n.size() && path.compare(path.size() - n.size(), n.size(), n) == 0)
      return true;
  }
  return false;
}

}  // namespace

WatchedPaths::WatchedPaths(const std::vector<WatchedPath>& paths,
                           const std::vector<WatchedPath>& link_roots, const ClaudeWatch& claude,
                           const std::vector<std::string>& env)
    : paths_(paths),
      link_roots_(link_roots),
      start_(link_walk_start_time()),
      before_(take_paths_state(roots_of(paths))),
      claude_(claude) {
  redactor_.add_secret_environment(env);
  for (const auto& p : paths_)
    if (looks_like_git_config(p.path)) git_settings_before_[p.path] = git_settings_of(p.path);
  for (const auto& c : claude_.state_files) claude_before_[c.path] = claude_state_text(c.path);
  for (const auto& root : link_roots_)
    if (RealDisk().kind(root.path + "/HEAD") == FileKind::kFile)
      submodules_before_[root.path] = submodule_git_dirs(RealDisk(), root.path);
}

// What a changed git config file now makes git run that it did not before.
std::vector<std::string> WatchedPaths::git_settings_added(const std::string& path) const {
  auto before = git_settings_before_.find(path);
  if (before == git_settings_before_.end()) return {};
  std::vector<std::string> added;
  for (const auto& s : git_settings_of(path))
    if (std::find(before->second.begin(), before->second.end(), s) == before->second.end())
      added.push_back(s);
  return added;
}

// The command may have left the terminal concealing text (SGR 8), in the
// alternate screen, drawing lines instead of letters (ESC ( 0, SO) or with
// the foreground colour set to the background's (OSC 10/11): back to
// normal first, so the warnings show. Not a full reset (ESC c), which
// would clear the screen.
void reset_terminal_for_warnings() {
  static bool done = false;
  if (done || !::isatty(STDERR_FILENO)) return;
  done = true;
  static constexpr char kReset[] = "\033[0m\033[?1049l\033(B\033)B\017\033]110\007\033]111\007";
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, kReset, sizeof kReset - 1);
}

void WatchedPaths::report(JournalSink* journal) {
  if (reported_) return;
  reported_ = true;
  if (!paths_.empty()) report_changes(journal);
  if (!link_roots_.empty()) report_new_links(journal);
  if (!claude_.state_files.empty()) report_claude_settings(journal);
  report_claude_memory(journal);
  report_new_submodules(journal);
}

// Claude Code keeps a project's memory in ~/.claude/projects/<project>/memory
// (<project>: its path, '/' written '-') and a subagent's in agent-memory
// directories: every file there written or made during the session.
void WatchedPaths::report_claude_memory(JournalSink* journal) {
  auto report = [&](const WatchedPath& root, const std::vector<std::string>& dirs) {
    std::vector<std::string> written;
    bool all = true;
    for (const auto& dir : dirs) {
      const NewLinks found = find_new_files_and_links(dir, start_, 10000);
      for (const auto& f : found.links) written.push_back(f.path);
      for (const auto& u : found.unreadable) written.push_back(u + " (could not be listed)");
      all = all && !found.truncated;
    }
    if (written.empty() && all) return;
    reset_terminal_for_warnings();
    const std::string names = comma_joined(written);
    log::warn(
        "the command wrote Claude Code's memory, which Claude Code follows as instructions in "
        "later sessions: {}{}; read it before Claude Code runs outside the jail",
        display_safe(redactor_.redact(names)), all ? "" : " (not all of it was looked at)");
    if (journal)
      journal->watched_changed(root.path, root.where.str(), "Claude Code memory written", root.why,
                               written, {});
  };
  for (const auto& projects : claude_.projects_dirs) {
    std::vector<std::string> dirs;
    // A link in place of the directory is listed, but the walks beneath
    // follow none: what lies there is named as not listed.
    for (const auto& name : RealDisk().list_dir(projects.path))
      dirs.push_back(projects.path + "/" + name + "/memory");
    report(projects, dirs);
  }
  for (const auto& memory : claude_.memory_dirs) report(memory, {memory.path});
}

void WatchedPaths::report_claude_settings(JournalSink* journal) {
  for (const auto& file : claude_.state_files) {
    const auto& before_text = claude_before_[file.path];
    const auto after_text = claude_state_text(file.path);
    if (before_text && after_text && *before_text == *after_text) continue;
    const auto before = claude_settings_in(before_text);
    const auto after = claude_settings_in(after_text);
    std::vector<std::string> changed;
    std::string what = "Claude Code settings changed";
    if (after) {
      changed = claude_code_settings_changed(before.value_or(std::map<std::string, std::string>{}),
                                             *after);
    } else if (before || ::access(file.path.c_str(), F_OK) == 0) {
      // Unreadable now (not a regular file, over the size limit, not JSON, a
      // name repeated): what Claude Code would make of it cannot be told.
      what = "Claude Code settings not compared";
      changed.push_back(file.path +
                        " (not a JSON object agentjail can compare: unreadable, too large, or "
                        "a name repeated, which Claude Code reads as its last value)");
    }
    // Trust for the workspace itself is what the user accepts in Claude
    // Code's first session there.
    std::erase_if(changed, [this](const std::string& c) {
      return c.rfind("projects[" + claude_.workspace + "].hasTrustDialogAccepted (", 0) == 0;
    });
    if (changed.empty()) continue;
    reset_terminal_for_warnings();
    const std::string names = comma_joined(changed);
    // The names are partly the command's text (server names, paths).
    log::warn(
        "the command changed what Claude Code runs or allows in its later sessions in '{}': {}; "
        "look at it before running Claude Code outside the jail",
        file.path, display_safe(redactor_.redact(names)));
    if (journal) journal->watched_changed(file.path, file.where.str(), what, file.why, changed, {});
  }
}

void WatchedPaths::report_changes(JournalSink* journal) {
  const PathsState after = take_paths_state(roots_of(paths_));
  const std::vector<PathChange> changes = compare_paths_state(before_, after);
  if (!changes.empty()) reset_terminal_for_warnings();
  if (before_.truncated || after.truncated)
    log::warn(
        "the watched paths hold more than {} entries, or trees deeper than 64 directories: only "
        "part of them was compared",
        kMaxWatchedEntries);
  for (const auto& watched : paths_) {
    std::vector<std::string> entries;
    const char* what = nullptr;
    for (const auto& c : changes) {
      if (!path_is_within(c.path, watched.path)) continue;
      entries.push_back(c.path);
      if (c.path == watched.path) what = c.what;
    }
    if (entries.empty()) continue;
    const std::string change = what ? what : "changed beneath";
    const std::string rule = watched.where.str();
    const std::string more =
        entries.size() > 1 ? fmt::format(" ({} changed entries in all)", entries.size()) : "";
    log::warn("the command {} '{}'{}: {}{}; inspect it before anything on the host uses it",
              what ? what : "changed what is under", watched.path, more, watched.why,
              rule.empty() ? "" : " (" + rule + ")");
    const bool queued = is_sequencer_state(watched.path);
    const std::vector<std::string> added =
        queued ? queued_commands(watched.path) : git_settings_added(watched.path);
    // The setting is the command's text: shown escaped (it could hold
    // terminal controls) and without secrets, as the journal shows it.
    for (const auto& setting : added) {
      if (queued)
        log::warn(
            "'{}' queues '{}': git on the host runs it when the rebase or cherry-pick is "
            "continued",
            watched.path, display_safe(redactor_.redact(setting)));
      else
        log::warn("'{}' now sets {}: git on the host would run it (or read more config from it)",
                  watched.path, display_safe(redactor_.redact(setting)));
    }
    if (journal) journal->watched_changed(watched.path, rule, change, watched.why, entries, added);
  }
}

void WatchedPaths::report_new_links(JournalSink* journal) {
  for (const auto& root : link_roots_) {
    const NewLinks found = find_new_links(root.path, start_);
    if (found.links.empty() && found.unreadable.empty() && !found.truncated) continue;
    reset_terminal_for_warnings();
    // The names are the command's text: shown escaped, without secrets.
    auto shown = [this](const std::string& s) { return display_safe(redactor_.redact(s)); };
    std::vector<std::string> paths, targets;
    for (const auto& l : found.links) {
      paths.push_back(l.path);
      targets.push_back(l.target);
    }
    if (const std::size_t n = found.links.size(); n > 0)
      log::warn(
          "the command made {} in '{}' ({}'{}' -> '{}'): {}; remove {} before anything on the "
          "host writes there",
          n == 1 ? std::string("a symbolic link") : fmt::format("{} symbolic links", n), root.path,
          n == 1 ? "" : "first ", shown(found.links.front().path),
          shown(found.links.front().target), root.why, n == 1 ? "it" : "them");
    if (const std::size_t n = found.unreadable.size(); n > 0)
      log::warn(
          "the command left {} in '{}' that could not be searched for links ({}'{}'): {}; make "
          "{} readable and look inside before anything on the host writes there",
          n == 1 ? std::string("a directory") : fmt::format("{} directories", n), root.path,
          n == 1 ? "" : "first ", shown(found.unreadable.front()), root.why,
          n == 1 ? "it" : "them");
    if (found.truncated)
      log::warn(
          "'{}' holds more than {} entries, or paths longer than {} bytes: it was not all "
          "searched for new links; {}",
          root.path, kMaxLinkWalkEntries, kMaxLinkWalkPath, root.why);
    if (journal)
      journal->links_added(root.path, root.where.str(), root.why, paths, targets, found.unreadable,
                           !found.truncated);
  }
}

// A submodule's git directory made during the session, or one whose config
// changed: `git status` at the top runs git there, with that config and its
// hooks (known ones are protected at the start: git_protect.h).
void WatchedPaths::report_new_submodules(JournalSink* journal) {
  for (const auto& [git_dir, before] : submodules_before_) {
    std::string rule;
    for (const auto& r : link_roots_)
      if (r.path == git_dir) rule = r.where.str();
    for (const std::string& dir : submodule_git_dirs(RealDisk(), git_dir)) {
      const bool made = std::find(before.begin(), before.end(), dir) == before.end();
      struct stat st;
      const bool config_changed =
          ::lstat((dir + "/config").c_str(), &st) == 0 && at_or_after(st.st_ctim, start_);
      if (!made && !config_changed) continue;
      const std::vector<std::string> settings = git_settings_of(dir + "/config");
      const std::string listed = comma_joined(settings);
      // Its hooks (git's own samples aside) run on the host too.
      std::vector<std::string> entries = {dir + "/config"};
      std::vector<std::string> hooks;
      for (const std::string& name : RealDisk().list_dir(dir + "/hooks"))
        if (!name.ends_with(".sample")) {
          hooks.push_back(name);
          entries.push_back(dir + "/hooks/" + name);
        }
      reset_terminal_for_warnings();
      log::warn(
          "the command {} the submodule git directory '{}'{}: `git status` at the top of the "
          "repository runs git there, with its config and hooks; inspect it before running git "
          "on the host",
          made ? "made" : "changed the config of", dir,
          (listed.empty() ? ""
                          : " (its config sets " + display_safe(redactor_.redact(listed)) + ")") +
              (hooks.empty() ? "" : " (hooks: " + display_safe(comma_joined(hooks)) + ")"));
      if (journal)
        journal->watched_changed(dir, rule, made ? "created" : "changed",
                                 "a submodule's git directory: git at the top runs its config "
                                 "and hooks",
                                 entries, settings);
    }
  }
}

}  // namespace aj
