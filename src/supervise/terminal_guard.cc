#include "supervise/terminal_guard.h"

#include <errno.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "seccomp/arg_rules.h"
#include "supervise/target.h"

namespace aj {

const char* TerminalGuard::terminal_request(int nr, const std::uint64_t args[6]) {
  if (nr != SYS_ioctl) return nullptr;
  const auto request = static_cast<std::uint32_t>(args[1]);
  for (const auto& t : terminal_ioctls())
    if (t.request == request) return t.name;
  return nullptr;
}

bool TerminalGuard::handles(int nr, const std::uint64_t args[6]) {
  return nr == SYS_setpgid || nr == SYS_setsid || terminal_request(nr, args) != nullptr;
}

bool TerminalGuard::ours(pid_t group) const {
  if (group == job_) return true;
  if (session_.in_session(proc_fd_, group)) return true;
  if (::kill(group, 0) == 0 || errno != ESRCH) return false;  // a leader outside
  // The leader is gone (a job that ended): the group is ours unless a
  // process outside the session is still in it.
  for (pid_t member : listed_processes(proc_fd_))
    if (process_group_from_proc(proc_fd_, member) == group && member != job_ &&
        !session_.in_session(proc_fd_, member))
      return false;
  return true;
}

int TerminalGuard::check(pid_t caller, int nr, const std::uint64_t args[6]) const {
  if (nr == SYS_setpgid) {
    const auto pid = static_cast<pid_t>(static_cast<std::int32_t>(args[0]));
    const auto group = static_cast<pid_t>(static_cast<std::int32_t>(args[1]));
    // A group of its own (0, or its own pid), or one of the session's.
    if (group == 0 || group == (pid == 0 ? caller : pid)) return 0;
    return group > 0 && ours(group) ? 0 : EPERM;
  }
  // setsid, TIOCSPGRP, TCSETS...: checked alike. No terminal shared with
  // the command: the call is about a terminal of the jail's own (a pty it
  // made), or fails in the kernel.
  const pid_t foreground = terminal_fd_ < 0 ? -1 : ::tcgetpgrp(terminal_fd_);
  if (foreground <= 0) return 0;
  return ours(foreground) ? 0 : EPERM;
}

}  // namespace aj
