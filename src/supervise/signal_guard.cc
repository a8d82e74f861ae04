#include "supervise/signal_guard.h"

#include <errno.h>
#include <sys/syscall.h>

#include <algorithm>
#include <string>

#include "sys/read_file.h"

namespace aj {
namespace {

// The parent of pid from /proc/pid/stat (after the command name, which may
// hold anything, up to its last ')'); 0 when it cannot be read.
pid_t parent_of(pid_t pid) {
  const auto stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return 0;
  const auto close = stat->rfind(')');
  if (close == std::string::npos || close + 4 >= stat->size()) return 0;
  // ") S 1234 ..." : state, then the parent.
  return static_cast<pid_t>(std::strtol(stat->c_str() + close + 4, nullptr, 10));
}

}  // namespace

std::vector<int> SignalGuard::syscalls() {
  return {SYS_kill, SYS_tkill, SYS_tgkill, SYS_rt_sigqueueinfo, SYS_rt_tgsigqueueinfo};
}

bool SignalGuard::handles(int nr) {
  const auto all = syscalls();
  return std::find(all.begin(), all.end(), nr) != all.end();
}

bool SignalGuard::in_session(pid_t pid) const {
  if (init_ <= 0 || pid <= 1 || pid == init_) return false;
  pid_t cur = pid;
  for (int depth = 0; depth < 4096; ++depth) {
    const pid_t parent = parent_of(cur);
    if (parent == init_) return true;
    if (parent <= 1) return false;
    cur = parent;
  }
  return false;
}

int SignalGuard::check(int nr, const std::uint64_t args[6]) const {
  const auto target = static_cast<pid_t>(static_cast<std::int32_t>(args[0]));
  if (nr == SYS_kill) {
    if (target == 0) return 0;  // its own process group: the filter decided
    if (target == -1) return EPERM;
    return in_session(target < 0 ? -target : target) ? 0 : EPERM;
  }
  // tkill(tid), tgkill(tgid, tid), rt_sigqueueinfo(tgid), rt_tgsigqueueinfo(tgid, tid).
  return in_session(target) ? 0 : EPERM;
}

}  // namespace aj
