// The supervisor: one thread, one epoll loop outside the jail. Watches the
// init's pidfd, forwards signals, enforces the wall-clock limit and collects
// the child's reports.
#pragma once

#include <signal.h>

#include <cstdint>
#include <functional>
#include <optional>

#include "launch/child_spec.h"
#include "supervise/events.h"
#include "supervise/notify.h"
#include "supervise/terminal_relay.h"

namespace aj {

struct SuperviseResult {
  std::optional<ChildReport> failure;      // first error report
  std::optional<int> command_wait_status;  // from the init's exit report
  int init_wait_status = 0;                // the init's own end
  bool timed_out = false;
  bool journal_failed = false;  // stopped because the journal could not be written
};

struct SuperviseOptions {
  int pidfd = -1;      // the jail's init
  int status_fd = -1;  // the supervisor's end of the socketpair
  std::optional<std::uint64_t> timeout_ms;
  std::uint64_t grace_ms = 5000;    // after a stop signal or the timeout's SIGTERM
  NotifyHandler* notify = nullptr;  // receives the child's seccomp listener
  EventSink* sink = nullptr;        // signals and limits are reported here
  // Signals every process of the session but the init; used to stop the
  // whole session with the supervisor on SIGTSTP, and go on with it.
  std::function<void(int sig)> signal_session;
  // Called once the init reports the command's end, when nothing of the
  // session runs any more; the loop then waits for the init itself.
  std::function<void(const SuperviseResult&)> on_command_exit;
  // The jail's own terminal, relayed (null: the jail shares the user's).
  // The command's ^Z then stops the command only: the init reports it and
  // the supervisor stops the session and itself, as ^Z on a shared terminal
  // does; SIGWINCH is passed on.
  TerminalRelay* relay = nullptr;
};

// The signals the supervisor takes over (blocked before clone, read through a
// signalfd afterwards).
sigset_t supervised_signals();

SuperviseResult supervise(const SuperviseOptions& options);

}  // namespace aj
