// What the supervisor observes, handed to whoever records it (the journal).
// An interface so the supervisor does not depend on the journal's format.
#pragma once

#include <string>
#include <vector>

namespace aj {

// An open trace mode refuses.
struct FsDenial {
  std::string path;      // as the process named it, made absolute
  std::string leads_to;  // where its links lead, when that is what the policy refuses
  std::string access;    // "read", "write" or "chmod"
  std::string rule, reason;
  std::string layer = "supervisor (trace)";  // who refused it
};

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void exec(int pid, int ppid, const std::string& path,
                    const std::vector<std::string>& argv) = 0;
  // detail: decoded arguments ("request=TIOCSTI (0x5412)", "family=AF_PACKET (17)")
  virtual void syscall_denied(int pid, const std::string& syscall, const std::string& detail,
                              int err) = 0;
  // Trace mode: an open the policy does not allow (answered EACCES).
  virtual void fs_denied(int pid, const FsDenial& denial) = 0;
  virtual void signal_forwarded(int sig, bool escalated) = 0;
  virtual void limit_hit(const std::string& which, const std::string& value) = 0;
  // False once the record cannot be kept and the session must stop.
  virtual bool healthy() const { return true; }
  // True when an exec may not proceed until it is recorded (a required
  // journal). Otherwise the supervisor lets it go on first and records it
  // just after, which keeps the recording off the exec's critical path.
  virtual bool record_before_continue() const { return false; }
};

}  // namespace aj
