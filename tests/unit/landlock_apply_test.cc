// Applies real Landlock rulesets in forked children and checks what the child
// can still do. Each child reports one errno per check through a pipe (0 = the
// operation succeeded), so a failure names the check. Tests that need a newer
// ABI than the kernel has are skipped (doctest::skip), and the first test case
// says which.
#include <doctest/doctest.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

#include "base/unique_fd.h"
#include "sys/landlock.h"
#include "sys/landlock_abi.h"

namespace aj {

namespace {

const int kAbi = landlock_abi_version();

// A temporary tree: <root>/a/file ("hello"), <root>/b/file, <root>/c/file.
struct TempTree {
  std::string root;
  TempTree() {
    char tmpl[] = "/tmp/aj-landlock-XXXXXX";
    REQUIRE(::mkdtemp(tmpl) != nullptr);
    root = tmpl;
    for (const char* d : {"/a", "/b", "/c"}) {
      REQUIRE(::mkdir((root + d).c_str(), 0755) == 0);
      UniqueFd fd(::open((root + d + "/file").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
      REQUIRE(fd.valid());
      REQUIRE(::write(fd.get(), "hello", 5) == 5);
    }
  }
  ~TempTree() {
    for (const char* f : {"/a/file", "/b/file", "/c/file", "/a/new", "/c/new"}) {
      ::unlink((root + f).c_str());
    }
    for (const char* d : {"/a", "/b", "/c", ""}) ::rmdir((root + d).c_str());
  }
  std::string operator()(const char* rel) const { return root + rel; }
};

int err_of(int rc) { return rc < 0 ? errno : 0; }

int open_err(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
  if (fd < 0) return errno;
  ::close(fd);
  return 0;
}

int connect_err(int port) {
  UniqueFd s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!s) return errno;
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_port = htons(static_cast<std::uint16_t>(port));
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return err_of(::connect(s.get(), reinterpret_cast<sockaddr*>(&sa), sizeof sa));
}

// A listening TCP socket on 127.0.0.1 with a kernel-chosen port.
struct Listener {
  UniqueFd fd;
  int port = 0;
  Listener() : fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    REQUIRE(fd.valid());
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd.get(), reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0);
    REQUIRE(::listen(fd.get(), 8) == 0);
    socklen_t len = sizeof sa;
    REQUIRE(::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&sa), &len) == 0);
    port = ntohs(sa.sin_port);
  }
};

// Runs body(results) in a forked child with no_new_privs set and returns the
// N ints it filled in. The child never returns into doctest.
template <std::size_t N, typename Body>
std::array<int, N> run_child(Body body) {
  int p[2];
  REQUIRE(::pipe2(p, O_CLOEXEC) == 0);
  UniqueFd rd(p[0]), wr(p[1]);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    std::array<int, N> out;
    out.fill(-1);
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0) body(out);
    const bool ok = ::write(wr.get(), out.data(), sizeof out) == static_cast<ssize_t>(sizeof out);
    ::_exit(ok ? 0 : 1);
  }
  wr.reset();
  std::array<int, N> out;
  out.fill(-2);
  const ssize_t n = ::read(rd.get(), out.data(), sizeof out);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(n == static_cast<ssize_t>(sizeof out));
  return out;
}

// Apply `plan` in the child; out[0] = apply's return, then the body's checks.
template <std::size_t N, typename Body>
std::array<int, N> run_sandboxed(const LandlockPlan& plan, Body body) {
  LandlockChildStorage storage;
  const LandlockChildRules rules = make_child_rules(plan, storage);
  return run_child<N>([&](std::array<int, N>& out) {
    LandlockApplyError e;
    out[0] = apply_landlock(rules, &e);
    if (out[0] == 0) body(out);
  });
}

}  // namespace

TEST_CASE("the kernel's Landlock ABI is detected") {
  CHECK(kAbi >= 0);
  MESSAGE("kernel Landlock ABI ", kAbi);
  WARN_MESSAGE(kAbi >= 1, "no Landlock: every Landlock behaviour test is skipped");
  WARN_MESSAGE(kAbi >= 4, "Landlock ABI < 4: the TCP behaviour test is skipped");
  WARN_MESSAGE(kAbi >= 6, "Landlock ABI < 6: the scoping behaviour test is skipped");
}

TEST_CASE("make_child_rules gives the child a flat view of the plan") {
  LandlockInputs in{.abi = 7, .scope_ipc = true};
  in.grants = {{"/usr", GrantKind::kExec, false, {}}, {"/opt", GrantKind::kRead, true, {}}};
  in.tcp_connect = {{443, {}}};
  const LandlockPlan plan = build_landlock_plan(in);
  LandlockChildStorage storage;
  const LandlockChildRules r = make_child_rules(plan, storage);
  CHECK(r.abi == 7);
  CHECK(r.handled_fs == plan.handled_fs);
  CHECK(r.handled_net == plan.handled_net);
  CHECK(r.scoped == plan.scoped);
  CHECK(r.dir_only_fs == plan.dir_only_fs);
  REQUIRE(r.path_count == 2);
  CHECK(std::strcmp(r.paths[1].path, "/opt") == 0);
  CHECK(r.paths[1].path == plan.paths[1].path.c_str());  // no copy: the plan must outlive
  CHECK(r.paths[1].optional);
  CHECK(r.paths[0].access == plan.paths[0].access);
  REQUIRE(r.port_count == 1);
  CHECK(r.ports[0].port == 443);
  CHECK(r.ports[0].access == landlock::kAccessNetConnectTcp);
}

TEST_CASE("rules that restrict nothing are a no-op") {
  LandlockChildStorage storage;
  LandlockApplyError e{LandlockStage::kRestrictSelf, 3, 4};
  const LandlockChildRules r = make_child_rules(build_landlock_plan({.abi = 0}), storage);
  CHECK(apply_landlock(r, &e) == 0);
  CHECK(e.stage == LandlockStage::kNone);
}

TEST_CASE("a read-only grant allows reading there and nothing else" * doctest::skip(kAbi < 1)) {
  TempTree t;
  // Every ABI up to the kernel's: a plan written for an older ABI (shorter
  // ruleset_attr, fewer handled rights) must still apply on a newer kernel.
  for (int abi = 1; abi <= std::min(kAbi, landlock::kAbiMax); ++abi) {
    CAPTURE(abi);
    LandlockInputs in{.abi = abi};
    in.grants = {{t("/a"), GrantKind::kRead, false, {}}};
    const LandlockPlan plan = build_landlock_plan(in);
    const auto r = run_sandboxed<8>(plan, [&](std::array<int, 8>& out) {
      out[1] = open_err(t("/b/file"), O_RDONLY);
      out[2] = open_err(t("/a/file"), O_RDONLY);
      out[3] = open_err(t("/a"), O_RDONLY | O_DIRECTORY);
      out[4] = open_err(t("/a/file"), O_WRONLY);
      out[5] = open_err(t("/a/new"), O_WRONLY | O_CREAT);
      out[6] = open_err("/etc/passwd", O_RDONLY);
      char buf[8] = {};
      const int fd = ::open(t("/a/file").c_str(), O_RDONLY | O_CLOEXEC);
      out[7] = fd >= 0 && ::read(fd, buf, sizeof buf) == 5 && std::memcmp(buf, "hello", 5) == 0
                   ? 0
                   : EIO;
    });
    CHECK_MESSAGE(r[0] == 0, "apply_landlock");
    CHECK_MESSAGE(r[1] == EACCES, "read outside the grant");
    CHECK_MESSAGE(r[2] == 0, "read inside the grant");
    CHECK_MESSAGE(r[3] == 0, "list the granted directory");
    CHECK_MESSAGE(r[4] == EACCES, "write inside a read-only grant");
    CHECK_MESSAGE(r[5] == EACCES, "create inside a read-only grant");
    CHECK_MESSAGE(r[6] == EACCES, "read a host file never granted");
    CHECK_MESSAGE(r[7] == 0, "content read back");
  }
  // Positive control: the same operations work without Landlock.
  CHECK(open_err(t("/b/file"), O_RDONLY) == 0);
  CHECK(open_err(t("/a/file"), O_WRONLY) == 0);
}

TEST_CASE(
    "grants on regular files drop directory-only rights; optional missing paths are "
    "skipped" *
    doctest::skip(kAbi < 1)) {
  TempTree t;
  LandlockInputs in{.abi = kAbi};
  in.grants = {
      {t("/c/file"), GrantKind::kReadWrite, false, {}},  // a file: MAKE_* etc. must go
      {t("/a/file"), GrantKind::kRead, false, {}},       // a file: READ_DIR must go
      {t("/missing"), GrantKind::kRead, true, {}},
      {"/dev/null", GrantKind::kDevice, false, {}},
  };
  const LandlockPlan plan = build_landlock_plan(in);
  const auto r = run_sandboxed<6>(plan, [&](std::array<int, 6>& out) {
    out[1] = open_err(t("/c/file"), O_WRONLY | O_TRUNC);
    out[2] = open_err(t("/c/new"), O_WRONLY | O_CREAT);
    out[3] = open_err(t("/a/file"), O_RDONLY);
    out[4] = open_err(t("/a"), O_RDONLY | O_DIRECTORY);
    out[5] = open_err("/dev/null", O_WRONLY | O_CREAT | O_TRUNC);  // `> /dev/null`
  });
  CHECK_MESSAGE(r[0] == 0, "apply_landlock (EINVAL would mean dir-only rights were kept)");
  CHECK_MESSAGE(r[1] == 0, "write the granted file");
  CHECK_MESSAGE(r[2] == EACCES, "create next to the granted file");
  CHECK_MESSAGE(r[3] == 0, "read the granted file");
  CHECK_MESSAGE(r[4] == EACCES, "list the directory of a granted file");
  CHECK_MESSAGE(r[5] == 0, "shell redirection to /dev/null");
}

TEST_CASE("a missing required path fails with its rule index and nothing is enforced" *
          doctest::skip(kAbi < 1)) {
  TempTree t;
  LandlockInputs in{.abi = kAbi};
  in.grants = {
      {t("/a"), GrantKind::kRead, false, {}},
      {t("/missing-optional"), GrantKind::kRead, true, {}},
      {t("/missing"), GrantKind::kReadWrite, false, SourceLoc{"default.toml", 14, 0}},
  };
  const LandlockPlan plan = build_landlock_plan(in);
  LandlockChildStorage storage;
  const LandlockChildRules rules = make_child_rules(plan, storage);
  const auto r = run_child<5>([&](std::array<int, 5>& out) {
    LandlockApplyError e;
    out[0] = apply_landlock(rules, &e);
    out[1] = static_cast<int>(e.stage);
    out[2] = e.index;
    out[3] = e.err;
    out[4] = open_err(t("/b/file"), O_RDONLY);  // still allowed: restrict_self never ran
  });
  CHECK(r[0] == ENOENT);
  CHECK(r[1] == static_cast<int>(LandlockStage::kOpenPath));
  CHECK(r[2] == 2);
  CHECK(r[3] == ENOENT);
  CHECK(r[4] == 0);
  const LandlockApplyError e{LandlockStage::kOpenPath, 2, ENOENT};
  CHECK(landlock_apply_error(e, plan).render() ==
        "Landlock rule 2 (read-write, default.toml:14): open '" + t("/missing") +
            "': No such file or directory");
}

TEST_CASE("TCP connect and bind are limited to the granted ports" * doctest::skip(kAbi < 4)) {
  Listener granted, other;
  for (int abi = 4; abi <= std::min(kAbi, landlock::kAbiMax); ++abi) {
    CAPTURE(abi);
    LandlockInputs in{.abi = abi};
    in.tcp_connect = {{static_cast<std::uint16_t>(granted.port), {}}};
    const LandlockPlan plan = build_landlock_plan(in);
    const auto r = run_sandboxed<4>(plan, [&](std::array<int, 4>& out) {
      out[1] = connect_err(granted.port);
      out[2] = connect_err(other.port);
      UniqueFd s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
      sockaddr_in sa{};
      sa.sin_family = AF_INET;
      sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      sa.sin_port = htons(static_cast<std::uint16_t>(other.port + 1));
      out[3] = err_of(::bind(s.get(), reinterpret_cast<sockaddr*>(&sa), sizeof sa));
    });
    CHECK_MESSAGE(r[0] == 0, "apply_landlock");
    CHECK_MESSAGE(r[1] == 0, "connect to the granted port");
    CHECK_MESSAGE(r[2] == EACCES, "connect to a listening port not granted");
    CHECK_MESSAGE(r[3] == EACCES, "bind with no bind port granted");
  }
  CHECK(connect_err(other.port) == 0);  // positive control outside Landlock
}

TEST_CASE("scoping keeps signals and abstract unix sockets inside the domain" *
          doctest::skip(kAbi < 6)) {
  // An abstract socket listening outside the sandbox (think ssh-agent, X11).
  UniqueFd srv(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  REQUIRE(srv.valid());
  sockaddr_un sa{};
  sa.sun_family = AF_UNIX;
  const std::string name = "aj-landlock-test-" + std::to_string(::getpid());
  std::memcpy(sa.sun_path + 1, name.data(), name.size());
  const auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  REQUIRE(::bind(srv.get(), reinterpret_cast<sockaddr*>(&sa), len) == 0);
  REQUIRE(::listen(srv.get(), 8) == 0);
  auto connect_abstract = [&] {
    UniqueFd c(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
    return err_of(::connect(c.get(), reinterpret_cast<const sockaddr*>(&sa), len));
  };

  LandlockInputs in{.abi = kAbi, .scope_ipc = true};
  in.grants = {{"/", GrantKind::kRead, false, {}}};  // only the scoping is under test
  const LandlockPlan plan = build_landlock_plan(in);
  LandlockChildStorage storage;
  const LandlockChildRules rules = make_child_rules(plan, storage);
  const auto r = run_child<7>([&](std::array<int, 7>& out) {
    out[0] = err_of(::kill(::getppid(), 0));  // positive controls, before Landlock
    out[1] = connect_abstract();
    LandlockApplyError e;
    out[2] = apply_landlock(rules, &e);
    out[3] = err_of(::kill(::getppid(), 0));
    out[4] = connect_abstract();
    out[5] = err_of(::kill(::getpid(), 0));
    out[6] = open_err("/etc/passwd", O_RDONLY);
  });
  CHECK_MESSAGE(r[0] == 0, "signal the parent before Landlock");
  CHECK_MESSAGE(r[1] == 0, "reach the abstract socket before Landlock");
  CHECK_MESSAGE(r[2] == 0, "apply_landlock");
  CHECK_MESSAGE(r[3] == EPERM, "signal the parent under scoping");
  CHECK_MESSAGE(r[4] == EPERM, "reach the abstract socket under scoping");
  CHECK_MESSAGE(r[5] == 0, "signal itself under scoping");
  CHECK_MESSAGE(r[6] == 0, "the '/' read grant still applies");
}

}  // namespace aj
