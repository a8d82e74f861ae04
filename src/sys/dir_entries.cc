#include "sys/dir_entries.h"

namespace aj {

std::vector<std::string> entry_names(DIR* dir) {
  std::vector<std::string> out;
  while (const struct dirent* e = ::readdir(dir)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") out.push_back(name);
  }
  return out;
}

}  // namespace aj
