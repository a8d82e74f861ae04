// tcsetpgrp(3) from the jail. The kernel lets any process in the terminal's
// session hand the foreground to a group, a background one too when it
// ignores SIGTTOU: a jail run in the background (`agentjail -- cmd &`) could
// take the terminal from the user's shell and read what is typed there. The
// filter refuses TIOCSPGRP (seccomp/arg_rules.cc); the supervisor lets it
// through for a caller whose process group holds the terminal's foreground
// now, so job control inside the jail (an interactive shell's) still works.
//
// What is checked is the caller's group and the terminal's state, not the
// call's memory: another thread changing its arguments changes nothing. A
// group that held the foreground may give it to any group of the session:
// the jail had the terminal already.
#pragma once

#include <sys/types.h>

#include <cstdint>

namespace aj {

class TerminalGuard {
 public:
  // terminal_fd: the supervisor's descriptor of the terminal it shares with
  // the command (its controlling terminal), or -1 when there is none.
  explicit TerminalGuard(int terminal_fd) : terminal_fd_(terminal_fd) {}

  // Whether the call is ioctl(fd, TIOCSPGRP, ...).
  static bool handles(int nr, const std::uint64_t args[6]);

  // 0 when the caller (pid, in the supervisor's PID namespace) may go on,
  // else the errno to answer with.
  int check(pid_t pid) const;

 private:
  int terminal_fd_;
};

}  // namespace aj
