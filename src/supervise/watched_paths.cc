#include "supervise/watched_paths.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "sys/dir_entries.h"

namespace aj {
namespace {

EntryState state_of(const std::string& path, const struct stat& st) {
  EntryState e;
  e.path = path;
  e.dev = st.st_dev;
  e.ino = st.st_ino;
  e.mode = st.st_mode;
  e.uid = st.st_uid;
  e.gid = st.st_gid;
  e.size = st.st_size;
  e.ctime_sec = st.st_ctim.tv_sec;
  e.ctime_nsec = st.st_ctim.tv_nsec;
  return e;
}

constexpr int kMaxDepth = 64;
constexpr std::size_t kMaxPath = 4096;

class Walk {
 public:
  explicit Walk(std::size_t max_entries) : max_(max_entries) {}

  // Records `path` (named `name` in directory dirfd) and what lies beneath,
  // down to kMaxDepth levels (the command may have made the tree: a chain
  // of directories deeper than any path would cost memory, not insight).
  void visit(int dirfd, const char* name, const std::string& path, int depth = 0) {
    struct stat st;
    if (::fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return;  // missing: absent
    if (!record(state_of(path, st)) || !S_ISDIR(st.st_mode)) return;
    if (depth >= kMaxDepth || path.size() > kMaxPath) {
      state_.truncated = true;
      return;
    }
    int fd = ::openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return;
    DIR* dir = ::fdopendir(fd);
    if (!dir) {
      ::close(fd);
      return;
    }
    for (const auto& n : entry_names(dir))
      visit(::dirfd(dir), n.c_str(), path + "/" + n, depth + 1);
    ::closedir(dir);
  }

  PathsState take() {
    std::sort(state_.entries.begin(), state_.entries.end(),
              [](const EntryState& a, const EntryState& b) { return a.path < b.path; });
    state_.entries.erase(
        std::unique(state_.entries.begin(), state_.entries.end(),
                    [](const EntryState& a, const EntryState& b) { return a.path == b.path; }),
        state_.entries.end());
    return std::move(state_);
  }

 private:
  bool record(EntryState e) {
    if (state_.entries.size() >= max_) {
      state_.truncated = true;
      return false;
    }
    state_.entries.push_back(std::move(e));
    return true;
  }

  std::size_t max_;
  PathsState state_;
};

}  // namespace

PathsState take_paths_state(const std::vector<std::string>& roots, std::size_t max_entries) {
  Walk walk(max_entries);
  for (const auto& root : roots)
    if (!root.empty() && root[0] == '/') walk.visit(AT_FDCWD, root.c_str(), root);
  return walk.take();
}

std::vector<PathChange> compare_paths_state(const PathsState& before, const PathsState& after) {
  std::vector<PathChange> out;
  auto b = before.entries.begin(), a = after.entries.begin();
  while (b != before.entries.end() || a != after.entries.end()) {
    if (a == after.entries.end() || (b != before.entries.end() && b->path < a->path)) {
      out.push_back({b->path, "removed"});
      ++b;
    } else if (b == before.entries.end() || a->path < b->path) {
      out.push_back({a->path, "created"});
      ++a;
    } else {
      if (!(*a == *b)) out.push_back({a->path, "changed"});
      ++a;
      ++b;
    }
  }
  return out;
}

}  // namespace aj
