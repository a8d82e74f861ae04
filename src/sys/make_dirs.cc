#include "sys/make_dirs.h"

#include <errno.h>
#include <sys/stat.h>

namespace aj {

Result<void> make_private_dirs(const std::string& path) {
  for (std::size_t i = 1; i <= path.size(); ++i) {
    if (i != path.size() && path[i] != '/') continue;
    std::string prefix = path.substr(0, i);
    if (::mkdir(prefix.c_str(), 0700) < 0 && errno != EEXIST)
      return sys_error("mkdir", prefix, errno);
  }
  return {};
}

}  // namespace aj
