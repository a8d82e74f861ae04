#include "plan/rlimit_plan.h"

#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sys/rlimits.h"

namespace aj {
namespace {

Item<std::uint64_t> at(std::uint64_t v, int line) { return {v, {"limits.toml", line, 1}}; }

}  // namespace

TEST_CASE("every [limits] entry maps to its rlimit with soft equal to hard") {
  LimitsPolicy l;
  l.memory = at(8ull << 30, 1);
  l.processes = at(1024, 2);
  l.open_files = at(4096, 3);
  l.file_size = at(4ull << 30, 4);
  l.cpu_time_ms = at(7200000, 5);
  l.wall_time_ms = at(1000, 6);  // the supervisor's job, not an rlimit
  const auto r = build_rlimits(l);
  REQUIRE(r.size() == 7);
  const RlimitSetting expected[] = {
      {RlimitKind::kAddressSpace, 8ull << 30, 8ull << 30, {"limits.toml", 1, 1}},
      {RlimitKind::kProcesses, 1024, 1024, {"limits.toml", 2, 1}},
      {RlimitKind::kOpenFiles, 4096, 4096, {"limits.toml", 3, 1}},
      {RlimitKind::kFileSize, 4ull << 30, 4ull << 30, {"limits.toml", 4, 1}},
      {RlimitKind::kCpuTime, 7200, 7200, {"limits.toml", 5, 1}},
      {RlimitKind::kCore, 0, 0, {"built-in", 0, 0}},
      {RlimitKind::kPendingSignals, 1024, 1024, {"built-in", 0, 0}},
  };
  for (size_t i = 0; i < r.size(); ++i) {
    CAPTURE(i);
    CHECK(r[i] == expected[i]);
  }
}

TEST_CASE("core dumps are off and pending signals capped even with no [limits] at all") {
  const auto r = build_rlimits({});
  REQUIRE(r.size() == 2);
  CHECK(r[0].kind == RlimitKind::kCore);
  CHECK(r[0].soft == 0);
  CHECK(r[0].hard == 0);
  CHECK(r[1].kind == RlimitKind::kPendingSignals);
  CHECK(r[1].hard == kPendingSignalsCap);
}

TEST_CASE("cpu time is rounded up to whole seconds, at least one") {
  struct Row {
    std::uint64_t ms, secs;
  };
  const Row rows[] = {{0, 1}, {1, 1}, {999, 1}, {1000, 1}, {1001, 2}, {90000, 90}, {90500, 91}};
  for (const Row& row : rows) {
    CAPTURE(row.ms);
    LimitsPolicy l;
    l.cpu_time_ms = at(row.ms, 1);
    const auto r = build_rlimits(l);
    REQUIRE(r.size() == 3);
    CHECK(r[0].kind == RlimitKind::kCpuTime);
    CHECK(r[0].soft == row.secs);
    CHECK(r[0].hard == row.secs);
  }
}

TEST_CASE("a limit above the host's hard limit is clamped to it and reported") {
  LimitsPolicy l;
  l.open_files = at(100000, 1);
  l.processes = at(10, 2);
  auto r = build_rlimits(l);
  const auto clamps = clamp_rlimits(r, {{RlimitKind::kOpenFiles, 4096},
                                        {RlimitKind::kProcesses, 1000},
                                        {RlimitKind::kCore, kRlimInfinity}});
  REQUIRE(clamps.size() == 1);
  CHECK(r[clamps[0].index].kind == RlimitKind::kOpenFiles);
  CHECK(clamps[0].requested == 100000);
  CHECK(clamps[0].effective == 4096);
  CHECK(r[clamps[0].index].soft == 4096);
  CHECK(r[clamps[0].index].hard == 4096);
  CHECK(r[0].hard == 10);  // processes: below the host's hard limit, unchanged
}

TEST_CASE("apply_rlimits lowers limits in a child and clamps instead of raising") {
  struct rlimit nofile {};
  REQUIRE(getrlimit(RLIMIT_NOFILE, &nofile) == 0);
  REQUIRE(nofile.rlim_max != RLIM_INFINITY);
  const std::uint64_t above = std::uint64_t{nofile.rlim_max} + 1000;
  const RlimitSetting settings[] = {
      {RlimitKind::kFileSize, 12345, 12345, {}},
      {RlimitKind::kCore, 0, 0, {}},
      {RlimitKind::kOpenFiles, above, above, {}},
  };
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // Even root (which could raise) must not: an unprivileged user namespace could not.
    size_t failed = 99;
    if (apply_rlimits(settings, 3, &failed) != 0) _exit(10);
    struct rlimit fsize {
    }, core{}, files{};
    getrlimit(RLIMIT_FSIZE, &fsize);
    getrlimit(RLIMIT_CORE, &core);
    getrlimit(RLIMIT_NOFILE, &files);
    if (fsize.rlim_cur != 12345 || fsize.rlim_max != 12345) _exit(11);
    if (core.rlim_cur != 0 || core.rlim_max != 0) _exit(12);
    if (files.rlim_max != nofile.rlim_max || files.rlim_cur != nofile.rlim_max) _exit(13);
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("read_hard_limits reports what getrlimit says") {
  const auto hard = read_hard_limits();
  struct rlimit nofile {};
  REQUIRE(getrlimit(RLIMIT_NOFILE, &nofile) == 0);
  REQUIRE(hard.count(RlimitKind::kOpenFiles) == 1);
  CHECK(hard.at(RlimitKind::kOpenFiles) == nofile.rlim_max);
  CHECK(hard.size() == 7);
}

}  // namespace aj
