#include "supervise/new_links.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/dir_entries.h"

namespace aj {
namespace {

constexpr int kMaxDepth = 64;
constexpr std::size_t kMaxPath = 4096;

bool not_older(const struct timespec& t, const struct timespec& since) {
  return t.tv_sec > since.tv_sec || (t.tv_sec == since.tv_sec && t.tv_nsec >= since.tv_nsec);
}

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

// objects/ab or objects/pack: entries only ever added, by git, in numbers.
bool object_store_part(const std::string& parent_name, const std::string& name) {
  if (parent_name != "objects") return false;
  return name == "pack" || (name.size() == 2 && is_hex(name[0]) && is_hex(name[1]));
}

class LinkWalk {
 public:
  LinkWalk(const struct timespec& since, std::size_t max) : since_(since), max_(max) {}

  void visit(int dirfd, const std::string& name, const std::string& path, bool descend, int depth) {
    if (++seen_ > max_) {
      out_.truncated = true;
      return;
    }
    struct stat st;
    if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return;
    if (S_ISLNK(st.st_mode)) {
      if (not_older(st.st_ctim, since_)) out_.links.push_back({path, target_of(dirfd, name)});
      return;
    }
    if (!S_ISDIR(st.st_mode) || !descend) return;
    if (depth >= kMaxDepth || path.size() > kMaxPath) {
      out_.truncated = true;
      return;
    }
    int fd = ::openat(dirfd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return;
    DIR* dir = ::fdopendir(fd);
    if (!dir) {
      ::close(fd);
      return;
    }
    const std::string base = name.substr(name.rfind('/') + 1);
    for (const auto& n : entry_names(dir))
      visit(::dirfd(dir), n, path + "/" + n, !object_store_part(base, n), depth + 1);
    ::closedir(dir);
  }

  NewLinks take() { return std::move(out_); }

 private:
  static std::string target_of(int dirfd, const std::string& name) {
    char buf[4096];
    ssize_t n = ::readlinkat(dirfd, name.c_str(), buf, sizeof buf);
    return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
  }

  struct timespec since_;
  std::size_t max_;
  std::size_t seen_ = 0;
  NewLinks out_;
};

}  // namespace

NewLinks find_new_links(const std::string& root, const struct timespec& since,
                        std::size_t max_entries) {
  LinkWalk walk(since, max_entries);
  walk.visit(AT_FDCWD, root, root, true, 0);
  return walk.take();
}

struct timespec link_walk_start_time() {
  struct timespec t {};
  ::clock_gettime(CLOCK_REALTIME_COARSE, &t);
  // A tick or two of slack: file times come from the coarse clock, read at
  // its own moment.
  constexpr long kSlackNs = 20 * 1000 * 1000;
  if (t.tv_nsec >= kSlackNs) {
    t.tv_nsec -= kSlackNs;
  } else {
    t.tv_sec -= 1;
    t.tv_nsec += 1000000000L - kSlackNs;
  }
  return t;
}

}  // namespace aj
