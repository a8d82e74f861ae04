#include "app_watched.h"

#include <unistd.h>

#include "app_journal_sink.h"
#include "base/log.h"
#include "policy/variables.h"

namespace aj {
namespace {

std::vector<std::string> roots_of(const std::vector<WatchedPath>& paths) {
  std::vector<std::string> roots;
  for (const auto& p : paths) roots.push_back(p.path);
  return roots;
}

}  // namespace

WatchedPaths::WatchedPaths(const std::vector<WatchedPath>& paths)
    : paths_(paths), before_(take_paths_state(roots_of(paths))) {}

void WatchedPaths::report(JournalSink* journal) {
  if (reported_ || paths_.empty()) return;
  reported_ = true;
  const PathsState after = take_paths_state(roots_of(paths_));
  const std::vector<PathChange> changes = compare_paths_state(before_, after);
  // The command may have left the terminal concealing text (SGR 8), in the
  // alternate screen, drawing lines instead of letters (ESC ( 0, SO) or with
  // the foreground colour set to the background's (OSC 10/11): back to
  // normal first, so these lines show. Not a full reset (ESC c), which
  // would clear the screen.
  if (!changes.empty() && ::isatty(STDERR_FILENO)) {
    static constexpr char kReset[] = "\033[0m\033[?1049l\033(B\033)B\017\033]110\007\033]111\007";
    [[maybe_unused]] auto n = ::write(STDERR_FILENO, kReset, sizeof kReset - 1);
  }
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
    if (journal) journal->watched_changed(watched.path, rule, change, watched.why, entries);
  }
}

}  // namespace aj
