// The built-in part of every seccomp filter, as data: argument filters and
// fixed answers that apply whatever the profile says. Pure: no libseccomp here,
// so the rule algebra (each filter's `complement` is exactly the calls its
// `deny` does not match) is unit-tested by evaluating rules directly.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace aj {

using SyscallArgs = std::array<std::uint64_t, 6>;

enum class ArgOp { kEq, kNe, kGt, kMaskedEq };

// One comparison of a 64-bit syscall argument (seccomp/arg_program.h writes
// it as BPF over the argument's two 32-bit halves).
struct ArgCmp {
  unsigned arg = 0;  // 0..5
  ArgOp op = ArgOp::kEq;
  std::uint64_t datum = 0;
  std::uint64_t mask = ~std::uint64_t{0};  // kMaskedEq: (value & mask) == datum

  bool matches(const SyscallArgs& args) const;
};

// All comparisons hold. A rule has at most one comparison per argument (as
// libseccomp required when it compiled them), so ranges are several rules.
struct ArgRule {
  std::vector<ArgCmp> all_of;

  bool matches(const SyscallArgs& args) const;
};

bool any_matches(const std::vector<ArgRule>& rules, const SyscallArgs& args);

struct ArgFilter {
  std::string_view syscall;
  int deny_errno = 0;
  std::vector<ArgRule> deny;        // calls refused with deny_errno
  std::vector<ArgRule> complement;  // exactly the calls `deny` does not match
  std::string_view why;
};

// A syscall whose answer the profile cannot change.
struct FixedRule {
  std::string_view syscall;
  int errnum = 0;  // 0: allowed
  std::string_view why;
  // A profile that kills on the call gets that (execve must stay allowed,
  // clone3 ENOSYS, or nothing would start or no thread be made).
  bool profile_may_harden = false;
};

// What the built-in filter must make up for on this host.
struct SeccompOptions {
  // No user namespace and --net none: no network namespace hides the host's
  // network, so no AF_INET, AF_INET6 or AF_NETLINK sockets.
  bool no_inet_sockets = false;
  // No user namespace: no mount namespace hides the host's unix socket paths
  // (the D-Bus session bus, whose systemd runs any command it is asked to;
  // docker.sock; ssh-agent) and no network namespace its abstract ones (X11):
  // Landlock does not govern connect(), so no AF_UNIX sockets (socketpair
  // still works).
  bool no_unix_sockets = false;
  // Landlock cannot keep signals inside the jail (ABI < 6) and the jail shares
  // the caller's process group: kill(0, sig) would reach the caller, its
  // script and the supervisor.
  bool guard_kill_group = false;
  // Landlock cannot keep signals inside the jail and there is no PID
  // namespace: kill(-1, sig) would reach every process of the user.
  bool guard_kill_all = false;
  // No mount namespace and no Landlock TRUNCATE right (ABI < 3): truncate(2)
  // and open(O_RDONLY | O_TRUNC) would empty any file the user may write,
  // outside the writable paths too.
  bool guard_truncate = false;
  // No PID namespace: prlimit, setpriority, ioprio_set and the sched_set*
  // calls would reach every process of the user (root's: the whole system)
  // by pid, and neither Landlock nor a capability check stands in the way
  // (the supervisor itself, killed through its RLIMIT_FSIZE, would leave the
  // session unrecorded and running). Only the caller itself (pid 0) may be
  // named.
  bool guard_other_processes = false;
  // No IPC namespace: System V shared memory, semaphores and message queues,
  // and POSIX message queues, are the host's (X11's MIT-SHM segments, a
  // database's shared memory): refused.
  bool no_host_ipc = false;
  // No PID namespace and no Landlock signal scoping: the supervisor and the
  // jail's init are processes of the same user that the command could
  // signal by pid (or the supervisor through its process group, when the
  // jail shares it), ending the session unrecorded and leaving its
  // processes behind. kill, tkill, tgkill, rt_sigqueueinfo,
  // rt_tgsigqueueinfo and pidfd_open may not name these pids (nor kill the
  // negated process group).
  std::vector<std::int32_t> protected_pids;
  // The same condition (no PID namespace, no Landlock signal scoping):
  // signals the kernel sends for the command (SIGIO, SIGURG, or any F_SETSIG
  // signal, SIGKILL included, to the owner of a descriptor) pass no gate but
  // the uid, so setting an owner (F_SETOWN, F_SETOWN_EX, FIOSETOWN,
  // SIOCSPGRP), a signal (F_SETSIG) or O_ASYNC (a terminal's owner is its
  // foreground group, set implicitly) is refused; and pidfd_send_signal,
  // whose target no filter can read, answers ENOSYS.
  bool guard_signals = false;
  std::int32_t protected_pgid = 0;  // 0: none
  // Landlock's TCP port rules are in force: a TCP Fast Open send
  // (MSG_FASTOPEN), which connects without connect(2), is refused.
  bool tcp_port_rules = false;
};

std::vector<ArgFilter> baseline_arg_filters(const SeccompOptions& options);

// ioctl requests that change a terminal for every process using it (its
// foreground group, settings, window size, queues, breaks): refused by the
// filter and let through by the supervisor unless another job holds the
// foreground of the terminal shared with the caller
// (supervise/terminal_guard.h). With their names, for the journal.
struct TerminalIoctl {
  std::uint32_t request;
  const char* name;
};
const std::vector<TerminalIoctl>& terminal_ioctls();
const std::vector<FixedRule>& baseline_fixed_rules();

// Building blocks, exposed for the tests.

// One rule per value: arg == v.
std::vector<ArgRule> rules_arg_in(unsigned arg, const std::vector<std::uint64_t>& values);
// Rules matching every 64-bit value not in `allowed`: the gaps between allowed
// values as aligned power-of-two blocks (one masked comparison each) and one
// "greater than the largest" rule.
std::vector<ArgRule> rules_arg_outside(unsigned arg, std::vector<std::uint64_t> allowed);
// Low 32 bits of arg equal to one of values (one rule each).
std::vector<ArgRule> rules_low32_in(unsigned arg, const std::vector<std::uint32_t>& values);
// Low 32 bits of arg equal to none of values, whatever the high bits: the
// gaps between the values as aligned blocks of the 32-bit space.
std::vector<ArgRule> rules_low32_outside(unsigned arg, std::vector<std::uint32_t> values);

// An aligned run of values of an int argument: start is a multiple of size,
// a power of two.
struct Low32Block {
  std::uint32_t start;
  std::uint64_t size;
};
std::vector<ArgRule> rules_low32_in_blocks(unsigned arg, const std::vector<Low32Block>& blocks);
// Exactly the values outside every block (the blocks may overlap).
std::vector<ArgRule> rules_low32_outside_blocks(unsigned arg, std::vector<Low32Block> blocks);
// One rule per bit: arg has that bit set.
std::vector<ArgRule> rules_any_bit(unsigned arg, std::uint64_t bits);
// arg has none of the bits set.
std::vector<ArgRule> rules_no_bit(unsigned arg, std::uint64_t bits);
// Rules matching what both lists match: every pair, with the comparisons of
// one argument merged into one (masked and equality comparisons only; a pair
// that wants different values of a bit matches nothing and is left out).
std::vector<ArgRule> rules_and(const std::vector<ArgRule>& a, const std::vector<ArgRule>& b);

}  // namespace aj
