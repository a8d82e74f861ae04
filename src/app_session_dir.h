// The per-session private directory used when there is no mount namespace
// (home and tmp live there instead of on a tmpfs). Created 0700, removed at
// the end of the session: it holds only what the command wrote as scratch.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/error.h"

namespace aj {

// links: (link, where it leads), each link inside dir/home (Plan::home_links);
// the directories on the way are made.
Result<void> create_private_dir(const std::string& dir,
                                const std::vector<std::pair<std::string, std::string>>& links);
void remove_private_dir(const std::string& dir);

}  // namespace aj
