// Descriptors the command inherits from the caller (0-2 and --pass-fd) that
// would open a way around the jail's view of the filesystem.
#pragma once

#include <string>
#include <vector>

namespace aj {

// Why fd must not reach the command, or "" when it may. A directory (or an
// O_PATH descriptor) was opened in the host's mount namespace: openat(fd,
// "..") and /proc/self/fd/N walk the host's tree, past every hidden path, as
// far as Landlock's grants reach.
std::string walkable_fd_reason(int fd);

// One line per refused descriptor among fds (closed ones are skipped).
std::vector<std::string> refused_inherited_fds(const std::vector<int>& fds);

}  // namespace aj
