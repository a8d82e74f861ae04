// Answers the jail's seccomp user notifications: exec calls are journaled and
// continued (observation only: the enforcing filter allows exec anyway);
// refusals are answered with the errno the enforcing filter would have given
// (computed by running it, see seccomp/notify_program.h) and journaled; the
// chmod and chown families are performed by the supervisor itself
// (metadata_guard.h). A refusal is always the supervisor's errno, never a
// CONTINUE, so no time-of-check/time-of-use gap can turn a check into a grant.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/unique_fd.h"
#include "seccomp/filter.h"
#include "supervise/events.h"
#include "supervise/metadata_guard.h"
#include "supervise/signal_guard.h"
#include "supervise/terminal_guard.h"

namespace aj {

// Trace mode: judges an open of `path` (absolute, normalized, as seen in the
// jail); returns an empty string to allow, else "rule\treason".
using TraceCheck = std::function<std::string(const std::string& path, bool write)>;

class NotifyHandler {
 public:
  NotifyHandler(const BpfProgram& enforcing, EventSink* sink);
  void set_trace(TraceCheck check) { trace_ = std::move(check); }
  // Without a mount namespace: chmod-family calls are performed by `guard`.
  void set_metadata_guard(const MetadataGuard* guard) { metadata_guard_ = guard; }
  // Without a PID namespace or Landlock signal scoping: signal calls are let
  // through only when `guard` finds their target in the session.
  void set_signal_guard(const SignalGuard* guard) { signal_guard_ = guard; }
  void set_terminal_guard(const TerminalGuard* guard) { terminal_guard_ = guard; }

  // Takes the listener received from the child.
  void attach(UniqueFd listener);
  int fd() const { return listener_.get(); }
  // Handles one pending notification; false when the listener is dead.
  bool handle_one();

  std::uint64_t handled() const { return handled_; }

 private:
  const BpfProgram& enforcing_;
  EventSink* sink_;
  UniqueFd listener_;
  UniqueFd proc_fd_;  // /proc
  UniqueFd root_fd_;  // the jail's root, from the first exec's /proc/PID/root
  std::vector<char> req_buf_, resp_buf_;
  std::uint64_t handled_ = 0;
  TraceCheck trace_;
  const MetadataGuard* metadata_guard_ = nullptr;
  const SignalGuard* signal_guard_ = nullptr;
  const TerminalGuard* terminal_guard_ = nullptr;

  // Fills the answer to a call whose path or argv ("what", at addr) the
  // supervisor cannot read whole (EFAULT) and records the refusal.
  void refuse_unreadable(int pid, int nr, const char* what, std::uint64_t addr, void* resp);
  // Whether an exec of *path (relative to dirfd) may run, i.e. is worth an
  // event (see may_exist_in_jail); a path relative to a descriptor is made
  // absolute in *path.
  bool exec_may_run(int pid, int dirfd, std::string* path);
  // The jail's root (every process in it shares one: chroot is refused by
  // default), opened through pid's /proc entry the first time; -1 if that fails.
  int jail_root(int pid);
  // Sends a filled seccomp_notif_resp; false when the listener is dead.
  bool send(void* resp);
  // Answers a traced open: EACCES (and an fs.deny event) or continue.
  void trace_open(int pid, int nr, const std::uint64_t args[6], void* resp);
  // Performs a chmod-family call through metadata_guard_ and answers with its result.
  void metadata_call(int pid, int nr, const std::uint64_t args[6], void* resp);
};

// The syscall numbers trace mode notifies.
std::vector<int> traced_open_syscalls();

// Decodes the arguments worth showing for a refused syscall (pure).
std::string describe_syscall_args(const std::string& name, const std::uint64_t args[6]);

}  // namespace aj
