#include "sys/inherited_fds.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "sys/read_file.h"

namespace aj {

std::string walkable_fd_reason(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0) return {};  // not open: nothing is passed
  struct stat st;
  if (::fstat(fd, &st) != 0) return {};
  if (S_ISDIR(st.st_mode)) return "is a directory";
  if (flags & O_PATH) return "is an O_PATH descriptor";
  return {};
}

std::vector<std::string> refused_inherited_fds(const std::vector<int>& fds) {
  std::vector<std::string> out;
  for (int fd : fds) {
    const std::string why = walkable_fd_reason(fd);
    if (why.empty()) continue;
    const std::string target = read_link(fmt::format("/proc/self/fd/{}", fd)).value_or("");
    out.push_back(fmt::format(
        "file descriptor {}{} {}: the command could reach the host's files through it, past "
        "hidden paths; refusing to run",
        fd, target.empty() ? "" : " ('" + target + "')", why));
  }
  return out;
}

}  // namespace aj
