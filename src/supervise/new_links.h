// Symbolic links a session left in a git directory, or in a writable
// directory outside the workspace. git on the host writes through them (it
// appends to logs/HEAD, rewrites COMMIT_EDITMSG and FETCH_HEAD, makes files
// in logs/ and refs/), as does a program keeping its state there, so one
// leading out of the workspace makes that program write where the command
// chose. The jail cannot stop the command from making one (the directory is
// writable), so each new one is found when the session ends.
//
// "New" is told by ctime, which making or renaming a link sets to the time
// and which no call can set back; and a link beneath a directory made or
// moved since counts as new too (moving a directory leaves the ctime of what
// it holds alone). So no walk is needed before the command runs.
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
  std::vector<NewLink> links;           // in walk order
  std::vector<std::string> unreadable;  // directories that could not be listed
  bool truncated = false;               // more entries than the limit, or a path too long to use
};

constexpr std::size_t kMaxLinkWalkEntries = 200000;
constexpr std::size_t kMaxLinkWalkPath = 4096;

// The links at or beneath root (none followed) whose own ctime, or that of a
// directory between root and them, is at or after since. Every directory is
// walked, however deep, down to paths of PATH_MAX bytes (no program on the
// host opens a longer one by name).
NewLinks find_new_links(const std::string& root, const struct timespec& since,
                        std::size_t max_entries = kMaxLinkWalkEntries);

// The same, with regular files written or made since counted too (target
// empty): for small trees whose every file matters (Claude Code's project
// memory).
NewLinks find_new_files_and_links(const std::string& root, const struct timespec& since,
                                  std::size_t max_entries = kMaxLinkWalkEntries);

// Whether the time t (a ctime) is not older than since.
bool at_or_after(const struct timespec& t, const struct timespec& since);

// The file system's clock (coarse), a little earlier, for `since`: a link
// made right after the session started must not look older than it.
struct timespec link_walk_start_time();

}  // namespace aj
