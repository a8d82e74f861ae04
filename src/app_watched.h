// Reporting what a session changed among the paths the profile keeps
// read-only but the jail could not (Plan::watched; supervise/watched_paths.h).
#pragma once

#include <vector>

#include "plan/plan.h"
#include "supervise/watched_paths.h"

namespace aj {

class JournalSink;

class WatchedPaths {
 public:
  // Takes the paths' state; call before the command starts.
  explicit WatchedPaths(const std::vector<WatchedPath>& paths);

  // Compares with the state now (once the session's processes are gone):
  // one warning and one fs.changed event (when journal is given) per watched
  // path that changed or has changed entries beneath it. Once only.
  void report(JournalSink* journal);

 private:
  std::vector<WatchedPath> paths_;
  PathsState before_;
  bool reported_ = false;
};

}  // namespace aj
