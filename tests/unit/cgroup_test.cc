#include "sys/cgroup.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <set>
#include <sstream>

namespace aj {
namespace {

// This machine when the module was written: a hybrid host whose v2 mount
// carries no memory/pids/cpu controller.
constexpr const char* kHybridMountinfo =
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    "39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n"
    "40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
constexpr const char* kHybridCgroup =
    "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/2a53\n2:cpuacct:/\n1:cpu:/\n0::/\n";

// A systemd v2 host with the user's session in a scope.
constexpr const char* kV2Mountinfo =
    "24 1 0:22 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 "
    "rw,nsdelegate,memory_recursiveprot\n";
constexpr const char* kScope = "/user.slice/user-1000.slice/user@1000.service/app.slice/x.scope";

class FakeFs : public CgroupFs {
 public:
  std::map<std::string, std::string> files;
  std::map<std::string, int> probe_errors;  // dir → errno
  std::vector<std::string> probed;
  pid_t pid = 4242;

  std::optional<std::string> read(const std::string& path) override {
    auto it = files.find(path);
    if (it == files.end()) return std::nullopt;
    return it->second;
  }
  int probe_create(const std::string& dir) override {
    probed.push_back(dir);
    auto it = probe_errors.find(dir);
    return it == probe_errors.end() ? 0 : it->second;
  }
  pid_t self_pid() override { return pid; }
};

FakeFs v2_host(const std::string& own, const std::string& controllers, const std::string& subtree,
               const std::string& procs) {
  FakeFs fs;
  fs.files["/proc/self/mountinfo"] = kV2Mountinfo;
  fs.files["/proc/self/cgroup"] = "0::" + own + "\n";
  const std::string dir = "/sys/fs/cgroup" + (own == "/" ? std::string() : own);
  fs.files[dir + "/cgroup.controllers"] = controllers;
  fs.files[dir + "/cgroup.subtree_control"] = subtree;
  fs.files[dir + "/cgroup.procs"] = procs;
  if (own != "/") fs.files[dir + "/cgroup.type"] = "domain\n";
  return fs;
}

}  // namespace

TEST_CASE("/proc/self/cgroup lines parse into hierarchy, controllers and path") {
  const auto e = parse_proc_cgroup(
      "12:cpu,cpuacct:/a/b\n1:name=systemd:/user.slice\n0::/x:y/z\ngarbage\n3:pids:relative\n");
  REQUIRE(e.size() == 3);
  CHECK(e[0] == ProcCgroupEntry{12, {"cpu", "cpuacct"}, "/a/b"});
  CHECK(e[1] == ProcCgroupEntry{1, {"name=systemd"}, "/user.slice"});
  CHECK(e[2] == ProcCgroupEntry{0, {}, "/x:y/z"});
}

TEST_CASE("cgroup mounts are found in mountinfo, with escapes, options and controllers") {
  const std::string text = std::string(kHybridMountinfo) +
                           "50 31 0:40 /sub /mnt/my\\040cg ro,relatime shared:3 master:1 - "
                           "cgroup cgroup rw,cpu,cpuacct\n"
                           "51 1 0:41 / /proc rw - proc proc rw\n";
  const auto m = parse_cgroup_mounts(text);
  REQUIRE(m.size() == 7);
  CHECK(m[0] == CgroupMount{"/", "/sys/fs/cgroup/cpu", false, false, {"cpu"}});
  CHECK(m[4] == CgroupMount{"/", "/sys/fs/cgroup/systemd", false, false, {"name=systemd"}});
  CHECK(m[5] == CgroupMount{"/", "/sys/fs/cgroup/unified", true, false, {}});
  CHECK(m[6] == CgroupMount{"/sub", "/mnt/my cg", false, true, {"cpu", "cpuacct"}});
  const auto v2 = parse_cgroup_mounts(kV2Mountinfo);
  REQUIRE(v2.size() == 1);
  CHECK(v2[0] == CgroupMount{"/", "/sys/fs/cgroup", true, false, {}});
}

TEST_CASE("our group's directory accounts for the part of the hierarchy a mount shows") {
  struct Row {
    const char* root;
    const char* own;
    const char* dir;
  };
  const Row rows[] = {
      {"/", "/", "/m"},        {"/", "/a/b", "/m/a/b"}, {"/a", "/a/b", "/m/b"}, {"/a", "/a", "/m"},
      {"/a/", "/a/b", "/m/b"}, {"/a", "/ab", ""},       {"/a/b", "/a", ""},     {"/..", "/x", ""},
  };
  for (const Row& r : rows) {
    CAPTURE(r.root);
    CAPTURE(r.own);
    CHECK(cgroup_dir_for(CgroupMount{r.root, "/m", true, false, {}}, r.own) == r.dir);
  }
}

TEST_CASE("flat-keyed cgroup files parse into numbers, skipping anything else") {
  const auto m =
      parse_flat_keyed("low 0\nhigh 3\nmax 17\noom 1\noom_kill 1\nbad line here\nx max\n");
  CHECK(m.size() == 5);
  CHECK(m.at("max") == 17);
  CHECK(m.at("oom_kill") == 1);
  CHECK(m.count("x") == 0);
}

TEST_CASE("a hybrid host falls back to the writable v1 hierarchies") {
  FakeFs fs;
  fs.files["/proc/self/mountinfo"] = kHybridMountinfo;
  fs.files["/proc/self/cgroup"] = kHybridCgroup;
  fs.files["/sys/fs/cgroup/unified/cgroup.controllers"] = "hugetlb\n";
  fs.files["/sys/fs/cgroup/unified/cgroup.subtree_control"] = "\n";
  const CgroupSupport s = detect_cgroups(fs);
  CHECK(s.kind == CgroupSupport::Kind::kV1);
  CHECK(s.memory);
  CHECK(s.pids);
  CHECK(s.cpu);
  CHECK(s.v1_memory_base == "/sys/fs/cgroup/memory/process_api/2a53");
  CHECK(s.v1_pids_base == "/sys/fs/cgroup/pids");
  CHECK(s.v1_cpu_base == "/sys/fs/cgroup/cpu");
  CHECK(s.base == "/sys/fs/cgroup/pids");
  CHECK(s.reason.find("offers no memory, pids or cpu controller (only hugetlb)") !=
        std::string::npos);
}

TEST_CASE("an unwritable v1 hierarchy is left out, with the reason") {
  FakeFs fs;
  fs.files["/proc/self/mountinfo"] = kHybridMountinfo;
  fs.files["/proc/self/cgroup"] = kHybridCgroup;
  fs.probe_errors["/sys/fs/cgroup/pids"] = EACCES;
  fs.probe_errors["/sys/fs/cgroup/cpu"] = EROFS;
  const CgroupSupport s = detect_cgroups(fs);
  CHECK(s.kind == CgroupSupport::Kind::kV1);
  CHECK(s.memory);
  CHECK_FALSE(s.pids);
  CHECK_FALSE(s.cpu);
  CHECK(s.base == "/sys/fs/cgroup/memory/process_api/2a53");
  CHECK(s.reason.find("cannot create a group under /sys/fs/cgroup/pids: Permission denied") !=
        std::string::npos);
}

TEST_CASE("a delegated v2 group we are alone in is used after moving into a leaf") {
  FakeFs fs = v2_host(kScope, "cpuset cpu io memory pids\n", "\n", "4242\n");
  const CgroupSupport s = detect_cgroups(fs);
  CHECK(s.kind == CgroupSupport::Kind::kV2);
  CHECK(s.base == std::string("/sys/fs/cgroup") + kScope);
  CHECK((s.memory && s.pids && s.cpu));
  CHECK(s.v2_enable == std::vector<std::string>{"memory", "pids", "cpu"});
  CHECK(s.v2_move_self);
  CHECK(s.reason.empty());
  // v2 served everything: no v1 probing, no directories created there.
  CHECK(fs.probed == std::vector<std::string>{s.base});
}

TEST_CASE("v2 controllers already delegated need no move; a missing one is reported") {
  FakeFs fs = v2_host(kScope, "memory pids\n", "memory pids\n", "4242\n99\n");
  const CgroupSupport s = detect_cgroups(fs);
  CHECK(s.kind == CgroupSupport::Kind::kV2);
  CHECK((s.memory && s.pids));
  CHECK_FALSE(s.cpu);
  CHECK(s.v2_enable.empty());
  CHECK_FALSE(s.v2_move_self);
  CHECK(s.reason.find("no cpu controller") != std::string::npos);
}

TEST_CASE("v2 controllers cannot be enabled in a group shared with other processes") {
  FakeFs fs = v2_host(kScope, "memory pids cpu\n", "pids\n", "4242\n77\n");
  const CgroupSupport s = detect_cgroups(fs);
  CHECK(s.kind == CgroupSupport::Kind::kV2);
  CHECK(s.pids);
  CHECK_FALSE(s.memory);
  CHECK_FALSE(s.cpu);
  CHECK(s.v2_enable.empty());
  CHECK(s.reason.find("memory, cpu not delegated") != std::string::npos);
  CHECK(s.reason.find("Delegate=yes") != std::string::npos);
}

TEST_CASE("the v2 root group may enable controllers although it holds processes") {
  FakeFs fs = v2_host("/", "memory pids cpu\n", "\n", "1\n2\n4242\n");
  const CgroupSupport s = detect_cgroups(fs);
  CHECK(s.kind == CgroupSupport::Kind::kV2);
  CHECK((s.memory && s.pids && s.cpu));
  CHECK(s.base == "/sys/fs/cgroup");
  CHECK_FALSE(s.v2_move_self);
  CHECK(s.v2_enable.size() == 3);
}

TEST_CASE("the root of a cgroup namespace is not mistaken for the true root group") {
  FakeFs fs = v2_host("/", "memory pids cpu\n", "\n", "1\n2\n4242\n");
  fs.files["/sys/fs/cgroup/cgroup.type"] = "domain\n";  // a container's own group
  const CgroupSupport s = detect_cgroups(fs);
  CHECK(s.kind == CgroupSupport::Kind::kNone);
  CHECK(s.reason.find("holds other processes") != std::string::npos);
}

TEST_CASE("no cgroup at all is reported, never assumed") {
  FakeFs none;
  none.files["/proc/self/mountinfo"] = "22 1 0:5 / /proc rw - proc proc rw\n";
  none.files["/proc/self/cgroup"] = "0::/\n";
  CgroupSupport s = detect_cgroups(none);
  CHECK(s.kind == CgroupSupport::Kind::kNone);
  CHECK(s.reason == "no cgroup filesystem is mounted");

  FakeFs denied = v2_host(kScope, "memory pids cpu\n", "\n", "4242\n");
  denied.probe_errors[std::string("/sys/fs/cgroup") + kScope] = EACCES;
  s = detect_cgroups(denied);
  CHECK(s.kind == CgroupSupport::Kind::kNone);
  CHECK_FALSE((s.memory || s.pids || s.cpu));
  CHECK(s.reason.find("Permission denied") != std::string::npos);

  FakeFs ro;
  ro.files["/proc/self/mountinfo"] = "24 1 0:22 / /sys/fs/cgroup ro,nosuid - cgroup2 cgroup2 rw\n";
  ro.files["/proc/self/cgroup"] = "0::/\n";
  s = detect_cgroups(ro);
  CHECK(s.kind == CgroupSupport::Kind::kNone);
  CHECK(s.reason.find("read-only") != std::string::npos);
}

TEST_CASE("session ids that are not a single path component are refused") {
  CgroupSupport s;
  s.kind = CgroupSupport::Kind::kV1;
  for (const char* id : {"", "a/b", "..", ".hidden", "x\ny"}) {
    CAPTURE(id);
    CHECK_FALSE(create_session_cgroup(s, id, {}).has_value());
  }
}

// ---- on this host, when it allows ----

namespace {

const CgroupSupport& host_support() {
  static const CgroupSupport s = detect_cgroups();
  return s;
}

// Evaluated when the test is registered, so doctest reports it as skipped
// (not passed) and the reason is printed.
bool skip_unless(bool CgroupSupport::*flag, const char* what) {
  const CgroupSupport& s = host_support();
  if (s.*flag) return false;
  std::fprintf(stderr, "cgroup_test: skipping the real %s test: %s\n", what,
               s.reason.empty() ? "not available" : s.reason.c_str());
  return true;
}

std::string session_name(const char* what) {
  return std::string("unit-") + what + "-" + std::to_string(getpid());
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct BombReport {
  int enter_err;
  int ok;
  int eagain;
  int other;
};

}  // namespace

TEST_CASE("a session group's pids.max bounds a fork bomb started by root" *
          doctest::skip(skip_unless(&CgroupSupport::pids, "pids"))) {
  CgroupLimits limits;
  limits.pids_max = 20;
  auto cg = create_session_cgroup(host_support(), session_name("pids"), limits);
  REQUIRE_MESSAGE(cg.has_value(), (cg ? "" : cg.error().render()));
  const std::vector<int> fds = cg->procs_fds();
  int release[2], report[2];
  REQUIRE(pipe(release) == 0);
  REQUIRE(pipe(report) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(release[1]);
    close(report[0]);
    BombReport r{};
    r.enter_err = cgroup_enter_self(fds.data(), fds.size(), nullptr);
    for (int i = 0; r.enter_err == 0 && i < 100; ++i) {
      const pid_t p = fork();
      if (p == 0) {
        char c;
        (void)!read(release[0], &c, 1);  // until the test lets go (or kills us)
        _exit(0);
      }
      if (p > 0)
        ++r.ok;
      else if (errno == EAGAIN)
        ++r.eagain;
      else
        ++r.other;
    }
    (void)!write(report[1], &r, sizeof r);
    char c;
    (void)!read(release[0], &c, 1);
    while (wait(nullptr) > 0) {
    }
    _exit(0);
  }
  close(release[0]);
  close(report[1]);
  BombReport r{};
  const bool got = read(report[0], &r, sizeof r) == static_cast<ssize_t>(sizeof r);
  const CgroupEvents ev = read_cgroup_events(*cg);
  close(release[1]);
  int status = 0;
  waitpid(child, &status, 0);
  close(report[0]);
  const auto destroyed = destroy_session_cgroup(*cg);

  REQUIRE(got);
  CHECK(r.enter_err == 0);
  CHECK(r.ok == 19);  // the child itself is the 20th task
  CHECK(r.eagain == 81);
  CHECK(r.other == 0);
  CHECK(ev.pids_max_hits == 81);
  CHECK_MESSAGE(destroyed.has_value(), (destroyed ? "" : destroyed.error().render()));
}

TEST_CASE("a session group's memory limit stops a memory hog" *
          doctest::skip(skip_unless(&CgroupSupport::memory, "memory"))) {
  CgroupLimits limits;
  limits.memory_max = 32ull << 20;
  auto cg = create_session_cgroup(host_support(), session_name("mem"), limits);
  REQUIRE_MESSAGE(cg.has_value(), (cg ? "" : cg.error().render()));
  const std::vector<int> fds = cg->procs_fds();
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    if (cgroup_enter_self(fds.data(), fds.size(), nullptr) != 0) _exit(10);
    const size_t size = 256u << 20;
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) _exit(11);
    std::memset(p, 1, size);  // touch every page
    _exit(0);                 // survived: the limit did nothing
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  const CgroupEvents ev = read_cgroup_events(*cg);
  const auto destroyed = destroy_session_cgroup(*cg);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
  CHECK(ev.oom_kills >= 1);
  CHECK(destroyed.has_value());
}

TEST_CASE("the parent can place a child, and destroying the group kills what is left" *
          doctest::skip(skip_unless(&CgroupSupport::pids, "placement"))) {
  CgroupLimits limits;
  limits.pids_max = 50;
  const std::string name = session_name("place");
  auto cg = create_session_cgroup(host_support(), name, limits);
  REQUIRE_MESSAGE(cg.has_value(), (cg ? "" : cg.error().render()));
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    for (;;) pause();
  }
  const auto added = cgroup_add_pid(*cg, child);
  const std::string membership = read_file("/proc/" + std::to_string(child) + "/cgroup");
  std::set<std::string> dirs;
  for (const auto& g : cg->groups) dirs.insert(g.dir);
  const auto destroyed = destroy_session_cgroup(*cg);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(added.has_value());
  CHECK(membership.find("/agentjail-" + name + "\n") != std::string::npos);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
  CHECK(destroyed.has_value());
  for (const auto& d : dirs) CHECK(access(d.c_str(), F_OK) != 0);
  CHECK(cg->groups.empty());
}

TEST_CASE("a single-threaded child joins a v1 group through `tasks`, without a migration" *
          doctest::skip(skip_unless(&CgroupSupport::pids, "v1 tasks entry"))) {
  if (host_support().kind != CgroupSupport::Kind::kV1) {
    std::fprintf(stderr, "cgroup_test: skipping the v1 tasks test: this host uses cgroup v2\n");
    return;
  }
  CgroupLimits limits;
  limits.pids_max = 50;
  const std::string name = session_name("tasks");
  auto cg = create_session_cgroup(host_support(), name, limits);
  REQUIRE_MESSAGE(cg.has_value(), (cg ? "" : cg.error().render()));
  const std::vector<int> fds = cg->v1_task_fds();
  REQUIRE(fds.size() == cg->groups.size());
  CHECK(cg->v2_clone_into_fd() == -1);
  int ready[2];
  REQUIRE(pipe(ready) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const char ok = cgroup_enter_self(fds.data(), fds.size(), nullptr) == 0 ? 'y' : 'n';
    (void)!write(ready[1], &ok, 1);
    for (;;) pause();
  }
  char ok = 0;
  REQUIRE(read(ready[0], &ok, 1) == 1);
  const std::string membership = read_file("/proc/" + std::to_string(child) + "/cgroup");
  const auto destroyed = destroy_session_cgroup(*cg);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(ok == 'y');
  CHECK(membership.find("/agentjail-" + name + "\n") != std::string::npos);
  CHECK(WIFSIGNALED(status));
  CHECK(destroyed.has_value());
}

TEST_CASE("groups left by a killed supervisor are removed once empty and old, not before" *
          doctest::skip(skip_unless(&CgroupSupport::pids, "stale-group"))) {
  const CgroupSupport& s = host_support();
  const std::string base = s.kind == CgroupSupport::Kind::kV1 ? s.v1_pids_base : s.base;
  REQUIRE(!base.empty());
  const std::string tag = std::to_string(getpid());
  const std::string stale = base + "/agentjail-unit-stale-" + tag;
  const std::string fresh = base + "/agentjail-unit-fresh-" + tag;
  const std::string busy = base + "/agentjail-unit-busy-" + tag;
  const std::string other = base + "/unit-not-ours-" + tag;
  for (const auto& d : {stale, fresh, busy, other}) REQUIRE(mkdir(d.c_str(), 0755) == 0);
  // An hour old, as after a supervisor killed long ago.
  struct timespec old[2];
  old[0].tv_sec = old[1].tv_sec = time(nullptr) - 3600;
  old[0].tv_nsec = old[1].tv_nsec = 0;
  for (const auto& d : {stale, busy, other}) REQUIRE(utimensat(AT_FDCWD, d.c_str(), old, 0) == 0);
  // `busy` holds a process.
  int ready[2];
  REQUIRE(pipe(ready) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const std::string me = "0";
    const int fd = open((busy + "/cgroup.procs").c_str(), O_WRONLY);
    const char ok = fd >= 0 && write(fd, me.data(), me.size()) == 1 ? 'y' : 'n';
    (void)!write(ready[1], &ok, 1);
    for (;;) pause();
  }
  char ok = 0;
  REQUIRE(read(ready[0], &ok, 1) == 1);
  REQUIRE(ok == 'y');

  // Parallel tests' sessions sweep the same base, and may remove `stale`
  // first: what counts is that it is gone and the others are not.
  (void)remove_stale_groups(base);
  const bool stale_gone = access(stale.c_str(), F_OK) != 0;
  const bool fresh_kept = access(fresh.c_str(), F_OK) == 0;
  const bool busy_kept = access(busy.c_str(), F_OK) == 0;
  const bool other_kept = access(other.c_str(), F_OK) == 0;
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  for (const auto& d : {stale, fresh, busy, other}) rmdir(d.c_str());
  CHECK(stale_gone);
  CHECK(fresh_kept);  // a session may be starting in it
  CHECK(busy_kept);
  CHECK(other_kept);  // not an agentjail group
}

}  // namespace aj

namespace aj {
namespace {

std::string g_unit_v2_base;  // see unit_v2_base

void remove_unit_v2_base() { rmdir(g_unit_v2_base.c_str()); }

// A group of our own below `dir` (which lacks cgroup.kill, as the root group
// does: a hybrid host's /sys/fs/cgroup/unified with everything in its root,
// like this project's CI machine), removed at exit; "" when that fails.
std::string unit_v2_base(const std::string& dir) {
  const std::string base = dir + "/agentjail-unit-" + std::to_string(getpid());
  if (mkdir(base.c_str(), 0755) != 0) return "";
  g_unit_v2_base = base;
  std::atexit(remove_unit_v2_base);
  return access((base + "/cgroup.kill").c_str(), F_OK) == 0 ? base : "";
}

// A writable v2 group of ours, even one without controllers (a hybrid host's
// /sys/fs/cgroup/unified), exercises the v2 create / kill / rmdir path.
std::string writable_v2_dir() {
  static const std::string dir = [] {
    const auto mounts = parse_cgroup_mounts(read_file("/proc/self/mountinfo"));
    for (const auto& e : parse_proc_cgroup(read_file("/proc/self/cgroup"))) {
      if (e.hierarchy != 0) continue;
      for (const auto& m : mounts) {
        if (!m.v2 || m.read_only) continue;
        const std::string d = cgroup_dir_for(m, e.path);
        if (d.empty() || access(d.c_str(), W_OK) != 0) continue;
        if (access((d + "/cgroup.kill").c_str(), F_OK) == 0) return d;
        return unit_v2_base(d);
      }
    }
    return std::string();
  }();
  return dir;
}

bool skip_unless_v2() {
  if (!writable_v2_dir().empty()) return false;
  std::fprintf(stderr,
               "cgroup_test: skipping the real v2 test: no writable cgroup v2 group "
               "with cgroup.kill\n");
  return true;
}

}  // namespace

TEST_CASE("a v2 session group takes a child by pid and cgroup.kill empties it" *
          doctest::skip(skip_unless_v2())) {
  CgroupSupport s;
  s.kind = CgroupSupport::Kind::kV2;
  s.base = writable_v2_dir();
  const std::string name = session_name("v2");
  auto cg = create_session_cgroup(s, name, {});
  REQUIRE_MESSAGE(cg.has_value(), (cg ? "" : cg.error().render()));
  REQUIRE(cg->groups.size() == 1);
  const std::string dir = cg->groups[0].dir;
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    for (;;) pause();
  }
  const auto added = cgroup_add_pid(*cg, child);
  const std::string procs = read_file(dir + "/cgroup.procs");
  const auto destroyed = destroy_session_cgroup(*cg);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(added.has_value());
  CHECK(procs == std::to_string(child) + "\n");
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
  CHECK(destroyed.has_value());
  CHECK(access(dir.c_str(), F_OK) != 0);
}

TEST_CASE("clone3 starts a child inside a v2 session group (CLONE_INTO_CGROUP)" *
          doctest::skip(skip_unless_v2())) {
  CgroupSupport s;
  s.kind = CgroupSupport::Kind::kV2;
  s.base = writable_v2_dir();
  auto cg = create_session_cgroup(s, session_name("into"), {});
  REQUIRE_MESSAGE(cg.has_value(), (cg ? "" : cg.error().render()));
  REQUIRE(cg->v2_clone_into_fd() >= 0);
  CHECK(cg->v1_task_fds().empty());
  const std::string dir = cg->groups[0].dir;
  struct clone_args args;
  std::memset(&args, 0, sizeof args);
  args.flags = CLONE_INTO_CGROUP;
  args.cgroup = static_cast<std::uint64_t>(cg->v2_clone_into_fd());
  args.exit_signal = SIGCHLD;
  const pid_t child = static_cast<pid_t>(syscall(SYS_clone3, &args, sizeof args));
  REQUIRE(child >= 0);
  if (child == 0) {
    for (;;) pause();
  }
  const std::string procs = read_file(dir + "/cgroup.procs");
  const auto destroyed = destroy_session_cgroup(*cg);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(procs == std::to_string(child) + "\n");
  CHECK(WIFSIGNALED(status));
  CHECK(destroyed.has_value());
}

}  // namespace aj
