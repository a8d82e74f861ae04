#include "supervise/caller_stdio.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "base/log.h"

namespace aj {
namespace {

// The terminal's foreground is a group other than agentjail's own.
bool foreground_elsewhere(int terminal) {
  const pid_t foreground = ::tcgetpgrp(terminal);
  return foreground > 0 && foreground != ::getpgrp();
}

}  // namespace

CallerStdio::CallerStdio(int terminal_fd) : terminal_(terminal_fd) {
  for (int fd = 0; fd < 3; ++fd) flags_[fd] = ::fcntl(fd, F_GETFL);
  if (terminal_ >= 0 && ::isatty(terminal_)) {
    group_ = ::tcgetpgrp(terminal_);
    have_termios_ = ::tcgetattr(terminal_, &termios_) == 0;
    background_ = foreground_elsewhere(terminal_);
  } else {
    terminal_ = -1;
  }
}

void CallerStdio::note_continued() {
  // A shell's fg hands the terminal to the job before it sends SIGCONT.
  if (terminal_ >= 0) background_ = foreground_elsewhere(terminal_);
}

// In the background, the terminal is left alone unless nobody holds it: a
// foreground group with no process left (one the command made and that
// ended with the session) is given back.
bool CallerStdio::leave_terminal_alone() const {
  if (!background_ || terminal_ < 0) return false;
  const pid_t foreground = ::tcgetpgrp(terminal_);
  if (foreground <= 0 || foreground == ::getpgrp()) return false;
  return ::kill(-foreground, 0) == 0 || errno == EPERM;
}

void CallerStdio::restore() const {
  const bool leave_terminal = leave_terminal_alone();
  for (int fd = 0; fd < 3; ++fd)
    if (flags_[fd] >= 0 && ::fcntl(fd, F_GETFL) != flags_[fd] && !(leave_terminal && ::isatty(fd)))
      ::fcntl(fd, F_SETFL, flags_[fd]);
  if ((group_ <= 0 && !have_termios_) || leave_terminal) return;
  // Changing a terminal from a background group raises SIGTTOU: ignored.
  struct sigaction ignore = {}, old = {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGTTOU, &ignore, &old);
  if (have_termios_) ::tcsetattr(terminal_, TCSANOW, &termios_);
  if (group_ > 0 && ::tcgetpgrp(terminal_) != group_ && ::tcsetpgrp(terminal_, group_) == 0)
    log::warn(
        "the command had moved the terminal's foreground to another process group; given back");
  ::sigaction(SIGTTOU, &old, nullptr);
}

}  // namespace aj
