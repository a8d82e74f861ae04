// Where a path leads in the jail, looked up from outside through its root
// directory: here a scratch directory stands in for the jail's root.
#include "supervise/jail_path.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "base/unique_fd.h"
#include "scratch_dir.h"

namespace aj {
namespace {

struct FakeJail {
  ScratchDir scratch{"aj-jail-path"};
  const std::string& dir = scratch.path;
  UniqueFd root;
  FakeJail() {
    for (const char* d :
         {"/usr", "/usr/bin", "/usr/lib", "/home", "/home/u", "/home/u/.ssh", "/tmp"})
      REQUIRE(::mkdir((dir + d).c_str(), 0755) == 0);
    int fd = ::open((dir + "/usr/bin/tool").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0755);
    REQUIRE(fd >= 0);
    ::close(fd);
    link("/home/u/.ssh/id_rsa", "/tmp/key");  // absolute, dangling
    link("../usr/bin", "/tmp/bin");           // relative, to a directory
    link("/tmp/loop", "/tmp/loop");
    link("../../../../../etc/shadow", "/tmp/up");  // ".." stops at the root
    link("usr/lib", "/lib");
    link("/tmp/key", "/tmp/key2");  // a link to a link
    root.reset(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    REQUIRE(root.valid());
  }
  void link(const std::string& to, const std::string& at) {
    REQUIRE(::symlink(to.c_str(), (dir + at).c_str()) == 0);
  }
  std::string resolve(const std::string& path, bool follow_last = true) {
    return resolve_in_jail(root.get(), path, follow_last);
  }
};

TEST_CASE("resolve_in_jail: a path without links is itself, whether it exists or not") {
  FakeJail j;
  CHECK(j.resolve("/usr/bin/tool") == "/usr/bin/tool");
  CHECK(j.resolve("/usr/bin") == "/usr/bin");
  CHECK(j.resolve("/") == "/");
  CHECK(j.resolve("/nowhere/at/all") == "/nowhere/at/all");
}

TEST_CASE("resolve_in_jail: links are followed inside the jail's root") {
  FakeJail j;
  CHECK(j.resolve("/tmp/key") == "/home/u/.ssh/id_rsa");
  CHECK(j.resolve("/tmp/key2") == "/home/u/.ssh/id_rsa");
  CHECK(j.resolve("/tmp/bin/tool") == "/usr/bin/tool");
  CHECK(j.resolve("/tmp/bin") == "/usr/bin");
  CHECK(j.resolve("/lib/x86_64-linux-gnu/libc.so.6") == "/usr/lib/x86_64-linux-gnu/libc.so.6");
  CHECK(j.resolve("/tmp/up") == "/etc/shadow");
}

TEST_CASE("resolve_in_jail: '..' after a link climbs from where the link leads") {
  FakeJail j;
  CHECK(j.resolve("/tmp/bin/../lib") == "/usr/lib");  // by name it would be /tmp/lib
  CHECK(j.resolve("/tmp/bin/../../home/u/.ssh/id_rsa") == "/home/u/.ssh/id_rsa");
  CHECK(j.resolve("/usr/bin/../lib") == "/usr/lib");  // no link: as by name
  CHECK(j.resolve("/usr//bin/./tool") == "/usr/bin/tool");
}

TEST_CASE("resolve_in_jail: without follow_last the last link is the name itself") {
  FakeJail j;
  CHECK(j.resolve("/tmp/key", false) == "/tmp/key");
  CHECK(j.resolve("/tmp/bin/tool", false) == "/usr/bin/tool");  // only the last is kept
}

TEST_CASE("resolve_in_jail: a loop, or a relative path, cannot be worked out") {
  FakeJail j;
  CHECK(j.resolve("/tmp/loop") == "");
  CHECK(j.resolve("/tmp/loop/x") == "");
  CHECK(j.resolve("tmp/key") == "");
}

}  // namespace
}  // namespace aj

namespace aj {
namespace {

TEST_CASE("through_proc_links: /proc's root and cwd links of the jail's processes") {
  int asked = 0;
  auto cwd = [&] {
    ++asked;
    return std::string("/work/ws");
  };
  CHECK(through_proc_links("/proc/self/root/home/u/.ssh/id_rsa", cwd) == "/home/u/.ssh/id_rsa");
  CHECK(through_proc_links("/proc/thread-self/root/etc", cwd) == "/etc");
  CHECK(through_proc_links("/proc/42/root/tmp/../etc", cwd) == "/tmp/../etc");
  CHECK(through_proc_links("/proc/self/root", cwd) == "/");
  CHECK(asked == 0);
  CHECK(through_proc_links("/proc/self/cwd/.env", cwd) == "/work/ws/.env");
  CHECK(asked == 1);
}

TEST_CASE("through_proc_links: every other path is left as it is") {
  auto cwd = [] { return std::string("/work/ws"); };
  for (const char* p :
       {"/proc/self/fd/3", "/proc/42/cwd/x", "/proc/self/rootx/y", "/proc/self", "/proc/abc/root/x",
        "/procx/self/root/y", "/home/u/proc/self/root/x", "/proc/cpuinfo"})
    CHECK(through_proc_links(p, cwd) == p);
  CHECK(through_proc_links("/proc/self/cwd/x", [] { return std::string(); }) == "/proc/self/cwd/x");
}

}  // namespace
}  // namespace aj

namespace aj {

TEST_CASE("proc_self_as names the thread's own process where /proc/self would name the looker") {
  const int pid = ::getpid();
  CHECK(proc_self_as("/proc/self/fd/3", pid) == fmt::format("/proc/{}/fd/3", pid));
  CHECK(proc_self_as("/proc/self", pid) == fmt::format("/proc/{}", pid));
  CHECK(proc_self_as("/proc/thread-self/fd/1", pid) == fmt::format("/proc/{0}/task/{0}/fd/1", pid));
  for (const char* other : {"/proc/selfish/fd/3", "/proc/1/fd/3", "/etc/self", "proc/self/fd"}) {
    CAPTURE(other);
    CHECK(proc_self_as(other, pid) == other);
  }
}

TEST_CASE("resolve_in_jail: /proc/self reached through a link is the caller's, not the looker's") {
  // The caller: another process holding a scratch directory on fd 50, which
  // the looker (this process) does not have.
  ScratchDir dir{"aj-proc-self"};
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t caller = ::fork();
  REQUIRE(caller >= 0);
  if (caller == 0) {
    const int fd = ::open(dir.path.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0 || ::dup2(fd, 50) != 50) ::_exit(1);
    if (::write(ready[1], "x", 1) != 1) ::_exit(1);
    ::pause();
    ::_exit(0);
  }
  ::close(ready[1]);
  char byte;
  REQUIRE(::read(ready[0], &byte, 1) == 1);
  ::close(ready[0]);
  REQUIRE(::fcntl(50, F_GETFD) == -1);
  UniqueFd root(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
  const std::string want = dir.path + "/secret";
  CHECK(resolve_in_jail(root.get(), "/dev/fd/50/secret", true, caller) == want);
  CHECK(resolve_in_jail(root.get(), "/proc/self/fd/50/secret", true, caller) == want);
  CHECK(resolve_in_jail(root.get(), "/proc/thread-self/fd/50/secret", true, caller) == want);
  bool through_proc = false;
  CHECK(resolve_in_jail(root.get(), "/dev/fd/50/secret", true, caller, &through_proc) == want);
  CHECK(through_proc);
  // The way through /proc: an exec of it is taken as possible (and recorded).
  CHECK(may_exist_in_jail(root.get(), "/dev/fd/50/secret", caller));
  CHECK_FALSE(may_exist_in_jail(root.get(), want, caller));
  // Without a caller, self stays the looker's: its fd 50 does not exist.
  CHECK(resolve_in_jail(root.get(), "/dev/fd/50/secret", true) ==
        fmt::format("/proc/{}/fd/50/secret", ::getpid()));
  ::kill(caller, SIGKILL);
  ::waitpid(caller, nullptr, 0);
}

}  // namespace aj
