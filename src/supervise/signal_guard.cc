#include "supervise/signal_guard.h"

#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>

#include <algorithm>

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
  for (int pass = 0; pass < 2; ++pass)
    for (int pid : listed_processes(proc_fd))
      if (in_session(proc_fd, pid)) ::kill(pid, sig);
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
