#include "supervise/supervisor.h"

#include <errno.h>
#include <fmt/format.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <ctime>

#include "base/log.h"
#include "base/unique_fd.h"

namespace aj {
namespace {

constexpr std::uint64_t kEscalateWindowMs = 3000;

int send_signal(int pidfd, int sig) {
  return static_cast<int>(::syscall(SYS_pidfd_send_signal, pidfd, sig, nullptr, 0));
}

std::uint64_t now_ms() {
  struct timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000 +
         static_cast<std::uint64_t>(ts.tv_nsec) / 1000000;
}

void arm(int timerfd, std::uint64_t ms) {
  struct itimerspec its = {};
  its.it_value.tv_sec = static_cast<time_t>(ms / 1000);
  its.it_value.tv_nsec = static_cast<long>((ms % 1000) * 1000000);
  if (ms == 0) its.it_value.tv_nsec = 1;
  ::timerfd_settime(timerfd, 0, &its, nullptr);
}

// Whether a shell with job control is above us, to continue us once we
// stop: our parent is in our session but another process group (our group
// is not orphaned).
bool job_control_above() {
  const pid_t parent = ::getppid();
  return parent > 1 && ::getsid(parent) == ::getsid(0) && ::getpgid(parent) != ::getpgrp();
}

class Loop {
 public:
  explicit Loop(const SuperviseOptions& o) : o_(o) {}

  SuperviseResult run() {
    epoll_.reset(::epoll_create1(EPOLL_CLOEXEC));
    sigset_t set = supervised_signals();
    sigfd_.reset(::signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK));
    timer_.reset(::timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK));
    stop_timer_.reset(::timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK));
    watch(o_.pidfd, kPid);
    watch(o_.status_fd, kStatus);
    watch(sigfd_.get(), kSignal);
    watch(timer_.get(), kTimer);
    watch(stop_timer_.get(), kStopTimer);
    if (o_.timeout_ms) arm(timer_.get(), *o_.timeout_ms);
    if (o_.relay) watch(o_.relay->fd(), kRelay);

    while (!init_done_) {
      struct epoll_event ev[8];
      int n = ::epoll_wait(epoll_.get(), ev, 8, -1);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      for (int i = 0; i < n; ++i) dispatch(static_cast<int>(ev[i].data.u32), ev[i].events);
      // Once per round, not per report: a command that stops itself over
      // and over must not keep the loop from its timers.
      if (stop_requested_) {
        stop_requested_ = false;
        stop_with_command();
      }
      if (o_.sink && !o_.sink->healthy() && !journal_stop_) {
        // journal.required: no unrecorded session.
        journal_stop_ = true;
        result_.journal_failed = true;
        send_signal(o_.pidfd, SIGKILL);
      }
    }
    drain_reports();
    return result_;
  }

 private:
  enum Source { kPid, kStatus, kSignal, kTimer, kStopTimer, kNotify, kRelay };

  void watch(int fd, Source src) {
    struct epoll_event ev = {};
    ev.events = EPOLLIN;
    ev.data.u32 = src;
    ::epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, fd, &ev);
  }

  void dispatch(int src, std::uint32_t events) {
    switch (src) {
      case kPid: on_init_exit(); break;
      case kStatus: drain_reports(); break;
      case kSignal: on_signal(); break;
      case kTimer: on_timer(); break;
      case kStopTimer: on_stop_grace_over(); break;
      case kRelay: o_.relay->on_ready(); break;
      case kNotify:
        // EPOLLHUP: no task uses the filter any more; stop watching, or the
        // loop would spin until the init has gone.
        if ((events & EPOLLIN) && o_.notify->handle_one()) break;
        if (events & (EPOLLHUP | EPOLLERR) || !(events & EPOLLIN))
          ::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, o_.notify->fd(), nullptr);
        break;
    }
  }

  void on_init_exit() {
    siginfo_t info = {};
    if (::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(o_.pidfd), &info, WEXITED) ==
        0) {
      result_.init_wait_status =
          info.si_code == CLD_EXITED ? (info.si_status & 0xff) << 8 : (info.si_status & 0x7f);
    }
    init_done_ = true;
  }

  // One report; a kListener report carries the seccomp listener fd.
  ssize_t receive(ChildReport* r, UniqueFd* fd) {
    struct iovec iov = {r, sizeof *r};
    alignas(struct cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    struct msghdr msg = {};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n = ::recvmsg(o_.status_fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    for (struct cmsghdr* c = CMSG_FIRSTHDR(&msg); n > 0 && c; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
        int got;
        std::memcpy(&got, CMSG_DATA(c), sizeof got);
        fd->reset(got);
      }
    }
    return n;
  }

  void drain_reports() {
    while (true) {
      ChildReport r;
      UniqueFd fd;
      ssize_t n = receive(&r, &fd);
      if (n < 0 && errno == EINTR) continue;
      if (n != static_cast<ssize_t>(sizeof r)) {
        if (n == 0) {  // every child end closed: stop watching
          ::epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, o_.status_fd, nullptr);
        }
        return;
      }
      if (r.type == ReportType::kError && !result_.failure) result_.failure = r;
      if (r.type == ReportType::kStopped && o_.relay) stop_requested_ = true;
      if (r.type == ReportType::kExited) {
        // What the command wrote is shown before anything we say.
        if (o_.relay) o_.relay->finish();
        result_.command_wait_status = r.wait_status;
        if (o_.on_command_exit) o_.on_command_exit(result_);
      }
      if (r.type == ReportType::kListener && fd && o_.notify) {
        o_.notify->attach(std::move(fd));
        watch(o_.notify->fd(), kNotify);
      }
    }
  }

  void on_signal() {
    struct signalfd_siginfo si;
    while (::read(sigfd_.get(), &si, sizeof si) == static_cast<ssize_t>(sizeof si)) {
      int sig = static_cast<int>(si.ssi_signo);
      // ^Z (or a stop asked of us): the whole session stops with us, so that
      // none of its processes (one ignoring SIGTSTP, one in a group of its
      // own) reads the terminal while the job is stopped; SIGCONT (fg, bg)
      // lets them all go on.
      if (sig == SIGTSTP) {
        if (o_.signal_session) o_.signal_session(SIGSTOP);
        if (o_.relay) o_.relay->suspend();
        ::kill(::getpid(), SIGSTOP);
        continue;
      }
      if (sig == SIGCONT) {
        if (o_.signal_session) o_.signal_session(SIGCONT);
        if (o_.relay) o_.relay->resume();
        continue;
      }
      if (sig == SIGWINCH) {
        if (o_.relay) o_.relay->window_changed();
        continue;
      }
      // A shared terminal's ^C already reached the command (same process
      // group); with a terminal of its own, the command's is another one.
      if (si.ssi_code == SI_KERNEL && !o_.relay) continue;
      bool stopping = sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
      std::uint64_t t = now_ms();
      // The signal first, the words after: a write to the terminal can block.
      if (stopping && last_stop_ms_ && t - last_stop_ms_ < kEscalateWindowMs) {
        send_signal(o_.pidfd, SIGKILL);
        log::warn("second stop signal: killing the session");
        if (o_.sink) o_.sink->signal_forwarded(SIGKILL, true);
        continue;
      }
      // The first stop signal starts the grace period: a command that
      // ignores it is killed when the period ends, as by a second one.
      if (stopping && !last_stop_ms_) arm(stop_timer_.get(), o_.grace_ms);
      if (stopping) last_stop_ms_ = t;
      send_signal(o_.pidfd, sig);
      if (o_.sink) o_.sink->signal_forwarded(sig, false);
    }
  }

  // The command stopped (^Z on the jail's own terminal, or any stop signal):
  // the rest of the session stops with it, the user's terminal gets its
  // settings back, and agentjail stops as a job does (SIGTSTP: not in an
  // orphaned process group, where nobody could continue it). Whoever
  // continues us (fg, bg) continues the session.
  void stop_with_command() {
    if (!job_control_above()) {
      // Nobody could continue us (an orphaned process group: no shell with
      // job control above): the kernel drops a ^Z typed there, and the
      // command's stop is undone likewise.
      o_.relay->continue_foreground();
      return;
    }
    if (o_.signal_session) o_.signal_session(SIGSTOP);
    o_.relay->suspend();
    sigset_t tstp;
    sigemptyset(&tstp);
    sigaddset(&tstp, SIGTSTP);
    ::kill(::getpid(), SIGTSTP);
    ::sigprocmask(SIG_UNBLOCK, &tstp, nullptr);  // stops here, until SIGCONT
    ::sigprocmask(SIG_BLOCK, &tstp, nullptr);
    if (o_.signal_session) o_.signal_session(SIGCONT);
    o_.relay->resume();
  }

  void on_stop_grace_over() {
    std::uint64_t expirations;
    if (::read(stop_timer_.get(), &expirations, sizeof expirations) < 0) return;
    send_signal(o_.pidfd, SIGKILL);
    log::warn("the session did not end within {} ms of the stop signal: killing it", o_.grace_ms);
    if (o_.sink) o_.sink->signal_forwarded(SIGKILL, true);
  }

  void on_timer() {
    std::uint64_t expirations;
    if (::read(timer_.get(), &expirations, sizeof expirations) < 0) return;
    if (!result_.timed_out) {
      result_.timed_out = true;
      send_signal(o_.pidfd, SIGTERM);
      arm(timer_.get(), o_.grace_ms);
      log::warn("wall-clock limit reached: sending SIGTERM");
      if (o_.sink) o_.sink->limit_hit("wall_time", fmt::format("{}ms", o_.timeout_ms.value_or(0)));
    } else {
      send_signal(o_.pidfd, SIGKILL);
    }
  }

  const SuperviseOptions& o_;
  UniqueFd epoll_, sigfd_, timer_, stop_timer_;
  SuperviseResult result_;
  bool init_done_ = false;
  bool journal_stop_ = false;
  bool stop_requested_ = false;  // the command was stopped by ^Z
  std::uint64_t last_stop_ms_ = 0;
};

}  // namespace

sigset_t supervised_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGTSTP, SIGCONT, SIGWINCH})
    sigaddset(&set, sig);
  return set;
}

SuperviseResult supervise(const SuperviseOptions& options) { return Loop(options).run(); }

}  // namespace aj
