// Without a PID namespace and without Landlock's signal scoping (ABI < 6),
// nothing in the kernel keeps the command's signals inside its session: it
// could stop or kill any process of the user (root's: any process) by pid.
// There the supervisor is asked about every kill, tkill, tgkill,
// rt_sigqueueinfo and rt_tgsigqueueinfo, and lets through only those aimed
// at the session's own processes: descendants of the jail's init, which is
// their subreaper, so every orphan stays one. The target is an integer
// argument, so what is checked is what the kernel will use; the one gap is a
// target that dies and whose pid is reused between the check and the call.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <vector>

namespace aj {

class SignalGuard {
 public:
  void set_init(pid_t init) { init_ = init; }

  static std::vector<int> syscalls();
  static bool handles(int nr);

  // 0 when call nr (arguments as the kernel got them) may go on, else the
  // errno to answer with. proc_fd: an open /proc (see process_ids).
  int check(int proc_fd, int nr, const std::uint64_t args[6]) const;

  // Whether pid (a process or a thread) belongs to the session: the init is
  // among its ancestors.
  bool in_session(int proc_fd, pid_t pid) const;

  // Sends sig to every process of the session (not the init), looked up in
  // /proc twice, so that a child forked meanwhile is reached too.
  void signal_all(int proc_fd, int sig) const;

 private:
  pid_t init_ = 0;
};

}  // namespace aj
