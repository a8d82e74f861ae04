#include "app_session_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "sys/make_dirs.h"

namespace aj {
namespace {

// Removes everything in directory fd, then nothing else: each entry is
// named relative to a directory this walk opened itself, and a directory is
// entered only with O_NOFOLLOW, so a name the command swaps for a symbolic
// link meanwhile (a survivor of the session, on a kernel that cannot keep it
// from signalling its init) is removed as the link, never followed to the
// user's files. Bounded depth; what is left is left.
void remove_contents(int fd, int depth) {
  DIR* dir = ::fdopendir(fd);
  if (!dir) {
    ::close(fd);
    return;
  }
  std::vector<std::string> names;
  while (const struct dirent* e = ::readdir(dir)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  const int dfd = ::dirfd(dir);
  for (const auto& n : names) {
    if (::unlinkat(dfd, n.c_str(), 0) == 0 || errno != EISDIR || depth >= 256) continue;
    const int sub = ::openat(dfd, n.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0) continue;
    struct stat st;
    // Not across a mount point (FTW_MOUNT did the same).
    struct stat parent;
    if (::fstat(sub, &st) == 0 && ::fstat(dfd, &parent) == 0 && st.st_dev == parent.st_dev) {
      remove_contents(sub, depth + 1);  // closes sub
    } else {
      ::close(sub);
    }
    ::unlinkat(dfd, n.c_str(), AT_REMOVEDIR);
  }
  ::closedir(dir);
}

}  // namespace

Result<void> create_private_dir(const std::string& dir) {
  AJ_TRY(make_private_dirs(dir));
  for (const char* sub : {"/home", "/tmp"}) {
    std::string p = dir + sub;
    if (::mkdir(p.c_str(), 0700) < 0) return sys_error("mkdir", p, errno);
  }
  return {};
}

void remove_private_dir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  remove_contents(fd, 0);
  ::rmdir(dir.c_str());
}

}  // namespace aj
