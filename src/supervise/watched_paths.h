// Paths the profile keeps read-only but the jail cannot (Plan::watched): a
// .git/hooks that did not exist yet, every read-only path inside a writable
// one without a mount namespace, a .git/commondir. Their state is taken
// before the command runs and again after it ended, and every difference is
// reported, so the user learns what to inspect before git runs it.
//
// The state of an entry is what lstat(2) says: device, inode, type and mode,
// owner, size and ctime. Writing, renaming, chmod and chown all move ctime,
// which no call can set back (utimensat sets only atime and mtime), so a
// change cannot be hidden by restoring the other fields.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace aj {

struct EntryState {
  std::string path;
  std::uint64_t dev = 0, ino = 0;
  std::uint32_t mode = 0, uid = 0, gid = 0;
  std::int64_t size = 0, ctime_sec = 0, ctime_nsec = 0;

  bool operator==(const EntryState&) const = default;
};

struct PathsState {
  std::vector<EntryState> entries;  // sorted by path; missing paths are absent
  bool truncated = false;           // a directory tree held more than the walk's limit
};

// At most this many entries are recorded under all roots together (and at
// most 64 directories deep, and paths of at most 4096 bytes).
constexpr std::size_t kMaxWatchedEntries = 20000;

// The state of each root and, for a directory (not followed when it is a
// symbolic link), of everything beneath it.
PathsState take_paths_state(const std::vector<std::string>& roots,
                            std::size_t max_entries = kMaxWatchedEntries);

struct PathChange {
  std::string path;
  const char* what = "";  // "created", "removed" or "changed"
};

// What differs between two states, in path order. Pure.
std::vector<PathChange> compare_paths_state(const PathsState& before, const PathsState& after);

}  // namespace aj
