#include "supervise/new_links.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "base/unique_fd.h"

namespace aj {
namespace {

// A directory, opened by its whole path with no link followed on the way
// (after the session nothing in the jail runs, but the walk never trusts a
// path it did not check).
int open_dir(const std::string& path) {
  struct open_how how = {};
  how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
  how.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  return static_cast<int>(::syscall(SYS_openat2, AT_FDCWD, path.c_str(), &how, sizeof how));
}

std::string target_of(int dirfd, const char* name) {
  char buf[4096];
  ssize_t n = ::readlinkat(dirfd, name, buf, sizeof buf);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
}

struct Pending {
  std::string path;
  bool fresh;  // it, or a directory above it below the root, is new
};

class LinkWalk {
 public:
  LinkWalk(const struct timespec& since, std::size_t max, bool files)
      : since_(since), max_(max), files_(files) {}

  void run(const std::string& root) {
    struct stat st;
    if (::lstat(root.c_str(), &st) != 0) return;  // missing: nothing there
    if (S_ISLNK(st.st_mode) || (files_ && S_ISREG(st.st_mode))) {
      if (at_or_after(st.st_ctim, since_))
        out_.links.push_back({root, target_of(AT_FDCWD, root.c_str())});
      return;
    }
    if (!S_ISDIR(st.st_mode)) return;
    // The root's own ctime moves with any entry made in it: not a sign.
    std::vector<Pending> stack = {{root, false}};
    while (!stack.empty() && !out_.truncated) {
      Pending dir = std::move(stack.back());
      stack.pop_back();
      list(dir, stack);
    }
  }

  NewLinks take() { return std::move(out_); }

 private:
  void list(const Pending& dir, std::vector<Pending>& stack) {
    UniqueFd fd(open_dir(dir.path));
    if (!fd) {
      if (errno != ENOENT) out_.unreadable.push_back(dir.path);
      return;
    }
    DIR* d = ::fdopendir(fd.get());
    if (!d) {
      out_.unreadable.push_back(dir.path);
      return;
    }
    fd.release();
    bool unsearched = false;  // listed, but its entries could not be looked at
    while (const struct dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      if (++seen_ > max_) {
        out_.truncated = true;
        break;
      }
      // Plain files are passed over unread: most entries are (git objects).
      if (e->d_type == DT_REG && !files_) continue;
      struct stat st;
      if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        // Readable but not searchable (mode 0444): the names show, not what
        // they are.
        if (errno != ENOENT && !unsearched) out_.unreadable.push_back(dir.path);
        unsearched = unsearched || errno != ENOENT;
        continue;
      }
      const std::string path = dir.path + "/" + name;
      if (S_ISLNK(st.st_mode)) {
        if (dir.fresh || at_or_after(st.st_ctim, since_))
          out_.links.push_back({path, target_of(::dirfd(d), e->d_name)});
      } else if (files_ && S_ISREG(st.st_mode)) {
        if (dir.fresh || at_or_after(st.st_ctim, since_)) out_.links.push_back({path, {}});
      } else if (S_ISDIR(st.st_mode)) {
        if (path.size() >= kMaxLinkWalkPath)
          out_.truncated = true;
        else
          stack.push_back({path, dir.fresh || at_or_after(st.st_ctim, since_)});
      }
    }
    ::closedir(d);
  }

  struct timespec since_;
  std::size_t max_;
  bool files_;  // regular files count too (written or made since)
  std::size_t seen_ = 0;
  NewLinks out_;
};

}  // namespace

bool at_or_after(const struct timespec& t, const struct timespec& since) {
  return t.tv_sec > since.tv_sec || (t.tv_sec == since.tv_sec && t.tv_nsec >= since.tv_nsec);
}

NewLinks find_new_links(const std::string& root, const struct timespec& since,
                        std::size_t max_entries) {
  LinkWalk walk(since, max_entries, false);
  walk.run(root);
  return walk.take();
}

NewLinks find_new_files_and_links(const std::string& root, const struct timespec& since,
                                  std::size_t max_entries) {
  LinkWalk walk(since, max_entries, true);
  walk.run(root);
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
