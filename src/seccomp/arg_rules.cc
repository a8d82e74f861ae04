#include "seccomp/arg_rules.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/fsverity.h>
#include <linux/netlink.h>
#include <linux/sockios.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <algorithm>
#include <bit>

namespace aj {
namespace {

constexpr std::uint64_t kLow32 = 0xffffffffULL;

// Namespace flags of clone(). CLONE_NEWTIME (0x80) is left out: in clone()'s
// flags that bit belongs to the exit signal (CSIGNAL), and the kernel strips it
// before looking at namespace flags; only clone3() and unshare() can ask for a
// time namespace.
constexpr std::uint64_t kCloneNamespaceFlags = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS |
                                               CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID |
                                               CLONE_NEWNET;
constexpr std::uint64_t kUnshareNamespaceFlags = kCloneNamespaceFlags | CLONE_NEWTIME;

// personality(): 0 is PER_LINUX, the default persona; 0xffffffff only queries.
// Everything else (ADDR_NO_RANDOMIZE, READ_IMPLIES_EXEC, other ABIs) changes
// how exec'd programs are laid out.
constexpr std::uint64_t kPersonalityQuery = 0xffffffffULL;

// Set-user-ID and set-group-ID bits. A file the command makes set-ID outlives
// the session and later runs, for whoever executes it, as the invoker: as root
// when root started the jail. Neither Landlock nor the mounts govern modes.
constexpr std::uint64_t kSetIdBits = S_ISUID | S_ISGID;
// The open flags that make the kernel use the mode argument: O_CREAT and the
// kernel's own __O_TMPFILE bit (glibc's __O_TMPFILE also holds O_DIRECTORY).
constexpr std::uint64_t kKernelTmpfileBit = 020000000;
constexpr std::uint64_t kModeUsingOpenFlags = O_CREAT | kKernelTmpfileBit;
constexpr std::string_view kNoSetIdWhy = "no set-user-ID or set-group-ID bits on files";
constexpr std::string_view kNoXattrWhy = "extended attributes cannot be changed";

// ext4's own numbers for setting the inode generation (_IOW('f', 4, long)
// and its 32-bit form), beside the generic FS_IOC_SETVERSION.
constexpr std::uint32_t kExt4SetVersion = 0x40086604;
constexpr std::uint32_t kExt4SetVersion32 = 0x40046604;

// ioctl requests refused everywhere: typing into the terminal, changing
// its line discipline (kernel code of the command's choosing, left on the
// caller's terminal) or locking it against opens; and changes
// to a file's attributes that neither Landlock nor the metadata guard
// governs, which the command could make on its inherited descriptors (a file
// its output is redirected to) or, without a user namespace, on any file of
// the user opened read-only (chattr's flags, the project ID, fs-verity, which
// makes a file read-only for good, an encryption policy).
const std::vector<std::uint32_t> kDeniedIoctls = {
    TIOCSTI,
    TIOCLINUX,
    TIOCSETD,  // the terminal's line discipline
    TIOCEXCL,  // no more opens of it
    TIOCNXCL,  // ...and its undoing, of another program's TIOCEXCL
    TCXONC,    // stopping its output: our own messages would block on it
    FS_IOC_SETFLAGS,
    FS_IOC32_SETFLAGS,
    FS_IOC_FSSETXATTR,
    FS_IOC_SETVERSION,
    FS_IOC32_SETVERSION,
    kExt4SetVersion,
    kExt4SetVersion32,
    FS_IOC_ENABLE_VERITY,
    FS_IOC_SET_ENCRYPTION_POLICY};
constexpr std::string_view kNoInodeFlagsWhy = "inode flags and attributes cannot be changed";

}  // namespace

// A background process may make these calls once it ignores SIGTTOU: a jail
// run with `&` could hand itself the foreground, turn echo back on under a
// password prompt, flush what was typed, set O_NONBLOCK... (the flags are
// the open file's: the jail gets its own, see launch/child.cc).
const std::vector<TerminalIoctl>& terminal_ioctls() {
  // _IOW('T', 0x2B..0x2D, struct termios2): that struct is in <asm/termbits.h>,
  // which cannot be included beside <termios.h>. 44 bytes on every Linux ABI
  // we build for.
  constexpr std::uint32_t kTermios2Size = 44;
  constexpr std::uint32_t kTcsets2 = _IOC(_IOC_WRITE, 'T', 0x2B, kTermios2Size);
  constexpr std::uint32_t kTcsetsw2 = _IOC(_IOC_WRITE, 'T', 0x2C, kTermios2Size);
  constexpr std::uint32_t kTcsetsf2 = _IOC(_IOC_WRITE, 'T', 0x2D, kTermios2Size);
  static const std::vector<TerminalIoctl> kList = {{TIOCSPGRP, "TIOCSPGRP"},
                                                   {TCSETS, "TCSETS"},
                                                   {TCSETSW, "TCSETSW"},
                                                   {TCSETSF, "TCSETSF"},
                                                   {TCSETA, "TCSETA"},
                                                   {TCSETAW, "TCSETAW"},
                                                   {TCSETAF, "TCSETAF"},
                                                   {kTcsets2, "TCSETS2"},
                                                   {kTcsetsw2, "TCSETSW2"},
                                                   {kTcsetsf2, "TCSETSF2"},
                                                   {TIOCSWINSZ, "TIOCSWINSZ"},
                                                   {TCFLSH, "TCFLSH"},
                                                   {TCSBRK, "TCSBRK"},
                                                   {TCSBRKP, "TCSBRKP"},
                                                   {TIOCSBRK, "TIOCSBRK"},
                                                   {TIOCCBRK, "TIOCCBRK"},
                                                   {TIOCSSOFTCAR, "TIOCSSOFTCAR"},
                                                   {TIOCNOTTY, "TIOCNOTTY"}};
  return kList;
}

namespace {

ArgCmp cmp(unsigned arg, ArgOp op, std::uint64_t datum, std::uint64_t mask = ~std::uint64_t{0}) {
  return ArgCmp{arg, op, datum, mask};
}

ArgFilter socket_filter(const SeccompOptions& o) {
  ArgFilter f{"socket", EAFNOSUPPORT, {}, {}, {}};
  std::vector<std::uint64_t> families;
  if (!o.no_unix_sockets) families.push_back(AF_UNIX);
  if (!o.no_inet_sockets) {
    families.push_back(AF_INET);
    families.push_back(AF_INET6);
    // AF_NETLINK only with NETLINK_ROUTE: glibc's getaddrinfo (AI_ADDRCONFIG),
    // if_nameindex and getifaddrs, Python's socket.if_nameindex and Node's
    // os.networkInterfaces() read addresses and links over it. Other netlink
    // protocols (audit, netfilter, uevents, ...) reach far more kernel code.
    families.push_back(AF_NETLINK);
  }
  if (o.no_unix_sockets && o.no_inet_sockets)
    f.why = "no sockets (socketpair only): no user namespace, --net none";
  else if (o.no_unix_sockets)
    f.why =
        "only AF_INET, AF_INET6 and AF_NETLINK with NETLINK_ROUTE (no user namespace: no AF_UNIX)";
  else if (o.no_inet_sockets)
    f.why = "only AF_UNIX sockets";
  else
    f.why = "only AF_UNIX, AF_INET, AF_INET6 and AF_NETLINK with NETLINK_ROUTE";
  f.deny = rules_arg_outside(0, families);
  f.complement = rules_arg_in(0, families);
  if (!o.no_inet_sockets) {
    // Split AF_NETLINK on the protocol (argument 2).
    auto is_netlink = [](const ArgRule& r) {
      return r.all_of.size() == 1 && r.all_of[0].op == ArgOp::kEq &&
             r.all_of[0].datum == AF_NETLINK;
    };
    std::erase_if(f.complement, is_netlink);
    f.complement.push_back({{cmp(0, ArgOp::kEq, AF_NETLINK), cmp(2, ArgOp::kEq, NETLINK_ROUTE)}});
    f.deny.push_back({{cmp(0, ArgOp::kEq, AF_NETLINK), cmp(2, ArgOp::kNe, NETLINK_ROUTE)}});
  }
  // Multipath TCP (IPPROTO_MPTCP) goes around Landlock's TCP port rules;
  // refused whatever the family (callers such as Go fall back to TCP). The
  // protocol is an int: its low half is what the kernel reads.
  constexpr std::uint32_t kMptcp = 262;
  for (const ArgRule& r : rules_low32_in(2, {kMptcp})) f.deny.push_back(r);
  f.complement = rules_and(f.complement, rules_low32_outside(2, {kMptcp}));
  return f;
}

// Without a user namespace no AF_UNIX socket() is allowed (one could reach
// the host's daemons), and a datagram pair would undo that: connect(2),
// sendto(2) or sendmsg(2) with an address send from it to any host datagram
// socket. Stream and seqpacket pairs stay connected to each other for good.
ArgFilter socketpair_filter(const SeccompOptions& o) {
  if (!o.no_unix_sockets)
    return {"socketpair", EAFNOSUPPORT, rules_arg_outside(0, {AF_UNIX}), rules_arg_in(0, {AF_UNIX}),
            "only AF_UNIX socket pairs"};
  constexpr std::uint64_t kTypeMask = 0xf;  // SOCK_TYPE_MASK: the rest are flags
  ArgFilter f{"socketpair",
              EAFNOSUPPORT,
              rules_arg_outside(0, {AF_UNIX}),
              {},
              "only AF_UNIX stream and seqpacket socket pairs (no user namespace: a datagram "
              "pair could send to the host's sockets)"};
  for (std::uint64_t type = 0; type <= kTypeMask; ++type) {
    const ArgRule r{{cmp(0, ArgOp::kEq, AF_UNIX), cmp(1, ArgOp::kMaskedEq, type, kTypeMask)}};
    (type == SOCK_STREAM || type == SOCK_SEQPACKET ? f.complement : f.deny).push_back(r);
  }
  return f;
}

// pids as the filter compares them: an int, only the low 32 bits count.
std::vector<std::uint32_t> as_low32(const std::vector<std::int32_t>& pids) {
  std::vector<std::uint32_t> out;
  for (std::int32_t p : pids) out.push_back(static_cast<std::uint32_t>(p));
  return out;
}

// kill(0) signals the caller's process group, kill(-1) every process the
// caller may signal; and the supervisor's and the init's pids.
ArgFilter kill_filter(const SeccompOptions& o) {
  std::vector<std::uint32_t> refused = as_low32(o.protected_pids);
  if (o.guard_kill_group) refused.push_back(0);
  if (o.guard_kill_all) refused.push_back(0xffffffffU);
  if (o.protected_pgid > 0) refused.push_back(static_cast<std::uint32_t>(-o.protected_pgid));
  const bool group = o.guard_kill_group, all = o.guard_kill_all;
  std::string_view why =
      group && all ? "kill(0) and kill(-1) refused (no Landlock signal scoping)"
      : group      ? "kill(0) refused (no Landlock signal scoping; the process group is shared)"
      : all        ? "kill(-1) refused (no Landlock signal scoping, no PID namespace)"
                   : "the supervisor and the init may not be signalled (no signal scoping)";
  return {"kill", EPERM, rules_low32_in(0, refused), rules_low32_outside(0, refused), why};
}

// A call naming a process by pid in `pid_arg`: only 0 (the caller) allowed.
ArgFilter own_process_filter(std::string_view syscall, unsigned pid_arg) {
  return {syscall, EPERM, rules_any_bit(pid_arg, kLow32), rules_no_bit(pid_arg, kLow32),
          "only the calling process (pid 0) may be named (no PID namespace)"};
}

// setpriority(which, who) and ioprio_set(which, who): only `which` = own_which
// (the process) with who = 0 (the caller); a process group or a user would
// reach processes outside the jail.
ArgFilter own_which_filter(std::string_view syscall, std::uint32_t own_which) {
  ArgFilter f{syscall,
              EPERM,
              rules_low32_outside(0, {own_which}),
              {},
              "only the calling process may be named (no PID namespace)"};
  for (const ArgRule& r : rules_any_bit(1, kLow32)) f.deny.push_back(r);
  f.complement = rules_and(rules_low32_in(0, {own_which}), rules_no_bit(1, kLow32));
  return f;
}

// fcntl: no F_SETLEASE (a lease needs only ownership, no Landlock right,
// and stalls everyone else's opens of the file for up to lease-break-time);
// with guard_signals no F_SETOWN, F_SETOWN_EX or F_SETSIG, and no F_SETFL
// with O_ASYNC.
ArgFilter fcntl_filter(bool guard_signals) {
  std::vector<std::uint32_t> refused = {F_SETLEASE};
  if (!guard_signals)
    return {"fcntl", EPERM, rules_low32_in(1, refused), rules_low32_outside(1, refused),
            "file leases refused (they would stall others' opens of the file)"};
  for (std::uint32_t cmd : {F_SETOWN, F_SETOWN_EX, F_SETSIG}) refused.push_back(cmd);
  std::vector<std::uint32_t> all = refused;
  all.push_back(F_SETFL);
  ArgFilter f{"fcntl", EPERM, rules_low32_in(1, refused), rules_low32_outside(1, all),
              "file leases and asynchronous-I/O signals refused (these would reach any "
              "process; no signal scoping)"};
  const auto setfl = rules_low32_in(1, {F_SETFL});
  for (const ArgRule& r : rules_and(setfl, rules_any_bit(2, O_ASYNC))) f.deny.push_back(r);
  for (const ArgRule& r : rules_and(setfl, rules_no_bit(2, O_ASYNC))) f.complement.push_back(r);
  return f;
}

// The whole call refused, whatever its arguments.
ArgFilter refused_filter(std::string_view syscall, int err, std::string_view why) {
  return {syscall, err, rules_arg_outside(0, {}), {}, why};
}

// chmod(2) and friends, mknod(2): refused when the mode holds a set-ID bit.
ArgFilter setid_mode_filter(std::string_view syscall, unsigned mode_arg) {
  return {syscall, EPERM, rules_any_bit(mode_arg, kSetIdBits), rules_no_bit(mode_arg, kSetIdBits),
          kNoSetIdWhy};
}

// open(2), openat(2): refused when the flags create a file (so the kernel uses
// the mode) and the mode holds a set-ID bit; with guard_truncate also when
// they truncate a file opened read-only (O_RDONLY | O_TRUNC), which only
// Landlock's TRUNCATE right governs.
ArgFilter open_filter(std::string_view syscall, unsigned flags_arg, unsigned mode_arg,
                      bool guard_truncate) {
  ArgFilter f{syscall, EPERM, {}, {}, kNoSetIdWhy};
  for (const ArgRule& flag : rules_any_bit(flags_arg, kModeUsingOpenFlags)) {
    for (const ArgRule& mode : rules_any_bit(mode_arg, kSetIdBits)) {
      f.deny.push_back({{flag.all_of[0], mode.all_of[0]}});
    }
  }
  f.complement = rules_no_bit(flags_arg, kModeUsingOpenFlags);
  for (const ArgRule& r : rules_no_bit(mode_arg, kSetIdBits)) f.complement.push_back(r);
  // Access mode 3 (O_ACCMODE: "for ioctl only") asks Landlock for no right
  // at all: the descriptor then truncates (O_TRUNC), takes leases and sends
  // ioctls to files outside every grant, another terminal of yours included.
  f.why = "no set-ID file modes; no access mode 3 (O_ACCMODE)";
  f.deny.push_back({{cmp(flags_arg, ArgOp::kMaskedEq, O_ACCMODE, O_ACCMODE)}});
  f.complement = rules_and(f.complement, {{{cmp(flags_arg, ArgOp::kMaskedEq, 0, 1)}},
                                          {{cmp(flags_arg, ArgOp::kMaskedEq, 0, 2)}}});
  if (!guard_truncate) return f;
  f.why =
      "no set-ID file modes; no access mode 3 (O_ACCMODE); no O_TRUNC on a read-only open (no "
      "Landlock TRUNCATE)";
  f.deny.push_back({{cmp(flags_arg, ArgOp::kMaskedEq, O_TRUNC, O_TRUNC | O_ACCMODE)}});
  // Not truncating: O_TRUNC clear, or opened for writing (then Landlock's
  // WRITE_FILE right decides).
  const std::vector<ArgRule> keeps = {{{cmp(flags_arg, ArgOp::kMaskedEq, 0, O_TRUNC)}},
                                      {{cmp(flags_arg, ArgOp::kMaskedEq, 1, 1)}},
                                      {{cmp(flags_arg, ArgOp::kMaskedEq, 2, 2)}}};
  f.complement = rules_and(f.complement, keeps);
  return f;
}

}  // namespace

bool ArgCmp::matches(const SyscallArgs& args) const {
  const std::uint64_t v = args[arg];
  switch (op) {
    case ArgOp::kEq: return v == datum;
    case ArgOp::kNe: return v != datum;
    case ArgOp::kGt: return v > datum;
    case ArgOp::kMaskedEq: return (v & mask) == datum;
  }
  return false;
}

bool ArgRule::matches(const SyscallArgs& args) const {
  return std::all_of(all_of.begin(), all_of.end(),
                     [&](const ArgCmp& c) { return c.matches(args); });
}

bool any_matches(const std::vector<ArgRule>& rules, const SyscallArgs& args) {
  return std::any_of(rules.begin(), rules.end(), [&](const ArgRule& r) { return r.matches(args); });
}

std::vector<ArgRule> rules_arg_in(unsigned arg, const std::vector<std::uint64_t>& values) {
  std::vector<ArgRule> out;
  for (std::uint64_t v : values) out.push_back({{cmp(arg, ArgOp::kEq, v)}});
  return out;
}

std::vector<ArgRule> rules_arg_outside(unsigned arg, std::vector<std::uint64_t> allowed) {
  std::sort(allowed.begin(), allowed.end());
  allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());
  std::vector<ArgRule> out;
  std::uint64_t lo = 0;  // first value not yet covered
  for (std::uint64_t a : allowed) {
    // Cover [lo, a - 1] with aligned blocks [start, start + size - 1].
    while (lo < a) {
      std::uint64_t size = lo == 0 ? (std::uint64_t{1} << 63) : (lo & (~lo + 1));
      while (size > a - lo) size >>= 1;
      if (size == 1) {
        out.push_back({{cmp(arg, ArgOp::kEq, lo)}});
      } else {
        out.push_back({{cmp(arg, ArgOp::kMaskedEq, lo, ~(size - 1))}});
      }
      lo += size;
    }
    lo = a + 1;  // a == UINT64_MAX would leave nothing above; the tail check handles it
  }
  if (allowed.empty()) {
    out.push_back({{cmp(arg, ArgOp::kMaskedEq, 0, 0)}});  // matches everything
  } else if (allowed.back() != ~std::uint64_t{0}) {
    out.push_back({{cmp(arg, ArgOp::kGt, allowed.back())}});
  }
  return out;
}

std::vector<ArgRule> rules_low32_in(unsigned arg, const std::vector<std::uint32_t>& values) {
  std::vector<ArgRule> out;
  for (std::uint32_t v : values) out.push_back({{cmp(arg, ArgOp::kMaskedEq, v, kLow32)}});
  return out;
}

std::vector<ArgRule> rules_low32_outside(unsigned arg, std::vector<std::uint32_t> values) {
  std::vector<Low32Block> blocks;
  for (std::uint32_t v : values) blocks.push_back({v, 1});
  return rules_low32_outside_blocks(arg, std::move(blocks));
}

std::vector<ArgRule> rules_low32_in_blocks(unsigned arg, const std::vector<Low32Block>& blocks) {
  std::vector<ArgRule> out;
  for (const Low32Block& b : blocks)
    out.push_back({{cmp(arg, ArgOp::kMaskedEq, b.start, kLow32 & ~(b.size - 1))}});
  return out;
}

std::vector<ArgRule> rules_low32_outside_blocks(unsigned arg, std::vector<Low32Block> blocks) {
  std::sort(blocks.begin(), blocks.end(),
            [](const Low32Block& a, const Low32Block& b) { return a.start < b.start; });
  std::vector<ArgRule> out;
  std::uint64_t lo = 0;                     // first value not yet covered
  auto cover_to = [&](std::uint64_t end) {  // [lo, end) in aligned blocks
    while (lo < end) {
      std::uint64_t size = lo == 0 ? (std::uint64_t{1} << 32) : (lo & (~lo + 1));
      while (size > end - lo) size >>= 1;
      out.push_back({{cmp(arg, ArgOp::kMaskedEq, lo, kLow32 & ~(size - 1))}});
      lo += size;
    }
  };
  for (const Low32Block& b : blocks) {
    cover_to(b.start);
    lo = std::max(lo, std::uint64_t{b.start} + b.size);
  }
  cover_to(std::uint64_t{1} << 32);
  return out;
}

std::vector<ArgRule> rules_any_bit(unsigned arg, std::uint64_t bits) {
  std::vector<ArgRule> out;
  for (unsigned i = 0; i < 64; ++i) {
    const std::uint64_t bit = std::uint64_t{1} << i;
    if (bits & bit) out.push_back({{cmp(arg, ArgOp::kMaskedEq, bit, bit)}});
  }
  return out;
}

std::vector<ArgRule> rules_and(const std::vector<ArgRule>& a, const std::vector<ArgRule>& b) {
  std::vector<ArgRule> out;
  for (const ArgRule& x : a) {
    for (const ArgRule& y : b) {
      ArgRule merged = x;
      bool possible = true;
      for (const ArgCmp& c : y.all_of) {
        auto same = std::find_if(merged.all_of.begin(), merged.all_of.end(),
                                 [&c](const ArgCmp& m) { return m.arg == c.arg; });
        if (same == merged.all_of.end()) {
          merged.all_of.push_back(c);
          continue;
        }
        // Two masked comparisons of one argument: one comparison over both
        // masks, unless they want different values of a shared bit.
        const std::uint64_t m1 = same->op == ArgOp::kEq ? ~std::uint64_t{0} : same->mask;
        const std::uint64_t m2 = c.op == ArgOp::kEq ? ~std::uint64_t{0} : c.mask;
        if ((same->op != ArgOp::kEq && same->op != ArgOp::kMaskedEq) ||
            (c.op != ArgOp::kEq && c.op != ArgOp::kMaskedEq) ||
            ((same->datum ^ c.datum) & m1 & m2) != 0) {
          possible = false;
          break;
        }
        *same = cmp(c.arg, ArgOp::kMaskedEq, same->datum | c.datum, m1 | m2);
      }
      if (possible) out.push_back(std::move(merged));
    }
  }
  return out;
}

std::vector<ArgRule> rules_no_bit(unsigned arg, std::uint64_t bits) {
  return {{{cmp(arg, ArgOp::kMaskedEq, 0, bits)}}};
}

std::vector<ArgFilter> baseline_arg_filters(const SeccompOptions& options) {
  std::vector<ArgFilter> out;
  std::vector<std::uint32_t> ioctls = kDeniedIoctls;
  for (const auto& t : terminal_ioctls()) ioctls.push_back(t.request);
  if (options.guard_signals) {
    for (std::uint32_t req : {FIOSETOWN, SIOCSPGRP, FIOASYNC}) ioctls.push_back(req);
    // A pidfd can also be an open /proc/<pid> directory, which names no pid a
    // filter could read: refused whole, as by a kernel before 5.1 (ENOSYS),
    // so that callers (Go's os.Process) fall back to kill.
    out.push_back(refused_filter(
        "pidfd_send_signal", ENOSYS,
        "pidfd_send_signal answered with ENOSYS (no signal scoping; callers fall back to kill)"));
  }
  // Linux console and VT ioctls ('K' and 'V', the old unencoded numbers):
  // the keyboard mode, fonts, colour and screen maps and the active VT of a
  // text console the command was started on outlive the session.
  std::vector<Low32Block> refused;
  for (std::uint32_t req : ioctls) refused.push_back({req, 1});
  for (std::uint32_t family : {0x4b00U, 0x5600U}) refused.push_back({family, 0x100});
  out.push_back({"ioctl", EPERM, rules_low32_in_blocks(1, refused),
                 rules_low32_outside_blocks(1, refused),
                 "TIOCSTI and TIOCLINUX (typing into the terminal), its foreground, settings, "
                 "window size, queues and breaks while another job holds it (the supervisor "
                 "answers), the text "
                 "console's KD* and "
                 "VT_* requests, and changing inode flags, versions, verity or encryption "
                 "policies (attributes Landlock does not govern) denied"});
  out.push_back({"clone", EPERM, rules_any_bit(0, kCloneNamespaceFlags),
                 rules_no_bit(0, kCloneNamespaceFlags), "no new namespaces"});
  out.push_back({"unshare", EPERM, rules_any_bit(0, kUnshareNamespaceFlags),
                 rules_no_bit(0, kUnshareNamespaceFlags), "no new namespaces"});
  out.push_back(socket_filter(options));
  // TCP Fast Open connects from sendto/sendmsg without connect(2), where
  // Landlock checks the port.
  if (options.tcp_port_rules)
    for (auto [syscall, flags_arg] :
         {std::pair{"sendto", 3U}, std::pair{"sendmsg", 2U}, std::pair{"sendmmsg", 3U}})
      out.push_back({syscall, EPERM, rules_any_bit(flags_arg, MSG_FASTOPEN),
                     rules_no_bit(flags_arg, MSG_FASTOPEN),
                     "no TCP Fast Open (MSG_FASTOPEN) while TCP port rules are in force: it "
                     "connects without connect(2), where Landlock checks the port"});
  out.push_back(fcntl_filter(options.guard_signals));
  out.push_back(socketpair_filter(options));
  if (options.no_unix_sockets && options.no_inet_sockets) {
    // Only socket pairs exist, already connected: naming an address could
    // only squat an abstract name the host's services expect to own.
    for (const char* syscall : {"bind", "connect"})
      out.push_back(refused_filter(syscall, EPERM,
                                   "no socket may bind or connect (no user namespace, --net none: "
                                   "socket pairs only)"));
  }
  out.push_back({"personality", EPERM, rules_arg_outside(0, {0, kPersonalityQuery}),
                 rules_arg_in(0, {0, kPersonalityQuery}),
                 "only the default persona (PER_LINUX) and queries"});
  for (auto [syscall, mode_arg] : {std::pair{"chmod", 1U},
                                   {"fchmod", 1U},
                                   {"fchmodat", 2U},
                                   {"fchmodat2", 2U},
                                   {"creat", 1U},
                                   {"mknod", 1U},
                                   {"mknodat", 2U}}) {
    out.push_back(setid_mode_filter(syscall, mode_arg));
  }
  out.push_back(open_filter("open", 1, 2, options.guard_truncate));
  out.push_back(open_filter("openat", 2, 3, options.guard_truncate));
  if (options.guard_truncate)
    out.push_back(refused_filter(
        "truncate", EPERM, "truncate(2) refused (no Landlock TRUNCATE, no read-only mounts)"));
  if (options.guard_other_processes) {
    for (const char* syscall : {"prlimit64", "sched_setaffinity", "sched_setscheduler",
                                "sched_setparam", "sched_setattr"})
      out.push_back(own_process_filter(syscall, 0));
    out.push_back(own_which_filter("setpriority", 0 /* PRIO_PROCESS */));
    out.push_back(own_which_filter("ioprio_set", 1 /* IOPRIO_WHO_PROCESS */));
  }
  if (options.no_host_ipc) {
    for (const char* syscall :
         {"shmget", "shmat", "shmctl", "semget", "semop", "semtimedop", "semctl", "msgget",
          "msgsnd", "msgrcv", "msgctl", "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive",
          "mq_notify", "mq_getsetattr"})
      out.push_back(refused_filter(syscall, EPERM, "the host's IPC objects (no IPC namespace)"));
  }
  if (options.guard_kill_group || options.guard_kill_all || !options.protected_pids.empty() ||
      options.protected_pgid > 0)
    out.push_back(kill_filter(options));
  if (!options.protected_pids.empty()) {
    const auto pids = as_low32(options.protected_pids);
    for (const char* syscall :
         {"tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_open"})
      out.push_back({syscall, EPERM, rules_low32_in(0, pids), rules_low32_outside(0, pids),
                     "the supervisor and the init may not be signalled (no signal scoping)"});
  }
  return out;
}

const std::vector<FixedRule>& baseline_fixed_rules() {
  static const std::vector<FixedRule> rules = {
      // The filter is installed just before execve(COMMAND): denying it would
      // make the jail unable to start anything.
      {"execve", 0, "always allowed: the filter is installed before the command is executed"},
      // clone3 passes its flags in a struct a filter cannot read; ENOSYS makes
      // glibc fall back to clone(), whose flags the filter checks.
      {"clone3", ENOSYS, "answered with ENOSYS so libc falls back to clone"},
      {"setns", EPERM, "joining other namespaces denied", true},
      // openat2 passes its flags and mode in a struct a filter cannot read, so
      // a set-ID mode could not be refused; ENOSYS, as from a kernel before
      // 5.6, makes libraries fall back to openat, whose mode the filter checks.
      {"openat2", ENOSYS, "answered with ENOSYS so callers fall back to openat", true},
      // Extended attributes: Landlock does not govern them, and a POSIX ACL
      // (system.posix_acl_access) is a chmod by another name, one the command
      // could make through the descriptors it inherits (its terminal) or,
      // without a user namespace, on any file of the user. EOPNOTSUPP is what
      // tools take as "not supported here" (cp -a, tar --xattrs, rsync -X).
      {"setxattr", EOPNOTSUPP, kNoXattrWhy, true},
      {"lsetxattr", EOPNOTSUPP, kNoXattrWhy, true},
      {"fsetxattr", EOPNOTSUPP, kNoXattrWhy, true},
      {"setxattrat", EOPNOTSUPP, kNoXattrWhy, true},
      {"removexattr", EOPNOTSUPP, kNoXattrWhy, true},
      {"lremovexattr", EOPNOTSUPP, kNoXattrWhy, true},
      {"fremovexattr", EOPNOTSUPP, kNoXattrWhy, true},
      {"removexattrat", EOPNOTSUPP, kNoXattrWhy, true},
      // FS_IOC_FSSETXATTR by path (Linux 6.17).
      {"file_setattr", EPERM, kNoInodeFlagsWhy, true},
  };
  return rules;
}

}  // namespace aj
