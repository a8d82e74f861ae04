// The seccomp compiler, checked by running the exported BPF program in a small
// classic-BPF interpreter over every syscall number and many argument values:
// this is what the kernel will compute, without installing anything.
#include <doctest/doctest.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <cstring>
#include <optional>
#include <set>

#include "seccomp/arg_rules.h"
#include "seccomp/bpf_eval.h"
#include "seccomp/filter.h"
#include "seccomp/groups.h"
#include "seccomp/names.h"

namespace aj {
namespace {

#if defined(__x86_64__)
constexpr std::uint32_t kNativeArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr std::uint32_t kNativeArch = AUDIT_ARCH_AARCH64;
#endif

constexpr std::uint32_t kAllow = SECCOMP_RET_ALLOW;
constexpr std::uint32_t kLog = SECCOMP_RET_LOG;
constexpr std::uint32_t kKill = SECCOMP_RET_KILL_PROCESS;
constexpr std::uint32_t errno_ret(int e) {
  return SECCOMP_RET_ERRNO | static_cast<std::uint32_t>(e);
}

static_assert(sizeof(SeccompData) == sizeof(seccomp_data));

// The supervisor's own interpreter (seccomp/bpf_eval.h) runs the programs.
std::optional<std::uint32_t> run_bpf(const BpfProgram& p, const SeccompData& d) {
  return bpf_evaluate(p, d);
}

std::uint32_t decide(const BpfProgram& p, int nr, const SyscallArgs& args = {},
                     std::uint32_t arch = kNativeArch) {
  SeccompData d{nr, arch, 0, {}};
  std::copy(args.begin(), args.end(), d.args);
  const auto r = run_bpf(p, d);
  REQUIRE(r.has_value());
  return *r;
}

StringList items(const std::vector<std::string>& names) {
  StringList out;
  int line = 3;
  for (const auto& n : names) out.push_back({n, SourceLoc{"test.toml", line++, 1}});
  return out;
}

SeccompPolicy policy(SeccompDefault def, std::vector<std::string> deny,
                     std::vector<std::string> allow, SeccompAction action = SeccompAction::kErrno,
                     std::optional<int> errnum = std::nullopt) {
  SeccompPolicy p;
  p.default_action = Item<SeccompDefault>{def, {}};
  p.deny = items(deny);
  p.allow = items(allow);
  p.action = Item<SeccompAction>{action, {}};
  if (errnum) p.errno_value = Item<int>{*errnum, SourceLoc{"test.toml", 9, 9}};
  return p;
}

BpfProgram compile(const SeccompPolicy& p, SeccompOptions o = {}) {
  auto r = compile_seccomp(p, o);
  if (!r) FAIL(r.error().render());
  return std::move(r).value();
}

int nr_of(std::string_view name) {
  const auto nr = seccomp_syscall_number(name);
  REQUIRE(nr.has_value());
  return *nr;
}

const std::vector<std::string> kDenyGroups = {
    "@mount",  "@keyring",     "@bpf",      "@perf",          "@debug",   "@privileged",
    "@handle", "@userfaultfd", "@io_uring", "@cpu-emulation", "@obsolete"};

std::set<int> native_members(const std::vector<std::string>& groups) {
  std::set<int> out;
  for (const auto& g : groups) {
    for (std::string_view s : expand_syscall_group(g)) {
      const int nr = nr_of(s);
      if (nr >= 0) out.insert(nr);
    }
  }
  return out;
}

std::set<int> builtin_syscalls() {
  std::set<int> out;
  for (const ArgFilter& f : baseline_arg_filters({})) out.insert(nr_of(f.syscall));
  for (const FixedRule& f : baseline_fixed_rules()) out.insert(nr_of(f.syscall));
  return out;
}

TEST_CASE("a default-allow profile refuses exactly its deny groups' syscalls") {
  const BpfProgram prog = compile(policy(SeccompDefault::kAllow, kDenyGroups, {}));
  const std::set<int> denied = native_members(kDenyGroups);
  const std::set<int> builtin = builtin_syscalls();
  CHECK(denied.contains(nr_of("mount")));
  CHECK(denied.contains(nr_of("open_tree_attr")));  // newer than libseccomp's table
  for (int nr = 0; nr < 512; ++nr) {
    if (builtin.contains(nr)) continue;
    CAPTURE(seccomp_syscall_name(nr));
    CHECK(decide(prog, nr) == (denied.contains(nr) ? errno_ret(EPERM) : kAllow));
  }
}

TEST_CASE(
    "a default-deny profile allows its allowlist, refuses the rest, and ENOSYS's the future") {
  const BpfProgram prog = compile(policy(SeccompDefault::kDeny, {}, {"@default"}));
  const std::set<int> allowed = native_members({"@default"});
  const std::set<int> builtin = builtin_syscalls();
  const int highest = seccomp_highest_known_syscall();
  for (int nr = 0; nr < 512; ++nr) {
    if (builtin.contains(nr)) continue;
    CAPTURE(seccomp_syscall_name(nr));
    const std::uint32_t want = allowed.contains(nr) ? kAllow
                               : nr > highest       ? errno_ret(ENOSYS)
                                                    : errno_ret(EPERM);
    CHECK(decide(prog, nr) == want);
  }
  CHECK(decide(prog, nr_of("execve")) == kAllow);
  CHECK(decide(prog, nr_of("keyctl")) == errno_ret(EPERM));
  MESSAGE("strict filter: " << prog.insns.size() << " instructions");
}

TEST_CASE("other architectures and x32 syscall numbers kill the process") {
  for (const SeccompPolicy& p :
       {policy(SeccompDefault::kAllow, {}, {}), policy(SeccompDefault::kDeny, {}, {"@default"})}) {
    const BpfProgram prog = compile(p);
#if defined(__x86_64__)
    CHECK(decide(prog, 20, {}, AUDIT_ARCH_I386) == kKill);  // i386 getpid via int 0x80
    CHECK(decide(prog, 0x40000000 | 39) == kKill);          // x32 getpid
    CHECK(decide(prog, 0x40000000 | 59) == kKill);          // x32 execve
#endif
    const std::uint32_t other =
        kNativeArch == AUDIT_ARCH_X86_64 ? AUDIT_ARCH_AARCH64 : AUDIT_ARCH_X86_64;
    CHECK(decide(prog, nr_of("getpid"), {}, other) == kKill);
  }
}

// How the profile treats the syscalls that carry built-in argument filters.
struct Mode {
  const char* name;
  SeccompPolicy policy;
  std::uint32_t rest;  // answer for calls the built-in rules do not refuse
};

std::vector<Mode> modes() {
  std::vector<std::string> filtered;
  for (const ArgFilter& f : baseline_arg_filters({})) filtered.emplace_back(f.syscall);
  return {
      {"default allow", policy(SeccompDefault::kAllow, kDenyGroups, {}), kAllow},
      {"default deny, allowlisted", policy(SeccompDefault::kDeny, {}, {"@default"}), kAllow},
      {"default deny (kill), allowlisted",
       policy(SeccompDefault::kDeny, {}, {"@default"}, SeccompAction::kKill), kAllow},
      {"default allow, denied with log",
       policy(SeccompDefault::kAllow, filtered, {}, SeccompAction::kLog), kLog},
      {"default deny with log", policy(SeccompDefault::kDeny, {}, {}, SeccompAction::kLog), kLog},
      {"default deny (log), allowlisted",
       policy(SeccompDefault::kDeny, {}, {"@default"}, SeccompAction::kLog), kAllow},
      {"default allow, denied with errno",
       policy(SeccompDefault::kAllow, filtered, {}, SeccompAction::kErrno, EACCES),
       errno_ret(EACCES)},
      {"default deny, not allowlisted", policy(SeccompDefault::kDeny, {}, {"@signal"}),
       errno_ret(EPERM)},
  };
}

std::vector<std::uint64_t> sample_values() {
  std::vector<std::uint64_t> v = {0,
                                  1,
                                  2,
                                  3,
                                  9,
                                  10,
                                  11,
                                  16,
                                  17,
                                  0x80,
                                  0x11,
                                  0x5412,
                                  0x541c,
                                  0x5413,
                                  0x541d,
                                  0x80000000ULL,
                                  0xfffffffeULL,
                                  0xffffffffULL,
                                  1ULL << 32,
                                  (1ULL << 32) | 0x5412,
                                  (1ULL << 32) | 17,
                                  ~0ULL};
  for (std::uint64_t bit = 0x100; bit < (1ULL << 31); bit <<= 1) v.push_back(bit | 0x11);
  return v;
}

TEST_CASE("the built-in argument filters hold in every profile mode, as the rule model says") {
  for (const Mode& m : modes()) {
    CAPTURE(std::string(m.name));
    const BpfProgram prog = compile(m.policy);
    for (const ArgFilter& f : baseline_arg_filters({})) {
      CAPTURE(f.syscall);
      const int nr = nr_of(f.syscall);
      for (std::uint64_t a : sample_values()) {
        for (std::uint64_t b : {0ULL, 2ULL, 0x5412ULL, 15ULL, 0x41ULL, 04755ULL}) {
          for (const SyscallArgs& args :
               {SyscallArgs{a, b, b, b, 0, 0}, SyscallArgs{b, a, b, b, 0, 0},
                SyscallArgs{b, b, a, b, 0, 0}, SyscallArgs{b, b, b, a, 0, 0},
                SyscallArgs{b, b, a, a, 0, 0}}) {
            const bool refused = any_matches(f.deny, args);
            const bool rest_denies = m.rest != kAllow && m.rest != kLog;
            const std::uint32_t want = rest_denies ? m.rest
                                       : refused   ? errno_ret(f.deny_errno)
                                                   : m.rest;
            if (decide(prog, nr, args) != want) {
              FAIL(f.syscall << "(" << args[0] << ", " << args[1] << ", " << args[2] << ", "
                             << args[3] << ") answered " << decide(prog, nr, args) << ", want "
                             << want);
            }
          }
        }
      }
    }
    CHECK(decide(prog, nr_of("clone3")) == errno_ret(ENOSYS));
    CHECK(decide(prog, nr_of("execve")) == kAllow);
    CHECK((decide(prog, nr_of("setns")) & SECCOMP_RET_ACTION_FULL) != kAllow);
    CHECK((decide(prog, nr_of("setns")) & SECCOMP_RET_ACTION_FULL) != kLog);
  }
}

TEST_CASE("with guard_truncate, truncate and read-only opens with O_TRUNC are refused") {
  for (const auto& [def, allow] :
       {std::pair{SeccompDefault::kAllow, std::vector<std::string>{}},
        std::pair{SeccompDefault::kDeny, std::vector<std::string>{"@default"}}}) {
    CAPTURE(static_cast<int>(def));
    const BpfProgram prog = compile(policy(def, {}, allow), {.guard_truncate = true});
    const int open = nr_of("openat");
    const auto at_fdcwd = static_cast<std::uint64_t>(static_cast<std::int64_t>(AT_FDCWD));
    CHECK(decide(prog, open, {at_fdcwd, 0, O_RDONLY | O_TRUNC, 0}) == errno_ret(EPERM));
    CHECK(decide(prog, open, {at_fdcwd, 0, O_WRONLY | O_TRUNC, 0}) == kAllow);
    CHECK(decide(prog, open, {at_fdcwd, 0, O_RDONLY | O_CLOEXEC, 0}) == kAllow);
    CHECK(decide(prog, open, {at_fdcwd, 0, O_CREAT | O_WRONLY, 04755}) == errno_ret(EPERM));
    CHECK(decide(prog, nr_of("truncate"), {0, 0, 0}) == errno_ret(EPERM));
    CHECK(decide(prog, nr_of("ftruncate"), {3, 0, 0}) == kAllow);
  }
}

TEST_CASE("with no_inet_sockets, only AF_UNIX sockets are allowed") {
  const BpfProgram prog =
      compile(policy(SeccompDefault::kAllow, {}, {}), {.no_inet_sockets = true});
  const int socket = nr_of("socket");
  CHECK(decide(prog, socket, {1, 1, 0}) == kAllow);                    // AF_UNIX
  CHECK(decide(prog, socket, {2, 1, 0}) == errno_ret(EAFNOSUPPORT));   // AF_INET
  CHECK(decide(prog, socket, {10, 1, 0}) == errno_ret(EAFNOSUPPORT));  // AF_INET6
  CHECK(decide(prog, socket, {16, 3, 0}) == errno_ret(EAFNOSUPPORT));  // AF_NETLINK
}

TEST_CASE("with the kill guards, kill(0) (and kill(-1) without a PID namespace) is refused") {
  const int kill = nr_of("kill");
  for (const auto& [def, allow] :
       {std::pair{SeccompDefault::kAllow, std::vector<std::string>{}},
        std::pair{SeccompDefault::kDeny, std::vector<std::string>{"@default"}}}) {
    const SeccompPolicy p = policy(def, {}, allow);
    CAPTURE(static_cast<int>(def));
    const BpfProgram plain = compile(p);
    CHECK(decide(plain, kill, {0, 9, 0}) == kAllow);
    const BpfProgram group = compile(p, {.guard_kill_group = true});
    CHECK(decide(group, kill, {0, 9, 0}) == errno_ret(EPERM));
    CHECK(decide(group, kill, {1ULL << 32, 19, 0}) == errno_ret(EPERM));
    CHECK(decide(group, kill, {0xffffffffULL, 9, 0}) == kAllow);
    CHECK(decide(group, kill, {42, 15, 0}) == kAllow);
    const BpfProgram all = compile(p, {.guard_kill_group = true, .guard_kill_all = true});
    CHECK(decide(all, kill, {0, 9, 0}) == errno_ret(EPERM));
    CHECK(decide(all, kill, {0xffffffffULL, 9, 0}) == errno_ret(EPERM));
    CHECK(decide(all, kill, {~0ULL, 9, 0}) == errno_ret(EPERM));
    CHECK(decide(all, kill, {42, 15, 0}) == kAllow);
  }
}

TEST_CASE("a syscall named directly beats one reached through a group; a tie goes to deny") {
  struct Row {
    const char* what;
    SeccompPolicy p;
    const char* syscall;
    std::uint32_t want;
  };
  const Row rows[] = {
      {"allow carves out of a deny group", policy(SeccompDefault::kAllow, {"@keyring"}, {"keyctl"}),
       "keyctl", kAllow},
      {"the rest of the group stays denied",
       policy(SeccompDefault::kAllow, {"@keyring"}, {"keyctl"}), "add_key", errno_ret(EPERM)},
      {"both named: deny", policy(SeccompDefault::kAllow, {"keyctl"}, {"keyctl"}), "keyctl",
       errno_ret(EPERM)},
      {"deny carves out of an allow group",
       policy(SeccompDefault::kDeny, {"getppid"}, {"@default"}), "getppid", errno_ret(EPERM)},
      {"the rest of the allow group stays allowed",
       policy(SeccompDefault::kDeny, {"getppid"}, {"@default"}), "getpid", kAllow},
      {"named allow beats a deny group",
       policy(SeccompDefault::kDeny, {"@process"}, {"@default", "getppid"}), "getppid", kAllow},
      {"group deny beats group allow at equal rank",
       policy(SeccompDefault::kDeny, {"@process"}, {"@default", "getppid"}), "getpid",
       errno_ret(EPERM)},
      {"the built-in setns denial beats an allowlist",
       policy(SeccompDefault::kDeny, {}, {"@default", "setns"}), "setns", errno_ret(EPERM)},
  };
  for (const Row& r : rows) {
    CAPTURE(r.what);
    CHECK(decide(compile(r.p), nr_of(r.syscall)) == r.want);
  }
}

TEST_CASE("the profile action decides how denied syscalls answer") {
  const int keyctl = nr_of("keyctl");
  CHECK(decide(compile(policy(SeccompDefault::kAllow, {"@keyring"}, {})), keyctl) ==
        errno_ret(EPERM));
  CHECK(decide(compile(
                   policy(SeccompDefault::kAllow, {"@keyring"}, {}, SeccompAction::kErrno, EACCES)),
               keyctl) == errno_ret(EACCES));
  CHECK(decide(compile(policy(SeccompDefault::kAllow, {"@keyring"}, {}, SeccompAction::kKill)),
               keyctl) == kKill);
  CHECK(decide(compile(policy(SeccompDefault::kAllow, {"@keyring"}, {}, SeccompAction::kLog)),
               keyctl) == kLog);
  // Unset default, action and errno: allow, errno, EPERM.
  SeccompPolicy bare;
  bare.deny = items({"keyctl"});
  const BpfProgram prog = compile(bare);
  CHECK(decide(prog, keyctl) == errno_ret(EPERM));
  CHECK(decide(prog, nr_of("getpid")) == kAllow);
}

TEST_CASE("compiling fails with the place and the name for a bad profile") {
  struct Row {
    SeccompPolicy p;
    std::vector<const char*> message_has;
  };
  const Row rows[] = {
      {policy(SeccompDefault::kAllow, {"@mount", "nosuchcall"}, {}),
       {"test.toml:4:1", "unknown system call 'nosuchcall'", "[seccomp] deny"}},
      {policy(SeccompDefault::kDeny, {}, {"@nosuch"}),
       {"test.toml:3:1", "unknown syscall group '@nosuch'", "[seccomp] allow", "@mount"}},
      {policy(SeccompDefault::kAllow, {"execve"}, {}),
       {"test.toml:3:1", "execve cannot be denied"}},
      {policy(SeccompDefault::kAllow, {}, {}, SeccompAction::kErrno, 0),
       {"test.toml:9:9", "between 1 and 4095"}},
      {policy(SeccompDefault::kAllow, {}, {}, SeccompAction::kErrno, 70000),
       {"between 1 and 4095", "70000"}},
  };
  for (const Row& r : rows) {
    auto result = compile_seccomp(r.p, {});
    REQUIRE_FALSE(result.has_value());
    const std::string msg = result.error().render();
    for (const char* part : r.message_has) {
      CAPTURE(msg);
      CHECK(msg.find(part) != std::string::npos);
    }
  }
}

TEST_CASE("execve denied with log is allowed: logging refuses nothing") {
  CHECK(compile_seccomp(policy(SeccompDefault::kAllow, {"execve"}, {}, SeccompAction::kLog), {})
            .has_value());
}

}  // namespace
}  // namespace aj
