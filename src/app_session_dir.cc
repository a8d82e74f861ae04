#include "app_session_dir.h"

#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sys/make_dirs.h"

namespace aj {
namespace {

int remove_entry(const char* path, const struct stat*, int, struct FTW*) {
  ::remove(path);
  return 0;
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
  // FTW_PHYS: never follow a symlink the command left behind.
  ::nftw(dir.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

}  // namespace aj
