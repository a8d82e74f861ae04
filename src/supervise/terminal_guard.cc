#include "supervise/terminal_guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "base/unique_fd.h"

namespace aj {

bool TerminalGuard::handles(int nr, const std::uint64_t args[6]) {
  return (nr == SYS_ioctl && static_cast<std::uint32_t>(args[1]) == TIOCSPGRP) || nr == SYS_setpgid;
}

namespace {

// The process group of pid, from /proc/<pid>/stat ("pid (comm) state ppid
// pgrp ..."; comm may hold spaces and parentheses), or -1.
pid_t group_of(int proc_fd, const char* pid) {
  char path[64];
  std::snprintf(path, sizeof path, "%s/stat", pid);
  UniqueFd fd(::openat(proc_fd, path, O_RDONLY | O_CLOEXEC));
  if (!fd) return -1;
  char buf[512];
  const ssize_t n = ::read(fd.get(), buf, sizeof buf - 1);
  if (n <= 0) return -1;
  buf[n] = '\0';
  const char* close = std::strrchr(buf, ')');
  int ppid = 0, pgrp = -1;
  char state = 0;
  if (!close || std::sscanf(close + 1, " %c %d %d", &state, &ppid, &pgrp) != 3) return -1;
  return pgrp;
}

}  // namespace

bool TerminalGuard::ours(pid_t group) const {
  if (group == job_) return true;
  if (session_.in_session(proc_fd_, group)) return true;
  if (::kill(group, 0) == 0 || errno != ESRCH) return false;  // a leader outside
  // The leader is gone (a job that ended): the group is ours unless a
  // process outside the session is still in it.
  UniqueFd dir_fd(::openat(proc_fd_, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  DIR* dir = dir_fd ? ::fdopendir(dir_fd.get()) : nullptr;
  if (!dir) return false;
  dir_fd.release();
  bool foreign = false;
  while (const struct dirent* e = ::readdir(dir)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    if (group_of(proc_fd_, e->d_name) != group) continue;
    const auto member = static_cast<pid_t>(std::atoi(e->d_name));
    if (member != job_ && !session_.in_session(proc_fd_, member)) {
      foreign = true;
      break;
    }
  }
  ::closedir(dir);
  return !foreign;
}

int TerminalGuard::check(pid_t caller, int nr, const std::uint64_t args[6]) const {
  if (nr == SYS_setpgid) {
    const auto pid = static_cast<pid_t>(static_cast<std::int32_t>(args[0]));
    const auto group = static_cast<pid_t>(static_cast<std::int32_t>(args[1]));
    // A group of its own (0, or its own pid), or one of the session's.
    if (group == 0 || group == (pid == 0 ? caller : pid)) return 0;
    return group > 0 && ours(group) ? 0 : EPERM;
  }
  // No terminal shared with the command: the call is about a terminal of
  // the jail's own (a pty it made), or fails in the kernel.
  const pid_t foreground = terminal_fd_ < 0 ? -1 : ::tcgetpgrp(terminal_fd_);
  if (foreground <= 0) return 0;
  return ours(foreground) ? 0 : EPERM;
}

}  // namespace aj
