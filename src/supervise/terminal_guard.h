// The terminal the command shares with the user's shell. The kernel lets any
// process in the terminal's session hand the foreground to a group, a
// background one too when it ignores SIGTTOU, and, without a PID namespace,
// join any process group of the session: a jail run in the background
// (`agentjail -- cmd &`) could take the terminal from the user's shell, or
// join the shell's group, and read what is typed there.
//
// So TIOCSPGRP, and the other requests that change the terminal for every
// process using it (its settings: echo back on under a password prompt;
// its window size, queues, breaks), are refused by the filter
// (seccomp/arg_rules.cc) and let through by the supervisor unless another
// job holds the foreground (the group's leader alive outside the session,
// and not agentjail's own job): an interactive shell inside the jail, which
// makes a group of its own and then takes the foreground, keeps its job
// control. And without a PID namespace, setpgid may only make a new group
// or join one of the session's.
//
// setsid (and TIOCNOTTY) are checked the same way: a process out of the
// terminal's session keeps the descriptors it holds on it and reads with no
// background rule. (One that left while agentjail was the foreground job
// still can, once the user puts agentjail in the background.)
//
// That is judged on the terminal shared with the caller, whichever terminal
// the call names: while the user's job holds it, a jail in the background
// cannot set up a pseudo-terminal of its own either (the descriptor is only
// a number, which another thread could point at the shared terminal once
// checked).
//
// What is checked is the terminal's state and integer arguments, never the
// call's memory: another thread changing it changes nothing.
#pragma once

#include <sys/types.h>

#include <cstdint>

#include "supervise/signal_guard.h"

namespace aj {

class TerminalGuard {
 public:
  // terminal_fd: the supervisor's descriptor of the terminal it shares with
  // the command (its controlling terminal: one of 0-2, or /dev/tty opened
  // when 0-2 are redirected, since the command still reaches it through its
  // own /dev/tty), or -1. job: agentjail's own
  // process group. session: tells the session's processes (its init set).
  TerminalGuard(int terminal_fd, pid_t job, const SignalGuard& session, int proc_fd)
      : terminal_fd_(terminal_fd), job_(job), session_(session), proc_fd_(proc_fd) {}

  // Whether the call is one of the terminal's ioctls (terminal_ioctls() in
  // seccomp/arg_rules.h: TIOCSPGRP, TCSETS, TIOCSWINSZ, TIOCNOTTY, ...),
  // setpgid or setsid.
  static bool handles(int nr, const std::uint64_t args[6]);

  // The name of the terminal ioctl the call makes ("TCSETS"), or null.
  static const char* terminal_request(int nr, const std::uint64_t args[6]);

  // 0 when the call of `caller` (a pid in the supervisor's PID namespace)
  // may go on, else the errno to answer with.
  int check(pid_t caller, int nr, const std::uint64_t args[6]) const;

  // Whether process group `group` is agentjail's job, one the session's
  // processes lead, or one whose leader is gone and that holds no process
  // from outside the session (what a job of the jail's left).
  bool ours(pid_t group) const;

 private:
  int terminal_fd_;
  pid_t job_;
  const SignalGuard& session_;
  int proc_fd_;
};

}  // namespace aj
