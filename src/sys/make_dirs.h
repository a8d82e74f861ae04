// mkdir -p: creates the missing directories of an absolute path with mode
// 0700; existing ones keep their mode (~/.local/state is the user's).
#pragma once

#include <string>

#include "base/error.h"

namespace aj {

Result<void> make_private_dirs(const std::string& path);

}  // namespace aj
