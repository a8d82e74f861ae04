#include "supervise/terminal_guard.h"

#include <errno.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

namespace aj {

bool TerminalGuard::handles(int nr, const std::uint64_t args[6]) {
  return nr == SYS_ioctl && static_cast<std::uint32_t>(args[1]) == TIOCSPGRP;
}

int TerminalGuard::check(pid_t pid) const {
  // No terminal shared with the command: the call is about a terminal of
  // the jail's own (a pty it made), or fails in the kernel.
  const pid_t foreground = terminal_fd_ < 0 ? -1 : ::tcgetpgrp(terminal_fd_);
  if (foreground < 0) return 0;
  const pid_t group = ::getpgid(pid);
  if (group < 0) return ESRCH;
  return group == foreground ? 0 : EPERM;
}

}  // namespace aj
