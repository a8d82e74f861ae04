// The per-session private directory used when there is no mount namespace
// (home and tmp live there instead of on a tmpfs). Created 0700, removed at
// the end of the session: it holds only what the command wrote as scratch.
#pragma once

#include <string>

#include "base/error.h"

namespace aj {

Result<void> create_private_dir(const std::string& dir);
void remove_private_dir(const std::string& dir);

}  // namespace aj
