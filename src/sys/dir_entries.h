// The names in an open directory, for walks that go on relative to it.
#pragma once

#include <dirent.h>

#include <string>
#include <vector>

namespace aj {

// Every name in dir but "." and "..", read to the end.
std::vector<std::string> entry_names(DIR* dir);

}  // namespace aj
