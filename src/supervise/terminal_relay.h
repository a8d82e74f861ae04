// The jail's own terminal, relayed. With a controlling terminal the jail gets
// a new pseudo-terminal instead of the user's (sys/pty.h), and the supervisor
// copies between the two: the command's output always, what the user types
// only while agentjail is the terminal's foreground job, as `sudo` does with
// use_pty. No process of the jail holds the user's terminal, so none can
// read what is typed for another program (after ^Z and bg, or from a session
// of its own, where the kernel's job control does not reach), nor change the
// terminal under another job.
//
// While relaying input the user's terminal is in raw mode: ^C, ^Z and the
// rest reach the jail's terminal as bytes, and its own settings (the
// command's) decide what they mean.
#pragma once

#include <termios.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "base/error.h"
#include "base/unique_fd.h"

namespace aj {

class TerminalRelay {
 public:
  // master: the jail's terminal's master; relay_input: the command's stdin
  // is the user's terminal (else what is typed stays the user's).
  TerminalRelay(UniqueFd master, bool relay_input);
  TerminalRelay(const TerminalRelay&) = delete;
  TerminalRelay& operator=(const TerminalRelay&) = delete;
  ~TerminalRelay();

  // Opens files of our own on the controlling terminal (so that O_NONBLOCK
  // stays ours) and starts as resume() does.
  Result<void> start();

  // Readable when the relay has work: the supervisor's loop watches it and
  // calls on_ready().
  int fd() const { return epoll_.get(); }
  void on_ready();

  // After SIGCONT (and at the start): in the foreground, the terminal goes
  // raw and what is typed is relayed; in the background, output only, and
  // the terminal's foreground and size are looked at every 200 ms: a
  // shell's fg of a running job hands it the terminal without a SIGCONT,
  // and SIGWINCH goes to the foreground job only.
  void resume();
  // Before agentjail stops: the user's settings back, nothing read.
  void suspend();
  // SIGCONT to the foreground process group of the jail's terminal.
  void continue_foreground();
  // SIGWINCH: the user's window size to the jail's terminal (whose
  // foreground then gets SIGWINCH from the kernel).
  void window_changed();
  // The session has ended: what the command wrote is shown, then the
  // user's settings are given back.
  void finish();

 private:
  bool foreground() const;
  void set_input(bool on);
  bool pump_output();
  void pump_input();
  void update_interest();
  void watch(int fd, std::uint32_t events, std::uint32_t* current);
  void terminal_gone();
  void poll_foreground(bool on);

  UniqueFd master_, in_, out_, epoll_, poll_timer_;
  bool relay_input_ = false;
  bool input_on_ = false;
  bool terminal_ok_ = true;  // false once the user's terminal hung up
  bool master_open_ = true;  // false once no slave is left (EIO)
  bool raw_ = false;
  struct termios saved_ = {};  // the user's settings, while raw_
  std::string to_user_, to_jail_;
  std::uint32_t master_events_ = 0, in_events_ = 0, out_events_ = 0;
};

}  // namespace aj
