// What the command shares with the caller through descriptors 0-2 and may
// leave changed, given back when the session ends: the status flags of the
// open files (O_NONBLOCK, O_APPEND: the caller's next read would get EAGAIN),
// and of the terminal its settings (echo off, raw mode) and its foreground
// process group (moved, without user namespaces, to another group of the
// caller's session, where the next ^C would land).
//
// Only while agentjail is the terminal's job: run in the background (`&`,
// or ^Z then bg), the terminal belongs to whatever the user runs now, and
// resetting it would stop that job and send what is typed for it to the
// shell.
#pragma once

#include <sys/types.h>
#include <termios.h>

namespace aj {

class CallerStdio {
 public:
  // What descriptors 0-2 and the terminal (terminal_fd: the controlling
  // terminal the command shares, or -1) are now.
  explicit CallerStdio(int terminal_fd);

  // After SIGCONT: fg makes agentjail the terminal's job again, bg does not.
  void note_continued();

  void restore() const;

 private:
  bool leave_terminal_alone() const;

  int terminal_ = -1;
  int flags_[3] = {-1, -1, -1};
  pid_t group_ = -1;  // the terminal's foreground at the start
  bool have_termios_ = false;
  struct termios termios_ = {};
  bool background_ = false;  // the user runs agentjail as a background job
};

}  // namespace aj
