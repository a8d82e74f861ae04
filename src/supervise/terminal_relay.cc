#include "supervise/terminal_relay.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <algorithm>

#include "base/log.h"

namespace aj {
namespace {

// Per direction: the jail writing faster than the terminal shows (or the
// user pasting faster than the command reads) waits in the kernel's buffers,
// not in ours.
constexpr std::size_t kBufferCap = 64 * 1024;
constexpr int kFinishWaitMs = 1000;  // per chunk, for a terminal on ^S
constexpr long kForegroundPollMs = 200;

enum class Io { kMoved, kWouldBlock, kClosed };

// Appends what `fd` has, up to the cap.
Io read_into(int fd, std::string* buf) {
  char chunk[16 * 1024];
  while (buf->size() < kBufferCap) {
    const ssize_t n = ::read(fd, chunk, std::min(sizeof chunk, kBufferCap - buf->size()));
    if (n > 0) {
      buf->append(chunk, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && errno == EAGAIN ? Io::kWouldBlock : Io::kClosed;
  }
  return Io::kMoved;
}

// Writes what it can of *buf to `fd`, dropping what was written.
Io write_from(int fd, std::string* buf) {
  while (!buf->empty()) {
    const ssize_t n = ::write(fd, buf->data(), buf->size());
    if (n > 0) {
      buf->erase(0, static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && errno == EAGAIN ? Io::kWouldBlock : Io::kClosed;
  }
  return Io::kMoved;
}

}  // namespace

TerminalRelay::TerminalRelay(UniqueFd master, bool relay_input)
    : master_(std::move(master)), relay_input_(relay_input) {}

TerminalRelay::~TerminalRelay() { suspend(); }

Result<void> TerminalRelay::start() {
  // Files of our own on the terminal: O_NONBLOCK on the user's would reach
  // the shell and every job sharing them.
  out_.reset(::open("/dev/tty", O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
  if (!out_) return sys_error("open", "/dev/tty", errno);
  if (relay_input_) {
    in_.reset(::open("/dev/tty", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC));
    if (!in_) return sys_error("open", "/dev/tty", errno);
  }
  epoll_.reset(::epoll_create1(EPOLL_CLOEXEC));
  if (!epoll_) return sys_error("epoll_create1", "", errno);
  poll_timer_.reset(::timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK));
  if (!poll_timer_) return sys_error("timerfd_create", "", errno);
  for (int fd : {master_.get(), out_.get(), in_.get(), poll_timer_.get()}) {
    if (fd < 0) continue;
    struct epoll_event ev = {};
    ev.events = fd == poll_timer_.get() ? static_cast<std::uint32_t>(EPOLLIN) : 0U;
    ev.data.fd = fd;
    if (::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &ev) != 0)
      return sys_error("epoll_ctl", "terminal", errno);
  }
  resume();
  return {};
}

bool TerminalRelay::foreground() const {
  return terminal_ok_ && ::tcgetpgrp(out_.get()) == ::getpgrp();
}

void TerminalRelay::on_ready() {
  // Level-triggered: what is ready is found by trying, without blocking.
  struct epoll_event ev[4];
  const int n = ::epoll_wait(epoll_.get(), ev, 4, 0);
  // A hung-up terminal reports EPOLLHUP whatever is asked for, until it is
  // unwatched: found here, not by a read or write that may not come.
  for (int i = 0; i < n; ++i)
    if ((ev[i].events & (EPOLLHUP | EPOLLERR)) && ev[i].data.fd != master_.get() &&
        ev[i].data.fd != poll_timer_.get())
      terminal_gone();
  std::uint64_t ticks;
  if (::read(poll_timer_.get(), &ticks, sizeof ticks) > 0) {
    // In the background no SIGWINCH reaches us: the size is looked at too.
    if (foreground())
      resume();
    else
      window_changed();
  }
  pump_output();
  pump_input();
  update_interest();
}

// Returns whether the jail's terminal may hold more (the read stopped at
// our cap, not at its end).
bool TerminalRelay::pump_output() {
  Io read = Io::kWouldBlock;
  if (master_open_) read = read_into(master_.get(), &to_user_);
  if (read == Io::kClosed) {
    // No slave left open (EIO): nothing more will come.
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, master_.get(), nullptr);
    master_open_ = false;
  }
  if (!terminal_ok_) to_user_.clear();  // hung up: the output has nowhere to go
  if (write_from(out_.get(), &to_user_) == Io::kClosed) terminal_gone();
  return read == Io::kMoved;
}

void TerminalRelay::pump_input() {
  if (input_on_ && terminal_ok_) {
    // EIO: we are in the background now (SIGTTIN is ignored), or the
    // terminal hung up; either way nothing is read until resume().
    if (read_into(in_.get(), &to_jail_) == Io::kClosed) set_input(false);
  }
  if (!master_open_ || write_from(master_.get(), &to_jail_) == Io::kClosed) to_jail_.clear();
}

void TerminalRelay::watch(int fd, std::uint32_t events, std::uint32_t* current) {
  if (fd < 0 || events == *current) return;
  struct epoll_event ev = {};
  ev.events = events;
  ev.data.fd = fd;
  if (::epoll_ctl(epoll_.get(), EPOLL_CTL_MOD, fd, &ev) == 0) *current = events;
}

void TerminalRelay::update_interest() {
  constexpr std::uint32_t kIn = EPOLLIN, kOut = EPOLLOUT;
  std::uint32_t master = to_jail_.empty() ? 0 : kOut;
  if (to_user_.size() < kBufferCap) master |= kIn;
  if (master_open_) watch(master_.get(), master, &master_events_);
  if (!terminal_ok_) return;
  watch(out_.get(), to_user_.empty() ? 0 : kOut, &out_events_);
  watch(in_.get(), input_on_ && to_jail_.size() < kBufferCap ? kIn : 0, &in_events_);
}

void TerminalRelay::set_input(bool on) { input_on_ = on && relay_input_ && terminal_ok_; }

// The user's terminal hung up: unwatched, and the output has nowhere to go.
void TerminalRelay::terminal_gone() {
  if (!terminal_ok_) return;
  terminal_ok_ = false;
  input_on_ = false;
  raw_ = false;  // nothing to restore on a terminal that is gone
  log::set_raw_terminal(false);
  for (int fd : {out_.get(), in_.get()})
    if (fd >= 0) ::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, fd, nullptr);
  to_user_.clear();
}

void TerminalRelay::resume() {
  const bool foreground_now = foreground();
  if (foreground_now && relay_input_) {
    if (!raw_ && ::tcgetattr(out_.get(), &saved_) == 0) {
      struct termios raw = saved_;
      ::cfmakeraw(&raw);
      raw.c_cc[VMIN] = 1;
      raw.c_cc[VTIME] = 0;
      raw_ = ::tcsetattr(out_.get(), TCSADRAIN, &raw) == 0;
      log::set_raw_terminal(raw_);
    }
    set_input(true);
  } else {
    set_input(false);
  }
  // In the background neither SIGCONT (a shell's fg of a running job) nor
  // SIGWINCH reaches us: the terminal is looked at instead.
  poll_foreground(terminal_ok_ && !foreground_now);
  window_changed();
  update_interest();
}

void TerminalRelay::poll_foreground(bool on) {
  struct itimerspec every = {};
  if (on) {
    every.it_interval.tv_nsec = kForegroundPollMs * 1000000;
    every.it_value = every.it_interval;
  }
  ::timerfd_settime(poll_timer_.get(), 0, &every, nullptr);
}

void TerminalRelay::suspend() {
  set_input(false);
  if (poll_timer_) poll_foreground(false);
  if (raw_) ::tcsetattr(out_.get(), TCSADRAIN, &saved_);
  raw_ = false;
  log::set_raw_terminal(false);
  if (epoll_) update_interest();
}

void TerminalRelay::continue_foreground() {
  // The master reports the jail's terminal's foreground group: one of the
  // jail's session (the kernel lets a terminal's foreground be no other).
  const pid_t group = ::tcgetpgrp(master_.get());
  if (group > 0) ::kill(-group, SIGCONT);
}

void TerminalRelay::window_changed() {
  struct winsize size;
  if (terminal_ok_ && ::ioctl(out_.get(), TIOCGWINSZ, &size) == 0)
    ::ioctl(master_.get(), TIOCSWINSZ, &size);
}

void TerminalRelay::finish() {
  // Nothing of the session runs any more: what it wrote is in the jail's
  // terminal (a read waits for the kernel's pending flush) or with us.
  set_input(false);
  while (terminal_ok_) {
    const bool more = pump_output();
    if (to_user_.empty() && !more) break;
    if (to_user_.empty()) continue;
    struct pollfd p = {out_.get(), POLLOUT, 0};
    if (::poll(&p, 1, kFinishWaitMs) <= 0) break;  // a stopped terminal: give up
  }
  suspend();
}

}  // namespace aj
