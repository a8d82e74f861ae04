#include "sys/make_dirs.h"

#include <errno.h>
#include <sys/stat.h>

namespace aj {

// Usually the whole path exists and one mkdir says so; only on ENOENT are the
// parents made, from the deepest missing one down.
Result<void> make_private_dirs(const std::string& path) {
  if (::mkdir(path.c_str(), 0700) == 0 || errno == EEXIST) return {};
  if (errno != ENOENT) return sys_error("mkdir", path, errno);
  const std::size_t last = path.find_last_not_of('/');  // trailing slashes aside
  const std::size_t slash = last == std::string::npos ? last : path.rfind('/', last);
  if (slash == std::string::npos || slash == 0) return sys_error("mkdir", path, ENOENT);
  AJ_TRY(make_private_dirs(path.substr(0, slash)));
  if (::mkdir(path.c_str(), 0700) < 0 && errno != EEXIST) return sys_error("mkdir", path, errno);
  return {};
}

}  // namespace aj
