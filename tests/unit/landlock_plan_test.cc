#include "plan/landlock_plan.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "sys/landlock_abi.h"

namespace aj {

namespace ll = landlock;

namespace {

SourceLoc loc(int line) { return SourceLoc{"default.toml", line, 0}; }

bool has_line(const LandlockPlan& plan, const std::string& line) {
  return std::find(plan.not_enforced.begin(), plan.not_enforced.end(), line) !=
         plan.not_enforced.end();
}

bool any_line_contains(const LandlockPlan& plan, const std::string& part) {
  return std::any_of(plan.not_enforced.begin(), plan.not_enforced.end(),
                     [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

}  // namespace

TEST_CASE("our Landlock constants match the kernel UAPI") {
  // Values from include/uapi/linux/landlock.h; a typo here would silently
  // grant or deny the wrong right.
  struct Row {
    const char* name;
    std::uint64_t ours;
    std::uint64_t uapi;
  };
  const Row rows[] = {
      {"FS_EXECUTE", ll::kAccessFsExecute, 0x1},
      {"FS_WRITE_FILE", ll::kAccessFsWriteFile, 0x2},
      {"FS_READ_FILE", ll::kAccessFsReadFile, 0x4},
      {"FS_READ_DIR", ll::kAccessFsReadDir, 0x8},
      {"FS_REMOVE_DIR", ll::kAccessFsRemoveDir, 0x10},
      {"FS_REMOVE_FILE", ll::kAccessFsRemoveFile, 0x20},
      {"FS_MAKE_CHAR", ll::kAccessFsMakeChar, 0x40},
      {"FS_MAKE_DIR", ll::kAccessFsMakeDir, 0x80},
      {"FS_MAKE_REG", ll::kAccessFsMakeReg, 0x100},
      {"FS_MAKE_SOCK", ll::kAccessFsMakeSock, 0x200},
      {"FS_MAKE_FIFO", ll::kAccessFsMakeFifo, 0x400},
      {"FS_MAKE_BLOCK", ll::kAccessFsMakeBlock, 0x800},
      {"FS_MAKE_SYM", ll::kAccessFsMakeSym, 0x1000},
      {"FS_REFER", ll::kAccessFsRefer, 0x2000},
      {"FS_TRUNCATE", ll::kAccessFsTruncate, 0x4000},
      {"FS_IOCTL_DEV", ll::kAccessFsIoctlDev, 0x8000},
      {"NET_BIND_TCP", ll::kAccessNetBindTcp, 0x1},
      {"NET_CONNECT_TCP", ll::kAccessNetConnectTcp, 0x2},
      {"SCOPE_ABSTRACT_UNIX_SOCKET", ll::kScopeAbstractUnixSocket, 0x1},
      {"SCOPE_SIGNAL", ll::kScopeSignal, 0x2},
      {"RESTRICT_SELF_LOG_SAME_EXEC_OFF", ll::kRestrictSelfLogSameExecOff, 0x1},
      {"RESTRICT_SELF_LOG_NEW_EXEC_ON", ll::kRestrictSelfLogNewExecOn, 0x2},
      {"RESTRICT_SELF_LOG_SUBDOMAINS_OFF", ll::kRestrictSelfLogSubdomainsOff, 0x4},
      {"CREATE_RULESET_VERSION", ll::kCreateRulesetVersion, 0x1},
      {"RULE_PATH_BENEATH", ll::kRulePathBeneath, 1},
      {"RULE_NET_PORT", ll::kRuleNetPort, 2},
      {"__NR_landlock_create_ruleset", ll::kSysCreateRuleset, 444},
      {"__NR_landlock_add_rule", ll::kSysAddRule, 445},
      {"__NR_landlock_restrict_self", ll::kSysRestrictSelf, 446},
  };
  for (const auto& r : rows) {
    CAPTURE(r.name);
    CHECK(r.ours == r.uapi);
  }
}

TEST_CASE("each ABI handles exactly the rights it knows") {
  struct Row {
    int abi;
    std::uint64_t fs, dir_only, net, scope;
    std::uint32_t flags;
    std::size_t attr_size;
  };
  const Row rows[] = {
      {0, 0x0, 0x0, 0, 0, 0, 8},
      {1, 0x1fff, 0x1ff8, 0, 0, 0, 8},
      {2, 0x3fff, 0x3ff8, 0, 0, 0, 8},
      {3, 0x7fff, 0x3ff8, 0, 0, 0, 8},
      {4, 0x7fff, 0x3ff8, 0x3, 0, 0, 16},
      {5, 0xffff, 0x3ff8, 0x3, 0, 0, 16},
      {6, 0xffff, 0x3ff8, 0x3, 0x3, 0, 24},
      {7, 0xffff, 0x3ff8, 0x3, 0x3, 0x7, 24},
  };
  for (const auto& r : rows) {
    CAPTURE(r.abi);
    CHECK(ll::fs_mask(r.abi) == r.fs);
    CHECK(ll::fs_dir_only_mask(r.abi) == r.dir_only);
    CHECK(ll::net_mask(r.abi) == r.net);
    CHECK(ll::scope_mask(r.abi) == r.scope);
    CHECK(ll::restrict_flags_mask(r.abi) == r.flags);
    CHECK(ll::ruleset_attr_size(r.abi) == r.attr_size);

    const LandlockPlan plan = build_landlock_plan(LandlockInputs{.abi = r.abi});
    CHECK(plan.abi == r.abi);
    CHECK(plan.handled_fs == r.fs);
    CHECK(plan.dir_only_fs == r.dir_only);
    CHECK(plan.restrict_flags == 0);
    CHECK(plan.active() == (r.abi > 0));
  }
}

TEST_CASE("a kernel newer than ABI 7 is driven at ABI 7, a negative ABI is none") {
  CHECK(build_landlock_plan(LandlockInputs{.abi = 9}).abi == 7);
  CHECK(build_landlock_plan(LandlockInputs{.abi = 9}).handled_fs == 0xffff);
  CHECK(build_landlock_plan(LandlockInputs{.abi = -1}).abi == 0);
  CHECK_FALSE(build_landlock_plan(LandlockInputs{.abi = -1}).active());
}

TEST_CASE("grant kinds map to Landlock rights per ABI") {
  struct Row {
    GrantKind kind;
    const char* path;
    int abi;
    std::uint64_t access;
  };
  const Row rows[] = {
      {GrantKind::kRead, "/usr", 1, 0xc},          {GrantKind::kRead, "/usr", 7, 0xc},
      {GrantKind::kExec, "/usr/bin", 1, 0xd},      {GrantKind::kExec, "/usr/bin", 7, 0xd},
      {GrantKind::kReadWrite, "/w", 1, 0x17be},    {GrantKind::kReadWrite, "/w", 2, 0x37be},
      {GrantKind::kReadWrite, "/w", 3, 0x77be},    {GrantKind::kReadWrite, "/w", 7, 0x77be},
      {GrantKind::kDevice, "/dev/null", 2, 0xe},   {GrantKind::kDevice, "/dev/null", 4, 0x400e},
      {GrantKind::kDevice, "/dev/tty", 5, 0xc00e}, {GrantKind::kDevice, "/dev/pts", 7, 0xc00e},
      {GrantKind::kDevice, "/dev/shm", 7, 0x412e}, {GrantKind::kDevice, "/dev/shm/", 7, 0x412e},
      {GrantKind::kDevice, "/dev/shm", 2, 0x12e},  {GrantKind::kRead, "/x", 0, 0x0},
  };
  for (const auto& r : rows) {
    CAPTURE(to_string(r.kind));
    CAPTURE(r.path);
    CAPTURE(r.abi);
    CHECK(landlock_access_for(r.kind, r.path, r.abi) == r.access);
  }
}

TEST_CASE("no grant ever allows creating device nodes or executing writable trees") {
  for (int abi = 1; abi <= ll::kAbiMax; ++abi) {
    for (GrantKind k :
         {GrantKind::kRead, GrantKind::kReadWrite, GrantKind::kExec, GrantKind::kDevice}) {
      CAPTURE(abi);
      CAPTURE(to_string(k));
      const std::uint64_t a =
          landlock_access_for(k, "/dev/shm", abi) | landlock_access_for(k, "/some/dir", abi);
      CHECK((a & (ll::kAccessFsMakeChar | ll::kAccessFsMakeBlock)) == 0);
      CHECK((a & ~ll::fs_mask(abi)) == 0);
      if (k != GrantKind::kExec) CHECK((a & ll::kAccessFsExecute) == 0);
    }
  }
}

TEST_CASE("grants become path rules in order with their origin") {
  LandlockInputs in{.abi = 5};
  in.grants = {
      {"/usr", GrantKind::kExec, false, loc(3)},
      {"/opt/homebrew", GrantKind::kRead, true, loc(4)},
      {"/work", GrantKind::kReadWrite, false, loc(5)},
      {"/dev/null", GrantKind::kDevice, false, {}},
  };
  const LandlockPlan plan = build_landlock_plan(in);
  REQUIRE(plan.paths.size() == 4);
  CHECK(plan.paths[0].path == "/usr");
  CHECK(plan.paths[0].access == landlock_access_for(GrantKind::kExec, "/usr", 5));
  CHECK(plan.paths[0].kind == GrantKind::kExec);
  CHECK(plan.paths[0].where == loc(3));
  CHECK_FALSE(plan.paths[0].optional);
  CHECK(plan.paths[1].optional);
  CHECK(plan.paths[2].access == landlock_access_for(GrantKind::kReadWrite, "/work", 5));
  CHECK(plan.paths[3].path == "/dev/null");
  // The child strips these when /dev/null turns out to be a character device.
  CHECK((plan.paths[3].access & ~plan.dir_only_fs) ==
        (ll::kAccessFsReadFile | ll::kAccessFsWriteFile | ll::kAccessFsTruncate |
         ll::kAccessFsIoctlDev));
  CHECK((plan.paths[2].access & ~plan.dir_only_fs) ==
        (ll::kAccessFsReadFile | ll::kAccessFsWriteFile | ll::kAccessFsTruncate));
  CHECK(plan.not_enforced.empty());
}

TEST_CASE("a relative grant is dropped and reported, never opened against the cwd") {
  LandlockInputs in{.abi = 7};
  in.grants = {{"relative/dir", GrantKind::kReadWrite, false, loc(9)},
               {"", GrantKind::kRead, false, loc(10)}};
  const LandlockPlan plan = build_landlock_plan(in);
  CHECK(plan.paths.empty());
  CHECK(has_line(plan,
                 "read-write 'relative/dir' (default.toml:9): not an absolute path; "
                 "Landlock grant dropped, path denied"));
  CHECK(plan.not_enforced.size() == 2);
}

TEST_CASE("TCP port rules are handled from ABI 4 and reported below it") {
  struct Row {
    int abi;
    bool deny_all;
    std::uint64_t handled_net;
    std::size_t ports;
    std::size_t lines;
  };
  const Row rows[] = {
      {3, false, 0, 0, 2}, {4, false, 0x3, 3, 0}, {7, false, 0x3, 3, 0},
      {3, true, 0, 0, 3},  {4, true, 0x3, 0, 0},  {0, false, 0, 0, 2},
  };
  for (const auto& r : rows) {
    CAPTURE(r.abi);
    CAPTURE(r.deny_all);
    LandlockInputs in{.abi = r.abi, .deny_all_tcp = r.deny_all};
    in.tcp_connect = {{443, loc(12)}, {80, loc(12)}};
    in.tcp_bind = {{8080, loc(13)}};
    LandlockPlan plan = build_landlock_plan(in);
    CHECK(plan.handled_net == r.handled_net);
    CHECK(plan.ports.size() == r.ports);
    // Drop the filesystem lines this test is not about.
    std::erase_if(plan.not_enforced, [](const std::string& l) {
      return l.find("TCP") == std::string::npos && l.find("tcp_") == std::string::npos;
    });
    CHECK(plan.not_enforced.size() == r.lines);
  }

  LandlockInputs in{.abi = 4};
  in.tcp_connect = {{443, loc(12)}};
  in.tcp_bind = {{8080, loc(13)}};
  const LandlockPlan plan = build_landlock_plan(in);
  REQUIRE(plan.ports.size() == 2);
  CHECK(plan.ports[0].port == 443);
  CHECK(plan.ports[0].access == ll::kAccessNetConnectTcp);
  CHECK(plan.ports[0].where == loc(12));
  CHECK(plan.ports[1].port == 8080);
  CHECK(plan.ports[1].access == ll::kAccessNetBindTcp);

  in.abi = 3;
  const LandlockPlan old = build_landlock_plan(in);
  CHECK(has_line(old,
                 "tcp_connect = [443] (default.toml:12): kernel Landlock ABI 3 < 4 cannot "
                 "restrict TCP"));
  CHECK(has_line(old,
                 "tcp_bind = [8080] (default.toml:13): kernel Landlock ABI 3 < 4 cannot "
                 "restrict TCP"));
}

TEST_CASE("connect-only port lists also deny binding; no TCP rule leaves TCP alone") {
  LandlockInputs in{.abi = 7};
  CHECK(build_landlock_plan(in).handled_net == 0);
  in.tcp_connect = {{443, loc(1)}};
  const LandlockPlan plan = build_landlock_plan(in);
  CHECK(plan.handled_net == (ll::kAccessNetBindTcp | ll::kAccessNetConnectTcp));
  REQUIRE(plan.ports.size() == 1);
  CHECK(plan.ports[0].access == ll::kAccessNetConnectTcp);
}

TEST_CASE("--net none without a network namespace denies all TCP from ABI 4") {
  LandlockInputs in{.abi = 4, .deny_all_tcp = true};
  CHECK(build_landlock_plan(in).handled_net == 0x3);
  CHECK(build_landlock_plan(in).ports.empty());
  in.abi = 2;
  CHECK(has_line(build_landlock_plan(in),
                 "no TCP connect or bind (--net none without a network namespace): kernel "
                 "Landlock ABI 2 < 4 cannot restrict TCP"));
}

TEST_CASE("IPC scoping is set from ABI 6 and reported below it") {
  for (int abi = 0; abi <= 7; ++abi) {
    CAPTURE(abi);
    const LandlockPlan plan = build_landlock_plan(LandlockInputs{.abi = abi, .scope_ipc = true});
    CHECK(plan.scoped == (abi >= 6 ? 0x3u : 0u));
    CHECK(any_line_contains(plan, "abstract unix sockets and signals") == (abi < 6));
    CHECK(build_landlock_plan(LandlockInputs{.abi = abi}).scoped == 0);
  }
  CHECK(has_line(build_landlock_plan(LandlockInputs{.abi = 5, .scope_ipc = true}),
                 "abstract unix sockets and signals limited to the sandbox: kernel Landlock ABI "
                 "5 < 6 cannot scope IPC"));
}

TEST_CASE("older ABIs report truncate and device ioctl gaps") {
  for (int abi = 1; abi <= 7; ++abi) {
    CAPTURE(abi);
    const LandlockPlan plan = build_landlock_plan(LandlockInputs{.abi = abi});
    CHECK(any_line_contains(plan, "truncate(2)") == (abi < 3));
    CHECK(any_line_contains(plan, "ioctl on device files") == (abi < 5));
  }
  CHECK(has_line(build_landlock_plan(LandlockInputs{.abi = 4}),
                 "ioctl on device files: kernel Landlock ABI 4 < 5 cannot restrict device ioctls"));
  CHECK(build_landlock_plan(LandlockInputs{.abi = 7}).not_enforced.empty());
}

TEST_CASE("without Landlock every rule is reported as not enforced") {
  LandlockInputs in{.abi = 0, .deny_all_tcp = true, .scope_ipc = true};
  in.grants = {{"/usr", GrantKind::kRead, false, loc(3)},
               {"/work", GrantKind::kReadWrite, false, {}}};
  in.tcp_connect = {{443, loc(12)}};
  const LandlockPlan plan = build_landlock_plan(in);
  CHECK_FALSE(plan.active());
  CHECK(plan.paths.empty());
  CHECK(plan.ports.empty());
  CHECK(plan.handled_fs == 0);
  CHECK(plan.handled_net == 0);
  CHECK(plan.scoped == 0);
  const std::string none = "Landlock is not available on this kernel";
  CHECK(has_line(plan, "filesystem access outside the granted paths: " + none));
  CHECK(has_line(plan, "read '/usr' (default.toml:3): " + none));
  CHECK(has_line(plan, "read-write '/work': " + none));
  CHECK(has_line(plan, "tcp_connect = [443] (default.toml:12): " + none));
  CHECK(has_line(plan, "no TCP connect or bind (--net none without a network namespace): " + none));
  CHECK(has_line(plan, "abstract unix sockets and signals limited to the sandbox: " + none));
  CHECK(plan.not_enforced.size() == 6);
}

}  // namespace aj
