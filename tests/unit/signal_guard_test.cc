// The signal guard's session test on a real process tree: a child standing
// in for the init, and its child; and the decisions for each call.
#include "supervise/signal_guard.h"

#include <doctest/doctest.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>

#include "supervise/terminal_guard.h"

namespace aj {

TEST_CASE("signals are let through only to descendants of the init") {
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t init = ::fork();
  REQUIRE(init >= 0);
  if (init == 0) {  // the stand-in init: one child, then wait
    const pid_t member = ::fork();
    if (member == 0) {
      ::pause();
      ::_exit(0);
    }
    [[maybe_unused]] auto n = ::write(ready[1], &member, sizeof member);
    ::pause();
    ::_exit(0);
  }
  pid_t member = 0;
  REQUIRE(::read(ready[0], &member, sizeof member) == static_cast<ssize_t>(sizeof member));
  SignalGuard guard;
  guard.set_init(init);
  const int proc = ::open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(proc >= 0);
  CHECK(guard.in_session(proc, member));
  CHECK_FALSE(guard.in_session(proc, init));        // the init itself is not a target
  CHECK_FALSE(guard.in_session(proc, ::getpid()));  // the supervisor's side
  CHECK_FALSE(guard.in_session(proc, 1));
  auto args = [](std::int64_t a0) {
    static std::uint64_t a[6];
    a[0] = static_cast<std::uint64_t>(a0);
    return a;
  };
  CHECK(guard.check(proc, SYS_kill, args(member)) == 0);
  CHECK(guard.check(proc, SYS_kill, args(-member)) == 0);  // its process group
  CHECK(guard.check(proc, SYS_kill, args(::getpid())) == EPERM);
  CHECK(guard.check(proc, SYS_kill, args(-1)) == EPERM);
  CHECK(guard.check(proc, SYS_tgkill, args(member)) == 0);
  CHECK(guard.check(proc, SYS_rt_sigqueueinfo, args(::getppid())) == EPERM);
  ::kill(member, SIGKILL);
  ::kill(init, SIGKILL);
  ::waitpid(init, nullptr, 0);
  ::close(proc);
  ::close(ready[0]);
  ::close(ready[1]);
}

}  // namespace aj

namespace aj {

TEST_CASE("the terminal guard takes tcsetpgrp only, and lets it by without a shared terminal") {
  std::uint64_t set[6] = {0, TIOCSPGRP, 0, 0, 0, 0};
  std::uint64_t get[6] = {0, TIOCGPGRP, 0, 0, 0, 0};
  std::uint64_t high[6] = {0, TIOCSPGRP | (1ULL << 32), 0, 0, 0, 0};
  CHECK(TerminalGuard::handles(SYS_ioctl, set));
  CHECK(TerminalGuard::handles(SYS_ioctl, high));  // as the filter: the low 32 bits
  CHECK_FALSE(TerminalGuard::handles(SYS_ioctl, get));
  CHECK_FALSE(TerminalGuard::handles(SYS_fcntl, set));
  // No terminal: the call is about one of the jail's own, or fails anyway.
  CHECK(TerminalGuard(-1).check(::getpid()) == 0);
}

}  // namespace aj
