#include "app_session_dir.h"

#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

namespace aj {
namespace {

Result<void> mkdir_p(const std::string& path, mode_t mode) {
  for (std::size_t i = 1; i <= path.size(); ++i) {
    if (i != path.size() && path[i] != '/') continue;
    std::string prefix = path.substr(0, i);
    if (::mkdir(prefix.c_str(), mode) < 0 && errno != EEXIST)
      return sys_error("mkdir", prefix, errno);
  }
  return {};
}

int remove_entry(const char* path, const struct stat*, int, struct FTW*) {
  ::remove(path);
  return 0;
}

}  // namespace

Result<void> create_private_dir(const std::string& dir) {
  AJ_TRY(mkdir_p(dir, 0700));
  for (const char* sub : {"/home", "/tmp"}) {
    std::string p = dir + sub;
    if (::mkdir(p.c_str(), 0700) < 0) return sys_error("mkdir", p, errno);
  }
  return {};
}

void remove_private_dir(const std::string& dir) {
  // FTW_PHYS: never follow a symlink the command left behind.
  ::nftw(dir.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

}  // namespace aj
