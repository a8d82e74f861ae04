// The rule algebra of the built-in argument filters, checked by evaluating the
// rules directly: every filter's `complement` must match exactly the calls its
// `deny` does not, or libseccomp would be handed overlapping rules with
// different actions.
#include <doctest/doctest.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/fsverity.h>
#include <linux/netlink.h>
#include <linux/sockios.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <algorithm>
#include <random>
#include <set>

#include "seccomp/arg_rules.h"

namespace aj {
namespace {

SyscallArgs args0(std::uint64_t a0, std::uint64_t a1 = 0, std::uint64_t a2 = 0,
                  std::uint64_t a3 = 0) {
  return {a0, a1, a2, a3, 0, 0};
}

// Values where off-by-one and high-bit mistakes show.
std::vector<std::uint64_t> edge_values() {
  std::vector<std::uint64_t> v;
  for (std::uint64_t i = 0; i < 64; ++i) v.push_back(i);
  for (std::uint64_t base :
       {0x5410ULL, 0x5412ULL, 0x541cULL, 0x4b00ULL, 0x4bffULL, 0x5600ULL, 0x56ffULL, 0x4b45ULL,
        0x7fffffffULL, 0x80000000ULL, 0xfffffffeULL, 0xffffffffULL, 0x100000000ULL}) {
    for (std::uint64_t hi : {0ULL, 1ULL << 32, 0xffffffffULL << 32, 1ULL << 63}) {
      for (int d = -2; d <= 2; ++d) v.push_back((base + static_cast<std::uint64_t>(d)) | hi);
    }
  }
  v.push_back(~0ULL);
  v.push_back(~0ULL - 1);
  std::mt19937_64 rng(42);
  for (int i = 0; i < 2000; ++i) v.push_back(rng());
  for (int i = 0; i < 2000; ++i) v.push_back(rng() & 0xffffffffULL);
  return v;
}

bool one_comparison_per_argument(const ArgRule& r) {
  std::set<unsigned> seen;
  for (const ArgCmp& c : r.all_of) {
    if (!seen.insert(c.arg).second) return false;
  }
  return true;
}

// Every combination the plan can ask for.
std::vector<SeccompOptions> option_sets() {
  std::vector<SeccompOptions> out;
  for (bool no_inet : {false, true}) {
    for (bool no_unix : {false, true}) {
      for (bool group : {false, true}) {
        for (bool all : {false, true}) {
          out.push_back({.no_inet_sockets = no_inet,
                         .no_unix_sockets = no_unix,
                         .guard_kill_group = group,
                         .guard_kill_all = all,
                         .guard_truncate = no_unix && group,
                         .guard_other_processes = no_unix && all,
                         .no_host_ipc = no_unix && !group,
                         .guard_signals = all,
                         .tcp_port_rules = group});
        }
      }
    }
  }
  return out;
}

TEST_CASE("every built-in argument filter's complement is exactly what its deny rules miss") {
  for (const SeccompOptions& o : option_sets()) {
    for (const ArgFilter& f : baseline_arg_filters(o)) {
      CAPTURE(f.syscall);
      CAPTURE(o.no_inet_sockets);
      CAPTURE(o.no_unix_sockets);
      CAPTURE(o.guard_kill_group);
      CAPTURE(o.guard_kill_all);
      CHECK(f.deny_errno > 0);
      CHECK_FALSE(f.deny.empty());
      // Only a filter that refuses every call has nothing left to allow.
      const bool no_sockets = o.no_inet_sockets && o.no_unix_sockets;
      const bool refuses_all = (no_sockets && (f.syscall == "socket" || f.syscall == "bind" ||
                                               f.syscall == "connect")) ||
                               f.syscall == "truncate" || f.syscall.starts_with("shm") ||
                               f.syscall.starts_with("sem") || f.syscall.starts_with("msg") ||
                               f.syscall.starts_with("mq_") || f.syscall == "pidfd_send_signal";
      CHECK(f.complement.empty() == refuses_all);
      for (const auto* rules : {&f.deny, &f.complement}) {
        for (const ArgRule& r : *rules) CHECK(one_comparison_per_argument(r));
      }
      for (std::uint64_t a : edge_values()) {
        for (std::uint64_t b : {0ULL, 1ULL, 2ULL, 9ULL, 0x5412ULL, 1ULL << 40, ~0ULL}) {
          // Vary the argument each filter looks at, and a second one.
          for (const SyscallArgs& args :
               {args0(a, b, b, b), args0(b, a, b, b), args0(b, b, a, b), args0(b, b, b, a),
                args0(b, a, a, b), args0(b, b, a, a)}) {
            const bool denied = any_matches(f.deny, args);
            const bool rest = any_matches(f.complement, args);
            if (denied == rest) {
              CAPTURE(args[0]);
              CAPTURE(args[1]);
              CAPTURE(args[2]);
              CAPTURE(args[3]);
              FAIL("deny and complement overlap or leave a gap");
            }
          }
        }
      }
    }
  }
}

const ArgFilter& filter_for(const std::vector<ArgFilter>& all, std::string_view name) {
  for (const ArgFilter& f : all) {
    if (f.syscall == name) return f;
  }
  FAIL("no filter for " << name);
  return all.front();
}

TEST_CASE("the built-in filters deny what the issue lists and allow ordinary calls") {
  const auto normal = baseline_arg_filters({});
  const auto unix_only = baseline_arg_filters({.no_inet_sockets = true});
  const auto inet_only = baseline_arg_filters({.no_unix_sockets = true});
  const auto no_sockets = baseline_arg_filters({.no_inet_sockets = true, .no_unix_sockets = true});
  const auto kill_group = baseline_arg_filters({.guard_kill_group = true});
  const auto kill_all = baseline_arg_filters({.guard_kill_group = true, .guard_kill_all = true});
  const auto kill_minus1 = baseline_arg_filters({.guard_kill_all = true});
  const auto trunc = baseline_arg_filters({.guard_truncate = true});
  const auto others = baseline_arg_filters({.guard_other_processes = true});
  const auto ipc = baseline_arg_filters({.no_host_ipc = true});
  const auto async = baseline_arg_filters({.guard_signals = true});
  struct Row {
    const std::vector<ArgFilter>* filters;
    const char* syscall;
    SyscallArgs args;
    bool denied;
  };
  const std::uint64_t high = 1ULL << 32;
  const auto AT_FDCWD_U = static_cast<std::uint64_t>(static_cast<std::int64_t>(AT_FDCWD));
  const Row rows[] = {
      {&normal, "ioctl", args0(0, TIOCSTI), true},
      // tcsetpgrp: refused by the filter, let through by the supervisor for
      // a caller in the foreground (terminal_guard.h); tcgetpgrp stays.
      {&normal, "ioctl", args0(0, TIOCSPGRP), true},
      {&normal, "ioctl", args0(0, TIOCSPGRP | high), true},
      {&normal, "ioctl", args0(0, TIOCGPGRP), false},
      // The terminal's settings, size, queues: the same (terminal_ioctls()).
      {&normal, "ioctl", args0(0, TCSETS), true},
      {&normal, "ioctl", args0(0, TCSETSW | high), true},
      {&normal, "ioctl", args0(0, TCSETAF), true},
      {&normal, "ioctl", args0(0, 0x402C542B), true},  // TCSETS2
      {&normal, "ioctl", args0(0, TIOCSWINSZ), true},
      {&normal, "ioctl", args0(0, TCFLSH), true},
      {&normal, "ioctl", args0(0, TCSBRK), true},
      {&normal, "ioctl", args0(0, TIOCSSOFTCAR), true},
      {&normal, "ioctl", args0(0, TIOCNXCL), true},
      {&normal, "ioctl", args0(0, TCGETS), false},
      {&normal, "ioctl", args0(0, TIOCGWINSZ), false},
      {&normal, "ioctl", args0(0, FIONREAD), false},
      {&normal, "ioctl", args0(3, FS_IOC_SETFLAGS), true},
      {&normal, "ioctl", args0(3, FS_IOC32_SETFLAGS | high), true},
      {&normal, "ioctl", args0(3, FS_IOC_FSSETXATTR), true},
      {&normal, "ioctl", args0(3, FS_IOC_ENABLE_VERITY), true},
      {&normal, "ioctl", args0(3, FS_IOC_GETFLAGS), false},
      {&normal, "ioctl", args0(3, FS_IOC_FSGETXATTR), false},
      {&normal, "ioctl", args0(3, FICLONE), false},
      // Without a PID namespace only the caller may be named.
      {&others, "prlimit64", args0(0, RLIMIT_FSIZE), false},
      {&others, "prlimit64", args0(1234, RLIMIT_FSIZE), true},
      {&others, "prlimit64", args0(high, RLIMIT_FSIZE), false},  // pid_t: the low half counts
      {&others, "prlimit64", args0(high | 1, RLIMIT_FSIZE), true},
      {&others, "sched_setaffinity", args0(0), false},
      {&others, "sched_setaffinity", args0(1), true},
      {&others, "sched_setscheduler", args0(77), true},
      {&others, "sched_setparam", args0(77), true},
      {&others, "sched_setattr", args0(77), true},
      {&others, "sched_setattr", args0(0), false},
      {&others, "setpriority", args0(PRIO_PROCESS, 0, 5), false},
      {&others, "setpriority", args0(PRIO_PROCESS, 1234, 5), true},
      {&others, "setpriority", args0(PRIO_PGRP, 0, 5), true},
      {&others, "setpriority", args0(PRIO_USER, 0, 5), true},
      {&others, "ioprio_set", args0(1 /* IOPRIO_WHO_PROCESS */, 0, 0), false},
      {&others, "ioprio_set", args0(1, 99, 0), true},
      {&others, "ioprio_set", args0(3 /* IOPRIO_WHO_USER */, 0, 0), true},
      {&ipc, "shmget", args0(0x4a41494c, 4096, 0600), true},
      {&async, "fcntl", args0(3, F_SETOWN, 1), true},
      {&async, "fcntl", args0(3, F_SETSIG, SIGKILL), true},
      {&async, "fcntl", args0(3, F_SETFL, O_ASYNC | O_NONBLOCK), true},
      {&async, "fcntl", args0(3, F_SETFL, O_NONBLOCK), false},
      {&async, "fcntl", args0(3, F_GETFL), false},
      {&async, "fcntl", args0(3, F_DUPFD_CLOEXEC, 10), false},
      {&async, "ioctl", args0(3, FIOASYNC), true},
      {&async, "ioctl", args0(3, FIOSETOWN), true},
      {&async, "ioctl", args0(3, SIOCSPGRP), true},
      {&async, "ioctl", args0(3, TIOCSTI), true},
      {&async, "ioctl", args0(3, TCGETS), false},
      {&normal, "ioctl", args0(3, FIOASYNC), false},
      {&ipc, "semget", args0(0), true},
      {&ipc, "mq_open", args0(0), true},
      {&normal, "ioctl", args0(0, TIOCSTI | high), true},  // high bits must not slip past
      {&normal, "ioctl", args0(0, TIOCLINUX | (0xdeadULL << 40)), true},
      {&normal, "ioctl", args0(0, TCGETS), false},
      {&normal, "ioctl", args0(0, FIONREAD), false},
      {&normal, "ioctl", args0(0, TIOCSTI + 1), false},
      {&normal, "clone", args0(SIGCHLD), false},
      {&normal, "clone",
       args0(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM |
             CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID),
       false},
      {&normal, "clone", args0(CLONE_NEWUSER | SIGCHLD), true},
      {&normal, "clone", args0(CLONE_NEWNET), true},
      {&normal, "clone", args0(CLONE_NEWNS | (1ULL << 40)), true},
      {&normal, "clone", args0(0x80 | SIGCHLD), false},  // the exit-signal byte, not NEWTIME
      {&normal, "unshare", args0(CLONE_NEWTIME), true},
      {&normal, "unshare", args0(CLONE_NEWUSER), true},
      {&normal, "unshare", args0(CLONE_FILES | CLONE_FS), false},
      {&normal, "socket", args0(AF_UNIX, SOCK_STREAM), false},
      {&normal, "socket", args0(AF_INET, SOCK_STREAM), false},
      {&normal, "socket", args0(AF_INET6, SOCK_DGRAM), false},
      {&normal, "socket", args0(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE), false},
      {&normal, "socket", args0(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT), true},
      {&normal, "socket", args0(AF_NETLINK, SOCK_RAW, NETLINK_KOBJECT_UEVENT), true},
      {&normal, "socket", args0(AF_PACKET, SOCK_RAW), true},
      {&normal, "socket", args0(AF_PACKET | high, SOCK_RAW), true},
      {&normal, "socket", args0(AF_INET | high, SOCK_RAW), true},  // fail closed
      {&normal, "socket", args0(AF_VSOCK, SOCK_STREAM), true},
      {&normal, "socket", args0(AF_ALG, SOCK_SEQPACKET), true},
      {&normal, "socket", args0(AF_UNSPEC), true},
      {&normal, "socket", args0(~0ULL), true},
      {&unix_only, "socket", args0(AF_UNIX, SOCK_STREAM), false},
      {&unix_only, "socket", args0(AF_INET, SOCK_STREAM), true},
      {&unix_only, "socket", args0(AF_INET6, SOCK_STREAM), true},
      {&unix_only, "socket", args0(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE), true},
      {&inet_only, "socket", args0(AF_UNIX, SOCK_STREAM), true},
      {&inet_only, "socket", args0(AF_UNIX, SOCK_DGRAM), true},
      {&inet_only, "socket", args0(AF_INET, SOCK_STREAM), false},
      {&inet_only, "socket", args0(AF_INET6, SOCK_DGRAM), false},
      {&inet_only, "socket", args0(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE), false},
      {&inet_only, "socket", args0(AF_PACKET, SOCK_RAW), true},
      {&no_sockets, "socket", args0(AF_UNIX, SOCK_STREAM), true},
      {&no_sockets, "socket", args0(AF_INET, SOCK_STREAM), true},
      {&no_sockets, "socket", args0(0), true},
      {&no_sockets, "socketpair", args0(AF_UNIX, SOCK_STREAM), false},
      {&normal, "socketpair", args0(AF_UNIX, SOCK_STREAM), false},
      {&normal, "socketpair", args0(AF_INET, SOCK_STREAM), true},
      {&normal, "chmod", args0(0, 04755), true},
      {&normal, "chmod", args0(0, 02755), true},
      {&normal, "chmod", args0(0, 06000 | high), true},
      {&normal, "chmod", args0(0, 0755), false},
      {&normal, "chmod", args0(0, 01777), false},  // sticky is fine
      {&normal, "fchmod", args0(3, 04000), true},
      {&normal, "fchmodat", args0(AT_FDCWD_U, 0, 02700), true},
      {&normal, "fchmodat", args0(AT_FDCWD_U, 0, 0700), false},
      {&normal, "fchmodat2", args0(AT_FDCWD_U, 0, 04700, 0x100), true},
      {&normal, "mknodat", args0(AT_FDCWD_U, 0, S_IFREG | 04700), true},
      {&normal, "mknod", args0(0, S_IFIFO | 0600), false},
      {&normal, "creat", args0(0, 04700), true},
      {&normal, "creat", args0(0, 0644), false},
      {&normal, "open", args0(0, O_CREAT | O_WRONLY, 04755), true},
      {&normal, "open", args0(0, O_WRONLY | O_CREAT | O_EXCL, 02755), true},
      {&normal, "open", args0(0, O_TMPFILE | O_RDWR, 04700), true},
      {&normal, "open", args0(0, 020000000 | O_RDWR, 04700),
       true},  // the kernel's tmpfile bit alone
      {&normal, "open", args0(0, O_CREAT | O_WRONLY, 0644), false},
      {&normal, "open", args0(0, O_RDONLY, 04755), false},  // no O_CREAT: the mode is ignored
      {&normal, "openat", args0(AT_FDCWD_U, 0, O_CREAT | O_WRONLY, 04755), true},
      {&normal, "openat", args0(AT_FDCWD_U, 0, O_TMPFILE | O_WRONLY, 02000), true},
      {&normal, "openat", args0(AT_FDCWD_U, 0, O_CREAT | O_WRONLY, 0666), false},
      {&normal, "openat", args0(AT_FDCWD_U, 0, O_RDWR | O_DIRECTORY, 06000), false},
      {&normal, "open", args0(0, O_RDONLY | O_TRUNC), false},  // Landlock or the mounts decide
      {&trunc, "open", args0(0, O_RDONLY | O_TRUNC), true},
      {&trunc, "open", args0(0, O_RDONLY | O_TRUNC | O_CLOEXEC | high), true},
      {&trunc, "open", args0(0, O_WRONLY | O_TRUNC), false},
      {&trunc, "open", args0(0, O_RDWR | O_TRUNC | O_CREAT, 0644), false},
      {&trunc, "open", args0(0, O_RDONLY | O_CLOEXEC), false},
      {&trunc, "open", args0(0, O_WRONLY | O_CREAT | O_TRUNC, 04755), true},  // set-ID still
      {&trunc, "openat", args0(AT_FDCWD_U, 0, O_RDONLY | O_TRUNC), true},
      {&trunc, "openat", args0(AT_FDCWD_U, 0, O_WRONLY | O_TRUNC), false},
      {&trunc, "truncate", args0(0, 0), true},
      {&normal, "personality", args0(PER_LINUX), false},
      {&normal, "personality", args0(0xffffffffULL), false},
      {&normal, "personality", args0(ADDR_NO_RANDOMIZE), true},
      {&normal, "personality", args0(READ_IMPLIES_EXEC), true},
      {&normal, "personality", args0(PER_LINUX32), true},
      {&normal, "personality", args0(0xfffffffeULL), true},
      {&normal, "personality", args0(1ULL << 32), true},
      {&kill_group, "kill", args0(0, SIGKILL), true},  // the caller's process group
      {&kill_group, "kill", args0(0, SIGSTOP), true},
      {&kill_group, "kill", args0(1ULL << 32, SIGKILL), true},  // an int: high bits ignored
      {&kill_group, "kill", args0(0xffffffffULL << 32, SIGTERM), true},
      {&kill_group, "kill", args0(1, SIGTERM), false},  // a pid inside the PID namespace
      {&kill_group, "kill", args0(57, SIGKILL), false},
      {&kill_group, "kill", args0(0xffffffffULL, SIGKILL), false},  // -1: the PID namespace
      {&kill_group, "kill", args0(0xfffffff6ULL, SIGTERM), false},  // -10: a group inside
      {&kill_all, "kill", args0(0, SIGKILL), true},
      {&kill_all, "kill", args0(0xffffffffULL, SIGKILL), true},  // -1: every process of the user
      {&kill_all, "kill", args0(~0ULL, SIGKILL), true},
      {&kill_all, "kill", args0(0x1ffffffffULL, SIGKILL), true},
      {&kill_all, "kill", args0(0xfffffffeULL, SIGKILL), false},
      {&kill_all, "kill", args0(4242, SIGTERM), false},
      {&kill_minus1, "kill", args0(0xffffffffULL, SIGKILL), true},  // own session: 0 is fine
      {&kill_minus1, "kill", args0(~0ULL, SIGKILL), true},
      {&kill_minus1, "kill", args0(0, SIGTERM), false},
      {&kill_minus1, "kill", args0(4242, SIGTERM), false},
  };
  for (const Row& r : rows) {
    CAPTURE(r.syscall);
    CAPTURE(r.args[0]);
    CAPTURE(r.args[1]);
    CAPTURE(r.args[2]);
    const ArgFilter& f = filter_for(*r.filters, r.syscall);
    CHECK(any_matches(f.deny, r.args) == r.denied);
  }
}

TEST_CASE("extended attribute writes are fixed rules answering EOPNOTSUPP") {
  int refused = 0;
  for (const FixedRule& r : baseline_fixed_rules()) {
    if (r.errnum != EOPNOTSUPP) continue;
    ++refused;
    CHECK(r.syscall.find("xattr") != std::string_view::npos);
    CHECK(r.profile_may_harden);
  }
  CHECK(refused == 8);
}

TEST_CASE("rules_and matches exactly what both lists match") {
  const std::vector<ArgRule> a = {{{ArgCmp{1, ArgOp::kMaskedEq, 0, 0x3}}},
                                  {{ArgCmp{2, ArgOp::kMaskedEq, 0x800, 0x800}}}};
  const std::vector<ArgRule> b = {{{ArgCmp{1, ArgOp::kMaskedEq, 0x200, 0x200}}},
                                  {{ArgCmp{1, ArgOp::kMaskedEq, 0x1, 0x1}}},
                                  {{ArgCmp{1, ArgOp::kEq, 7}}}};
  const auto both = rules_and(a, b);
  for (std::uint64_t x : edge_values()) {
    for (std::uint64_t y : {0ULL, 0x800ULL, 0xfffULL}) {
      const SyscallArgs args = args0(0, x, y);
      if (any_matches(both, args) != (any_matches(a, args) && any_matches(b, args)))
        FAIL("wrong for " << x << ", " << y);
    }
  }
  for (const ArgRule& r : both) CHECK(one_comparison_per_argument(r));
}

TEST_CASE("kill is filtered only when the plan asks for a guard") {
  for (const SeccompOptions& o : option_sets()) {
    bool has_kill = false;
    for (const ArgFilter& f : baseline_arg_filters(o)) has_kill = has_kill || f.syscall == "kill";
    CHECK(has_kill == (o.guard_kill_group || o.guard_kill_all));
  }
}

TEST_CASE("values outside an allowed set are covered by aligned blocks and one tail rule") {
  const std::vector<std::vector<std::uint64_t>> sets = {
      {1, 2, 10, 16}, {1}, {0}, {0, 0xffffffffULL}, {5, 6, 7, 8, 1000}, {0, ~0ULL}, {~0ULL}};
  for (const auto& allowed : sets) {
    const auto rules = rules_arg_outside(0, allowed);
    const std::set<std::uint64_t> in(allowed.begin(), allowed.end());
    for (std::uint64_t v : edge_values()) {
      CAPTURE(v);
      CHECK(any_matches(rules, args0(v)) == !in.contains(v));
    }
    for (std::uint64_t v = 0; v < 2048; ++v) {
      if (any_matches(rules, args0(v)) == in.contains(v)) FAIL("wrong for " << v);
    }
  }
  // [1, 0xfffffffe] needs 62 blocks; the tail one more.
  CHECK(rules_arg_outside(0, {0, 0xffffffffULL}).size() == 63);
  CHECK(rules_arg_outside(0, {1, 2, 10, 16}).size() == 7);
}

TEST_CASE("the low-32-bit complement matches every value except the two, whatever the high bits") {
  const std::vector<std::uint32_t> two = {TIOCSTI, TIOCLINUX};
  const auto in = rules_low32_in(1, two);
  const auto outside = rules_low32_outside(1, two);
  for (std::uint64_t hi : {0ULL, 1ULL << 32, 0xabcdULL << 40, 0xffffffffULL << 32}) {
    for (std::uint64_t lo = 0; lo < 0x10000; ++lo) {
      const SyscallArgs args = args0(0, hi | lo);
      const bool is_one = lo == two[0] || lo == two[1];
      if (any_matches(in, args) != is_one || any_matches(outside, args) == is_one) {
        FAIL("wrong for " << (hi | lo));
      }
    }
  }
  // Three gaps of the 32-bit space, each at most one aligned block per bit.
  CHECK(outside.size() <= 3 * 32);
}

TEST_CASE("the low-32-bit set and its complement split every value, whatever the high bits") {
  const std::vector<std::uint32_t> values = {0, 5, 6, 0x5412, 0x40086602, 0xfffffffe, 0xffffffff};
  const auto in = rules_low32_in(2, values);
  const auto outside = rules_low32_outside(2, values);
  std::vector<std::uint64_t> probes;
  for (std::uint32_t v : values)
    for (std::int64_t d = -2; d <= 2; ++d) probes.push_back(static_cast<std::uint32_t>(v + d));
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) probes.push_back(rng() & 0xffffffffULL);
  for (std::uint64_t hi : {0ULL, 1ULL << 32, 0xffffffffULL << 32}) {
    for (std::uint64_t lo : probes) {
      const SyscallArgs args = args0(0, 0, hi | lo);
      const bool listed = std::find(values.begin(), values.end(), lo) != values.end();
      if (any_matches(in, args) != listed || any_matches(outside, args) == listed)
        FAIL("wrong for " << (hi | lo));
    }
  }
  CHECK(rules_low32_outside(0, {}).size() == 1);  // everything: one block
}

TEST_CASE("the fixed rules keep execve allowed and answer clone3 and openat2 with ENOSYS") {
  bool saw_execve = false;
  bool saw_clone3 = false;
  bool saw_openat2 = false;
  for (const FixedRule& r : baseline_fixed_rules()) {
    if (r.syscall == "execve") saw_execve = r.errnum == 0;
    if (r.syscall == "clone3") saw_clone3 = r.errnum == ENOSYS;
    if (r.syscall == "openat2") saw_openat2 = r.errnum == ENOSYS;
  }
  CHECK(saw_execve);
  CHECK(saw_clone3);
  CHECK(saw_openat2);
}

}  // namespace
}  // namespace aj
