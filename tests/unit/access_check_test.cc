#include "plan/access_check.h"

#include <doctest/doctest.h>

namespace aj {
namespace {

Plan sample_plan() {
  Plan p;
  auto add = [&p](MountKind k, const char* target, const char* file = "default.toml") {
    p.mounts.ops.push_back({k, target, target, {file, 3, 1}, 0755, false});
  };
  add(MountKind::kProc, "/proc", "");
  add(MountKind::kRemountReadOnly, "/proc/sys", "");
  add(MountKind::kBindReadOnly, "/usr");
  add(MountKind::kTmpfs, "/tmp");
  add(MountKind::kTmpfs, "/home/u");
  add(MountKind::kBindReadWrite, "/home/u/ws");
  add(MountKind::kBindReadOnly, "/home/u/ws/.git/hooks");
  add(MountKind::kHideDir, "/etc/ssl/private");
  add(MountKind::kBindReadOnly, "/etc");
  add(MountKind::kSymlink, "/bin");
  return p;
}

}  // namespace

TEST_CASE("trace mode judges opens by the deepest rule of the plan") {
  const Plan plan = sample_plan();
  struct Row {
    const char* path;
    bool write;
    bool allowed;
    const char* reason;
  };
  const Row rows[] = {
      {"/usr/bin/ls", false, true, ""},
      {"/usr/bin/ls", true, false, "read-only"},
      {"/tmp/x", true, true, ""},
      {"/home/u/ws/src/main.c", true, true, ""},
      {"/home/u/ws/.git/hooks/pre-commit", true, false, "read-only"},
      {"/home/u/ws/.git/hooks/pre-commit", false, true, ""},
      {"/etc/ssl/private/key.pem", false, false, "hidden"},
      {"/etc/passwd", false, true, ""},
      {"/proc/sys/kernel/hostname", true, false, "read-only"},
      {"/srv/data", false, false, "not in the jail's view"},
      {"/", false, true, ""},
      {"/newfile", true, false, "the root is read-only"},
      {"/usrx/y", false, false, "not in the jail's view"},
  };
  for (const auto& r : rows) {
    CAPTURE(r.path);
    CAPTURE(r.write);
    AccessDecision d = check_open(plan, r.path, r.write);
    CHECK(d.allowed == r.allowed);
    CHECK(d.reason == r.reason);
  }
}

TEST_CASE("a denial names the profile item that decided") {
  const Plan plan = sample_plan();
  AccessDecision d = check_open(plan, "/etc/ssl/private/k", false);
  CHECK(d.rule == "default.toml:3:1");
  CHECK(check_open(plan, "/proc/sys/x", true).rule == "built in");
}

}  // namespace aj
