#include <doctest/doctest.h>
#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>

#include "seccomp/bpf_eval.h"
#include "seccomp/filter.h"
#include "seccomp/notify_program.h"

namespace aj {
namespace {

SeccompData call(int nr, std::uint64_t a0 = 0, std::uint64_t a1 = 0) {
  SeccompData d{};
  d.nr = nr;
  d.arch = AUDIT_ARCH_X86_64;
  d.args[0] = a0;
  d.args[1] = a1;
  return d;
}

SeccompPolicy deny_mount() {
  SeccompPolicy p;
  p.deny.push_back({"@mount", {}});
  return p;
}

}  // namespace

TEST_CASE("the notifying program notifies exec and refusals, and leaves the rest alone") {
  auto enforcing = compile_seccomp(deny_mount(), {});
  REQUIRE(enforcing);
  BpfProgram installed = make_notifying_program(*enforcing, {});
  struct Row {
    const char* what;
    SeccompData data;
    std::uint32_t enforced;
    std::uint32_t notifying;
  };
  const Row rows[] = {
      {"execve", call(SYS_execve), SECCOMP_RET_ALLOW, SECCOMP_RET_USER_NOTIF},
      {"execveat", call(SYS_execveat), SECCOMP_RET_ALLOW, SECCOMP_RET_USER_NOTIF},
      {"mount (denied)", call(SYS_mount), SECCOMP_RET_ERRNO | EPERM, SECCOMP_RET_USER_NOTIF},
      {"getpid", call(SYS_getpid), SECCOMP_RET_ALLOW, SECCOMP_RET_ALLOW},
      {"clone3 (ENOSYS, not a refusal)", call(SYS_clone3), SECCOMP_RET_ERRNO | ENOSYS,
       SECCOMP_RET_ERRNO | ENOSYS},
      {"socket(AF_PACKET)", call(SYS_socket, 17), SECCOMP_RET_ERRNO | EAFNOSUPPORT,
       SECCOMP_RET_USER_NOTIF},
      {"socket(AF_INET)", call(SYS_socket, 2), SECCOMP_RET_ALLOW, SECCOMP_RET_ALLOW},
  };
  for (const auto& r : rows) {
    CAPTURE(r.what);
    CHECK(bpf_evaluate(*enforcing, r.data) == r.enforced);
    CHECK(bpf_evaluate(installed, r.data) == r.notifying);
  }
}

TEST_CASE("a foreign architecture still dies in the notifying program") {
  auto enforcing = compile_seccomp(deny_mount(), {});
  REQUIRE(enforcing);
  BpfProgram installed = make_notifying_program(*enforcing, {});
  SeccompData d = call(11 /* i386 execve */);
  d.arch = AUDIT_ARCH_I386;
  CHECK(bpf_evaluate(installed, d) == SECCOMP_RET_KILL_PROCESS);
}

TEST_CASE("without exec or denial notification the program is unchanged") {
  auto enforcing = compile_seccomp(deny_mount(), {});
  REQUIRE(enforcing);
  NotifyOptions none;
  none.exec = false;
  none.denials = false;
  BpfProgram installed = make_notifying_program(*enforcing, none);
  CHECK(installed.insns.size() == enforcing->insns.size());
}

}  // namespace aj
