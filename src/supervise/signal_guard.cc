#include "supervise/signal_guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>

#include <algorithm>
#include <cstdlib>

#include "base/unique_fd.h"
#include "supervise/target.h"

namespace aj {

std::vector<int> SignalGuard::syscalls() {
  return {SYS_kill, SYS_tkill, SYS_tgkill, SYS_rt_sigqueueinfo, SYS_rt_tgsigqueueinfo};
}

bool SignalGuard::handles(int nr) {
  const auto all = syscalls();
  return std::find(all.begin(), all.end(), nr) != all.end();
}

bool SignalGuard::in_session(int proc_fd, pid_t pid) const {
  if (init_ <= 0 || pid <= 1 || pid == init_) return false;
  pid_t cur = pid;
  for (int depth = 0; depth < 4096; ++depth) {
    const pid_t parent = process_ids(proc_fd, cur).ppid;
    if (parent == init_) return true;
    if (parent <= 1) return false;
    cur = parent;
  }
  return false;
}

void SignalGuard::signal_all(int proc_fd, int sig) const {
  for (int pass = 0; pass < 2; ++pass) {
    UniqueFd dir_fd(::openat(proc_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    DIR* dir = dir_fd ? ::fdopendir(dir_fd.get()) : nullptr;
    if (!dir) return;
    dir_fd.release();
    while (const struct dirent* e = ::readdir(dir)) {
      if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
      const auto pid = static_cast<pid_t>(std::atoi(e->d_name));
      if (in_session(proc_fd, pid)) ::kill(pid, sig);
    }
    ::closedir(dir);
  }
}

int SignalGuard::check(int proc_fd, int nr, const std::uint64_t args[6]) const {
  const auto target = static_cast<pid_t>(static_cast<std::int32_t>(args[0]));
  if (nr == SYS_kill) {
    if (target == 0) return 0;  // its own process group: the filter decided
    if (target == -1) return EPERM;
    return in_session(proc_fd, target < 0 ? -target : target) ? 0 : EPERM;
  }
  // tkill(tid), tgkill(tgid, tid), rt_sigqueueinfo(tgid), rt_tgsigqueueinfo(tgid, tid).
  return in_session(proc_fd, target) ? 0 : EPERM;
}

}  // namespace aj
