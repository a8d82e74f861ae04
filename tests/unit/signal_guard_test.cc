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
#include <cstdio>
#include <string>

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

TEST_CASE("the terminal guard: tcsetpgrp and setpgid, never other groups of the terminal") {
  std::uint64_t set[6] = {0, TIOCSPGRP, 0, 0, 0, 0};
  std::uint64_t get[6] = {0, TIOCGPGRP, 0, 0, 0, 0};
  std::uint64_t high[6] = {0, TIOCSPGRP | (1ULL << 32), 0, 0, 0, 0};
  std::uint64_t none[6] = {};
  CHECK(TerminalGuard::handles(SYS_ioctl, set));
  CHECK(TerminalGuard::handles(SYS_ioctl, high));  // as the filter: the low 32 bits
  CHECK(TerminalGuard::handles(SYS_setpgid, none));
  CHECK_FALSE(TerminalGuard::handles(SYS_ioctl, get));
  for (std::uint64_t request :
       {TCSETS, TCSETSW, TCSETSF, TCSETA, TIOCSWINSZ, TCFLSH, TCSBRK, TIOCSSOFTCAR}) {
    std::uint64_t call[6] = {0, request, 0, 0, 0, 0};
    CAPTURE(request);
    CHECK(TerminalGuard::handles(SYS_ioctl, call));
    CHECK(TerminalGuard::terminal_request(SYS_ioctl, call) != nullptr);
  }
  for (std::uint64_t request : {TCGETS, TIOCGWINSZ, FIONREAD}) {
    std::uint64_t call[6] = {0, request, 0, 0, 0, 0};
    CAPTURE(request);
    CHECK_FALSE(TerminalGuard::handles(SYS_ioctl, call));
  }
  CHECK(std::string(TerminalGuard::terminal_request(SYS_ioctl, set)) == "TIOCSPGRP");
  CHECK_FALSE(TerminalGuard::handles(SYS_fcntl, set));

  // A session whose init is a child of ours: the child's own group is the
  // session's; ours (the test's) plays agentjail's job; pid 1's is neither.
  int fd = ::open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  pid_t init = ::fork();
  REQUIRE(init >= 0);
  if (init == 0) {
    pid_t member = ::fork();
    if (member == 0) {
      ::setpgid(0, 0);
      ::pause();
      ::_exit(0);
    }
    ::pause();
    ::_exit(0);
  }
  SignalGuard session;
  session.set_init(init);
  ::usleep(100 * 1000);
  pid_t member = 0;
  for (int i = 0; i < 50 && member == 0; ++i) {
    // The member is init's only child: found through /proc/<init>/task/<init>/children.
    FILE* f = std::fopen(
        ("/proc/" + std::to_string(init) + "/task/" + std::to_string(init) + "/children").c_str(),
        "r");
    if (f) {
      if (std::fscanf(f, "%d", &member) != 1) member = 0;
      std::fclose(f);
    }
    if (member == 0) ::usleep(20 * 1000);
  }
  REQUIRE(member > 0);
  const TerminalGuard guard(-1, ::getpgrp(), session, fd);
  CHECK(guard.ours(::getpgrp()));  // agentjail's job
  CHECK(guard.ours(member));       // a group the session made
  CHECK_FALSE(guard.ours(1));      // another live group of the host
  CHECK(guard.ours(0x3ffffff0));   // no such group: nobody else's
  std::uint64_t join_member[6] = {0, static_cast<std::uint64_t>(member), 0, 0, 0, 0};
  std::uint64_t join_init[6] = {0, 1, 0, 0, 0, 0};
  std::uint64_t own[6] = {0, 0, 0, 0, 0, 0};
  CHECK(guard.check(member, SYS_setpgid, own) == 0);
  CHECK(guard.check(member, SYS_setpgid, join_member) == 0);
  CHECK(guard.check(member, SYS_setpgid, join_init) == EPERM);
  // No shared terminal: TIOCSPGRP is about a terminal of the jail's own.
  CHECK(guard.check(member, SYS_ioctl, set) == 0);

  // A group whose leader is gone but that still holds a process outside
  // the session is not ours.
  int pipefd[2];
  REQUIRE(::pipe(pipefd) == 0);
  pid_t leader = ::fork();
  REQUIRE(leader >= 0);
  if (leader == 0) {
    ::setpgid(0, 0);
    pid_t straggler = ::fork();
    if (straggler == 0) {
      ::close(pipefd[1]);
      char c;
      (void)!::read(pipefd[0], &c, 1);  // until the test ends
      ::_exit(0);
    }
    ::_exit(0);
  }
  ::close(pipefd[0]);
  REQUIRE(::waitpid(leader, nullptr, 0) == leader);
  ::usleep(50 * 1000);
  CHECK_FALSE(guard.ours(leader));
  std::uint64_t join_leftover[6] = {0, static_cast<std::uint64_t>(leader), 0, 0, 0, 0};
  CHECK(guard.check(member, SYS_setpgid, join_leftover) == EPERM);
  ::close(pipefd[1]);  // the straggler ends
  ::kill(init, SIGKILL);
  ::kill(member, SIGKILL);
  ::waitpid(init, nullptr, 0);
  ::close(fd);
}

}  // namespace aj
