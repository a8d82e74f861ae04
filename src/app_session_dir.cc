#include "app_session_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "sys/dir_entries.h"
#include "sys/make_dirs.h"

namespace aj {
namespace {

// Removes everything in directory fd, then nothing else: each entry is
// named relative to a directory this walk opened itself, and a directory is
// entered only with O_NOFOLLOW, so a name the command swaps for a symbolic
// link meanwhile (a survivor of the session, on a kernel that cannot keep it
// from signalling its init) is removed as the link, never followed to the
// user's files. A directory the command made unreadable (chmod 000, which
// the supervisor performed for it) is given back u+rwx first, through its
// descriptor, so that nothing it wrote outlives the session. Past
// kMaxDepth a directory is moved up into root (a fresh name there) instead
// of entered, and the caller goes over root again: no depth costs stack or
// descriptors.
constexpr int kMaxDepth = 64;

void remove_contents(int fd, int depth, int root, unsigned* moved) {
  DIR* dir = ::fdopendir(fd);
  if (!dir) {
    ::close(fd);
    return;
  }
  const int dfd = ::dirfd(dir);
  for (const auto& n : entry_names(dir)) {
    if (::unlinkat(dfd, n.c_str(), 0) == 0 || errno != EISDIR) continue;
    int sub = ::openat(dfd, n.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0 && errno == EACCES) {
      const int path = ::openat(dfd, n.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (path >= 0) {
        char self[64];
        std::snprintf(self, sizeof self, "/proc/self/fd/%d", path);
        if (::chmod(self, 0700) == 0)
          sub = ::openat(dfd, n.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        ::close(path);
      }
    }
    if (sub < 0) continue;
    if (depth >= kMaxDepth) {
      ::close(sub);
      const std::string up = ".aj-deep-" + std::to_string((*moved)++);
      ::renameat(dfd, n.c_str(), root, up.c_str());
      continue;
    }
    struct stat st;
    // Not across a mount point (FTW_MOUNT did the same).
    struct stat parent;
    if (::fstat(sub, &st) == 0 && ::fstat(dfd, &parent) == 0 && st.st_dev == parent.st_dev) {
      ::fchmod(sub, 0700);                           // its entries can then be removed
      remove_contents(sub, depth + 1, root, moved);  // closes sub
    } else {
      ::close(sub);
    }
    ::unlinkat(dfd, n.c_str(), AT_REMOVEDIR);
  }
  ::closedir(dir);
}

// Makes `link` (inside dir) lead to target, with the directories on its way,
// never through a link: each step is opened with O_NOFOLLOW from the one
// above, so nothing is made in what a link there leads to (the user's own
// ~/.claude, say).
Result<void> make_link_in(const std::string& dir, const std::string& link,
                          const std::string& target) {
  if (link.size() <= dir.size() + 1 || link.compare(0, dir.size() + 1, dir + "/") != 0)
    return sys_error("symlink", link, EINVAL);
  int at = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (at < 0) return sys_error("open", dir, errno);
  std::string rest = link.substr(dir.size() + 1);
  for (std::size_t slash; (slash = rest.find('/')) != std::string::npos;) {
    const std::string step = rest.substr(0, slash);
    rest = rest.substr(slash + 1);
    if (::mkdirat(at, step.c_str(), 0700) < 0 && errno != EEXIST) {
      ::close(at);
      return sys_error("mkdir", step, errno);
    }
    const int next = ::openat(at, step.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    ::close(at);
    if (next < 0) return sys_error("open", link, errno);
    at = next;
  }
  const int made = ::symlinkat(target.c_str(), at, rest.c_str());
  const int err = errno;
  ::close(at);
  if (made < 0 && err != EEXIST) return sys_error("symlink", link, err);
  return {};
}

}  // namespace

Result<void> create_private_dir(const std::string& dir,
                                const std::vector<std::pair<std::string, std::string>>& links) {
  AJ_TRY(make_private_dirs(dir));
  for (const char* sub : {"/home", "/tmp"}) {
    std::string p = dir + sub;
    if (::mkdir(p.c_str(), 0700) < 0) return sys_error("mkdir", p, errno);
  }
  for (const auto& [link, target] : links) AJ_TRY(make_link_in(dir, link, target));
  return {};
}

void remove_private_dir(const std::string& dir) {
  const int root = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (root < 0) return;
  unsigned moved = 0;
  for (int pass = 0; pass < 100000; ++pass) {
    if (::unlinkat(AT_FDCWD, dir.c_str(), AT_REMOVEDIR) == 0 || errno != ENOTEMPTY) break;
    const int fd = ::openat(root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) break;
    const unsigned before = moved;
    remove_contents(fd, 0, root, &moved);
    if (moved == before) {  // nothing was moved up: this pass went all the way
      ::unlinkat(AT_FDCWD, dir.c_str(), AT_REMOVEDIR);
      break;
    }
  }
  ::close(root);
}

}  // namespace aj
