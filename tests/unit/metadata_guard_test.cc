// The metadata guard performs calls for this very process (its own /proc entry
// stands in for the jail's), in a scratch tree: what lies in a writable grant
// changes mode, what does not (by name, through a link, through a
// descriptor) is refused and keeps its mode.
#include "supervise/metadata_guard.h"

#include <doctest/doctest.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "plan/landlock_plan.h"

namespace aj {
namespace {

namespace fs = std::filesystem;

struct Scratch {
  fs::path root;
  Scratch() {
    char tmpl[] = "/tmp/aj-mode-guard-XXXXXX";
    REQUIRE(mkdtemp(tmpl) != nullptr);
    root = tmpl;
    fs::create_directories(root / "ws");
    fs::create_directories(root / "outside");
    touch(root / "ws" / "mine", 0644);
    touch(root / "outside" / "theirs", 0600);
    fs::create_symlink(root / "outside" / "theirs", root / "ws" / "link");
  }
  ~Scratch() { fs::remove_all(root); }
  static void touch(const fs::path& p, mode_t mode) {
    const int fd = ::open(p.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, mode);
    REQUIRE(fd >= 0);
    ::fchmod(fd, mode);
    ::close(fd);
  }
};

mode_t mode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

const auto at_fdcwd = static_cast<std::uint64_t>(static_cast<std::int64_t>(AT_FDCWD));

// The guard performs call nr (arguments a0..a3) for this process.
MetadataCall call(const MetadataGuard& g, int nr, std::uint64_t a0, std::uint64_t a1,
                  std::uint64_t a2, const std::string& path, std::uint64_t a3 = 0) {
  const int proc = ::open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
  const std::uint64_t args[6] = {a0, a1, a2, a3, 0, 0};
  MetadataCall out = g.perform(proc, ::getpid(), nr, args, path);
  ::close(proc);
  return out;
}

TEST_CASE("writable_grants lists the read-write paths only") {
  LandlockPlan plan;
  plan.paths = {{"/usr", 0, false, GrantKind::kRead, {}},
                {"/ws", 0, false, GrantKind::kReadWrite, {}},
                {"/dev/null", 0, false, GrantKind::kDevice, {}},
                {"/tmp/x", 0, false, GrantKind::kReadWrite, {}}};
  CHECK(writable_grants(plan) == std::vector<std::string>{"/ws", "/tmp/x"});
}

TEST_CASE("the metadata guard changes modes in a writable grant and refuses the rest") {
  Scratch s;
  const MetadataGuard guard(false, {(s.root / "ws").string()}, ::geteuid());
  const std::string mine = (s.root / "ws" / "mine").string();
  const std::string theirs = (s.root / "outside" / "theirs").string();

  MetadataCall r = call(guard, SYS_fchmodat, at_fdcwd, 0, 0600, mine);
  CHECK(r.err == 0);
  CHECK(mode_of(mine) == 0600);

  r = call(guard, SYS_fchmodat, at_fdcwd, 0, 0666, theirs);
  CHECK(r.err == EACCES);
  CHECK(r.refused);
  CHECK(r.path == theirs);
  CHECK(mode_of(theirs) == 0600);

  r = call(guard, SYS_fchmodat, at_fdcwd, 0, 0666, (s.root / "ws" / "link").string());
  CHECK(r.err == EACCES);  // where the link leads is what counts
  CHECK(mode_of(theirs) == 0600);

  const int fd = ::open(theirs.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  r = call(guard, SYS_fchmod, static_cast<std::uint64_t>(fd), 0666, 0, "");
  CHECK(r.err == EACCES);
  CHECK(mode_of(theirs) == 0600);
  ::close(fd);

  const int mine_fd = ::open(mine.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(mine_fd >= 0);
  r = call(guard, SYS_fchmod, static_cast<std::uint64_t>(mine_fd), 0640, 0, "");
  CHECK(r.err == 0);
  CHECK(mode_of(mine) == 0640);
  ::close(mine_fd);

  // A path through /proc's magic links is not followed (it would name the
  // supervisor's own descriptors).
  const int again = ::open(theirs.c_str(), O_RDONLY | O_CLOEXEC);
  r = call(guard, SYS_fchmodat, at_fdcwd, 0, 0666, "/proc/self/fd/" + std::to_string(again));
  CHECK(r.err != 0);
  CHECK(mode_of(theirs) == 0600);
  ::close(again);

  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  r = call(guard, SYS_fchmod, static_cast<std::uint64_t>(pipe_fds[0]), 0600, 0, "");
  CHECK(r.err == 0);  // the process's own pipe
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);

  r = call(guard, SYS_fchmodat, at_fdcwd, 0, 0600, (s.root / "ws" / "nope").string());
  CHECK(r.err == ENOENT);
  CHECK_FALSE(r.refused);
}

TEST_CASE(
    "the metadata guard refuses a file of another owner, as the kernel would without CAP_FOWNER") {
  Scratch s;
  const std::string mine = (s.root / "ws" / "mine").string();
  const MetadataGuard guard(false, {(s.root / "ws").string()}, ::geteuid() + 1);
  const MetadataCall r = call(guard, SYS_fchmodat, at_fdcwd, 0, 0600, mine);
  CHECK(r.err == EPERM);
  CHECK(mode_of(mine) == 0644);
}

TEST_CASE("the metadata guard makes no change once the caller stopped waiting") {
  Scratch s;
  const MetadataGuard guard(false, {(s.root / "ws").string()}, ::geteuid());
  const std::string mine = (s.root / "ws" / "mine").string();
  const int proc = ::open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
  const std::uint64_t args[6] = {at_fdcwd, 0, 0640, 0, 0, 0};
  int asked = 0;
  MetadataCall r = guard.perform(proc, ::getpid(), SYS_fchmodat, args, mine, [&asked] {
    ++asked;
    return false;  // the notification is gone: its pid may be another process
  });
  ::close(proc);
  CHECK(asked == 1);
  CHECK(r.err == ESRCH);
  CHECK(mode_of(mine) != 0640);
}

TEST_CASE("with a mount namespace the guard changes what lies on the jail's mounts") {
  // This process's own mounts stand in for the jail's: everything here is on
  // one of them, so only ownership and magic links decide.
  Scratch s;
  const MetadataGuard guard(true, {}, ::geteuid());
  const std::string theirs = (s.root / "outside" / "theirs").string();
  MetadataCall r = call(guard, SYS_fchmodat, at_fdcwd, 0, 0640, theirs);
  CHECK(r.err == 0);
  CHECK(mode_of(theirs) == 0640);
  const int fd = ::open(theirs.c_str(), O_RDONLY | O_CLOEXEC);
  r = call(guard, SYS_fchmodat, at_fdcwd, 0, 0666, "/proc/self/fd/" + std::to_string(fd));
  CHECK(r.err != 0);
  CHECK(mode_of(theirs) == 0640);
  ::close(fd);
}

TEST_CASE("the metadata guard lets the owner chown only to itself and chgrp to its groups") {
  Scratch s;
  const MetadataGuard guard(false, {(s.root / "ws").string()}, ::geteuid());
  const std::string mine = (s.root / "ws" / "mine").string();
  const std::string theirs = (s.root / "outside" / "theirs").string();
  const auto keep = static_cast<std::uint64_t>(static_cast<std::uint32_t>(-1));
  const std::uint64_t uid = ::geteuid(), gid = ::getegid();
  auto run = [&](std::uint64_t u, std::uint64_t g, const std::string& path) {
    return call(guard, SYS_fchownat, at_fdcwd, 0, u, path, g);
  };
  CHECK(run(uid, gid, mine).err == 0);              // to itself: allowed, nothing changes
  CHECK(run(keep, gid, mine).err == 0);             // chgrp to its own group
  CHECK(run(uid + 1, keep, mine).err == EPERM);     // giving it away: no CAP_CHOWN
  CHECK(run(keep, 0x7ffffff0, mine).err == EPERM);  // a group it is not in
  const MetadataCall outside = run(uid, gid, theirs);
  CHECK(outside.err == EACCES);
  CHECK(outside.refused);
  CHECK(std::string(MetadataGuard::access_of(SYS_fchownat)) == "chown");
  CHECK(std::string(MetadataGuard::access_of(SYS_fchmod)) == "chmod");
}

}  // namespace
}  // namespace aj
