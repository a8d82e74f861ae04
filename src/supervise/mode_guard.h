// Without a mount namespace (--no-userns) nothing stops chmod(2) outside the
// writable paths: Landlock does not govern file modes, and the command owns
// the user's files (root's, when root started it). So the jail's chmod,
// fchmod, fchmodat and fchmodat2 calls are notified and the supervisor
// performs them itself, on the very object it resolved, after checking that
// the object lies in a writable grant and belongs to the command's user.
// Performing the call (never CONTINUE) leaves no gap between check and use.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "base/unique_fd.h"

namespace aj {

struct ModeCall {
  int err = 0;           // the call's answer: 0 or an errno
  bool refused = false;  // refused by the guard (not by the kernel)
  std::string path;      // what the call named, resolved (for the journal)
  std::string reason;
};

class ModeGuard {
 public:
  // writable: the read-write grants (directories or files); owner: the
  // command's uid (it holds no CAP_FOWNER).
  ModeGuard(const std::vector<std::string>& writable, uid_t owner);

  // Performs chmod-family call nr (args as the kernel got them; path already
  // read from the process) for process pid. proc_fd: /proc.
  ModeCall perform(int proc_fd, int pid, int nr, const std::uint64_t args[6],
                   const std::string& path) const;

  // The syscall numbers the guard handles.
  static std::vector<int> syscalls();
  // Index of the path argument of nr, or -1 (fchmod).
  static int path_arg(int nr);

 private:
  struct Grant {
    std::string path;  // canonical
    UniqueFd fd;       // O_PATH
  };
  std::vector<Grant> grants_;
  uid_t owner_;

  // Whether object (an O_PATH fd) is reachable beneath a writable grant;
  // sets *where to its path.
  bool in_writable_grant(int object, std::string* where) const;
};

}  // namespace aj
