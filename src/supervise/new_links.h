// Symbolic links a session left in a git directory. git on the host writes
// through them (it appends to logs/HEAD, rewrites COMMIT_EDITMSG and
// FETCH_HEAD, makes files in logs/ and refs/), so one leading out of the
// workspace makes git write where the command chose. git itself makes no
// links there; the jail cannot stop the command from making one (the
// directory is writable), so each new one is found when the session ends.
//
// "New" is told by ctime, which making or renaming a link sets to the time
// and which no call can set back: no walk is needed before the command runs.
#pragma once

#include <time.h>

#include <cstddef>
#include <string>
#include <vector>

namespace aj {

struct NewLink {
  std::string path;
  std::string target;  // what the link says, as written
};

struct NewLinks {
  std::vector<NewLink> links;  // in walk order
  bool truncated = false;      // more entries than the walk's limit
};

constexpr std::size_t kMaxLinkWalkEntries = 100000;

// The links at or beneath root (none followed) whose ctime is at or after
// since. An object store's fan-out directories and packs are looked at but
// not walked: git only adds files there, and a repository may hold many.
NewLinks find_new_links(const std::string& root, const struct timespec& since,
                        std::size_t max_entries = kMaxLinkWalkEntries);

// The file system's clock (coarse), a little earlier, for `since`: a link
// made right after the session started must not look older than it.
struct timespec link_walk_start_time();

}  // namespace aj
