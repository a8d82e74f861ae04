// The parent side of the launch: flattens the Plan into a ChildSpec, clones
// the child into its namespaces, writes its uid/gid maps, and hands the rest
// to the supervisor loop.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "launch/child_spec.h"
#include "plan/plan.h"
#include "supervise/notify.h"
#include "supervise/terminal_relay.h"
#include "sys/cgroup.h"

namespace aj {

struct Outcome {
  int exit_code = 0;
  bool timed_out = false;
  bool journal_failed = false;
  std::optional<int> signal;           // the command died of this signal
  std::optional<ChildReport> failure;  // a stage the child could not complete
};

struct LaunchOptions {
  std::optional<std::uint64_t> timeout_ms;
  std::uint64_t grace_ms = 5000;  // between SIGTERM and SIGKILL
  std::vector<int> pass_fds;
  ChildHooks hooks;                       // rlimits and Landlock: filled by the caller
  const SessionCgroup* cgroup = nullptr;  // the init is placed here before it runs
  // Runs once the child is released and building the jail, so its work
  // overlaps the child's: compiling the seccomp filter, writing the journal's
  // session.start. Returns the filter to hand over (the command waits for it
  // before exec); an error ends the launch before the command runs.
  std::function<Result<SeccompHandoff>(pid_t init)> while_child_builds;
  NotifyHandler* notify = nullptr;  // seccomp notifications (journal)
  EventSink* sink = nullptr;
  // Sends a signal to every process of the session but the init (^Z: a
  // stopped job's processes must not read the terminal on).
  std::function<void(int sig)> signal_session;
  // Called with the outcome as soon as the command has ended and nothing of
  // the session runs any more, before the init has gone (its namespaces'
  // teardown overlaps with what the caller does here). Not called when the
  // init dies without reporting (killed, or a failure before the command).
  std::function<void(const Outcome&)> on_command_exit;
  // The jail's own terminal (launch/child_spec.h, supervise/terminal_relay.h):
  // its slave goes to the child, the relay into the supervisor's loop.
  int terminal_slave = -1;
  unsigned terminal_stdio = 0;
  TerminalRelay* relay = nullptr;
};

Result<Outcome> launch(const Plan& plan, const LaunchOptions& options);

// "cannot bind '/data' (default.toml:14): No such file or directory"
std::string describe_failure(const Plan& plan, const ChildReport& report);

}  // namespace aj
