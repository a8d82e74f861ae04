#include "seccomp/filter.h"

#include <errno.h>
#include <fmt/format.h>
#include <linux/filter.h>
#include <seccomp.h>

#include <map>
#include <set>

#include "seccomp/arg_program.h"
#include "seccomp/arg_rules.h"
#include "seccomp/groups.h"
#include "seccomp/lookup_prefix.h"
#include "seccomp/names.h"

namespace aj {

static_assert(sizeof(BpfInsn) == sizeof(sock_filter));
static_assert(offsetof(BpfInsn, code) == offsetof(sock_filter, code));
static_assert(offsetof(BpfInsn, jt) == offsetof(sock_filter, jt));
static_assert(offsetof(BpfInsn, jf) == offsetof(sock_filter, jf));
static_assert(offsetof(BpfInsn, k) == offsetof(sock_filter, k));

namespace {

// Native syscall numbers stay below this on x86_64 and aarch64 (x86_64's 512+
// are x32 entries, only reachable with the x32 bit, which the filter kills).
constexpr int kSyscallNumberLimit = 512;

// How a syscall was reached from a list: 0 not at all, 1 through a group,
// 2 by name. The more direct mention wins; a tie goes to deny.
struct Reach {
  int deny = 0;
  int allow = 0;
  const SourceLoc* deny_where = nullptr;
};

struct Compiler {
  LookupTable table;    // whole-syscall answers
  ArgProgramSpec args;  // the rules on arguments
  std::uint32_t profile_action = SCMP_ACT_ERRNO(EPERM);
  std::uint32_t default_action = SCMP_ACT_ALLOW;
  std::map<int, Reach> reach;

  std::uint32_t effective(int nr) const {
    auto it = reach.find(nr);
    if (it == reach.end()) return default_action;
    const Reach& r = it->second;
    if (r.deny == 0 && r.allow == 0) return default_action;
    return r.deny >= r.allow ? profile_action : SCMP_ACT_ALLOW;
  }
};

std::string located(const SourceLoc& where, const std::string& message) {
  return where.file.empty() ? message : where.str() + ": " + message;
}

bool is_denial(std::uint32_t action) {
  return action == SCMP_ACT_KILL_PROCESS || action == SCMP_ACT_KILL_THREAD ||
         (action & 0xffff0000U) == SCMP_ACT_ERRNO(0);
}

// The kernel's precedence when several answers apply; ties keep `a`.
int severity(std::uint32_t action) {
  if (action == SCMP_ACT_KILL_PROCESS) return 3;
  if (action == SCMP_ACT_KILL_THREAD) return 2;
  if ((action & 0xffff0000U) == SCMP_ACT_ERRNO(0)) return 1;
  return 0;
}
std::uint32_t harder(std::uint32_t a, std::uint32_t b) { return severity(b) > severity(a) ? b : a; }

std::string known_groups() {
  std::string out;
  for (const SyscallGroup& g : syscall_groups()) {
    if (!out.empty()) out += ", ";
    out += g.name;
  }
  return out;
}

Result<> mark_list(const StringList& list, bool deny, Compiler* c) {
  const char* key = deny ? "deny" : "allow";
  for (const Item<std::string>& item : list) {
    const std::string& name = item.value;
    std::vector<std::string_view> members;
    int level = 2;
    if (name.starts_with('@')) {
      if (find_syscall_group(name) == nullptr) {
        return fail(located(item.where, fmt::format("unknown syscall group '{}' in [seccomp] {} "
                                                    "(known groups: {})",
                                                    name, key, known_groups())));
      }
      members = expand_syscall_group(name);
      level = 1;
    } else {
      members.push_back(name);
    }
    for (std::string_view m : members) {
      const std::optional<int> nr = seccomp_syscall_number(m);
      if (!nr) {
        return fail(
            located(item.where, fmt::format("unknown system call '{}' in [seccomp] {}", m, key)));
      }
      if (*nr < 0) continue;  // not on this architecture: nothing to filter
      Reach& r = c->reach[*nr];
      if (deny && level > r.deny) {
        r.deny = level;
        r.deny_where = &item.where;
      }
      if (!deny) r.allow = std::max(r.allow, level);
    }
  }
  return {};
}

Result<std::uint32_t> action_of(const SeccompPolicy& p) {
  const SeccompAction a = p.action ? p.action->value : SeccompAction::kErrno;
  switch (a) {
    case SeccompAction::kKill: return SCMP_ACT_KILL_PROCESS;
    case SeccompAction::kLog: return SCMP_ACT_LOG;
    case SeccompAction::kErrno: break;
  }
  const int e = p.errno_value ? p.errno_value->value : EPERM;
  if (e < 1 || e > 4095) {
    const SourceLoc where = p.errno_value ? p.errno_value->where : SourceLoc{};
    return fail(
        located(where, fmt::format("[seccomp] errno must be between 1 and 4095, not {}", e)));
  }
  return SCMP_ACT_ERRNO(static_cast<std::uint32_t>(e));
}

// An answer for the whole syscall, whatever its arguments: into the lookup
// table (lookup_prefix.h), unless it is the default anyway.
void answer_whole(Compiler* c, int nr, std::uint32_t action) {
  if (action != c->default_action) c->table.answers[static_cast<std::uint32_t>(nr)] = action;
}

int native_nr(std::string_view name) { return seccomp_syscall_number(name).value_or(-1); }

void add_fixed_rules(Compiler* c, std::set<int>* special) {
  for (const FixedRule& f : baseline_fixed_rules()) {
    const int nr = native_nr(f.syscall);
    if (nr < 0) continue;
    special->insert(nr);
    std::uint32_t action = f.errnum == 0 ? SCMP_ACT_ALLOW : SCMP_ACT_ERRNO(f.errnum);
    if (f.profile_may_harden) action = harder(c->effective(nr), action);
    answer_whole(c, nr, action);
  }
}

// The profile decides what happens to the calls the built-in filter does not
// refuse (`rest`): a denial covers the whole syscall; otherwise the syscall
// gets a block of the argument program, written with whichever of the deny
// rules and their exact complement is shorter.
void add_arg_filters(Compiler* c, const SeccompOptions& o, std::set<int>* special) {
  for (const ArgFilter& f : baseline_arg_filters(o)) {
    const int nr = native_nr(f.syscall);
    if (nr < 0) continue;
    special->insert(nr);
    const std::uint32_t rest = c->effective(nr);
    const std::uint32_t refuse = SCMP_ACT_ERRNO(static_cast<std::uint32_t>(f.deny_errno));
    if (is_denial(rest)) {
      answer_whole(c, nr, rest);
    } else if (f.complement.empty()) {  // refuses every call
      answer_whole(c, nr, refuse);
    } else if (f.complement.size() < f.deny.size()) {
      c->args.blocks.push_back({static_cast<std::uint32_t>(nr), f.complement, rest, refuse});
    } else {
      c->args.blocks.push_back({static_cast<std::uint32_t>(nr), f.deny, refuse, rest});
    }
  }
}

// The profile's lists and action, checked, as the compiler's starting point.
Result<void> mark_policy(const SeccompPolicy& policy, Compiler* c) {
  c->profile_action = AJ_TRY(action_of(policy));
  const bool default_deny =
      policy.default_action && policy.default_action->value == SeccompDefault::kDeny;
  c->default_action = default_deny ? c->profile_action : SCMP_ACT_ALLOW;
  AJ_TRY(mark_list(policy.deny, true, c));
  AJ_TRY(mark_list(policy.allow, false, c));

  const int execve = native_nr("execve");
  if (auto it = c->reach.find(execve);
      it != c->reach.end() && it->second.deny_where != nullptr && is_denial(c->effective(execve))) {
    return fail(located(*it->second.deny_where,
                        "execve cannot be denied: the filter is installed just before the "
                        "command is executed"));
  }
  return {};
}

}  // namespace

Result<void> check_seccomp_policy(const SeccompPolicy& policy) {
  Compiler c;
  return mark_policy(policy, &c);
}

Result<BpfProgram> compile_seccomp(const SeccompPolicy& policy, const SeccompOptions& options) {
  Compiler c;
  AJ_TRY(mark_policy(policy, &c));

  c.table.native_arch = seccomp_native_arch();
  std::set<int> special;
  add_fixed_rules(&c, &special);
  add_arg_filters(&c, options, &special);
  for (const auto& [nr, r] : c.reach) {
    if (!special.contains(nr)) answer_whole(&c, nr, c.effective(nr));
  }
  // Syscalls newer than libseccomp's table: ENOSYS, so libc falls back to the
  // older call it knows (as it would on an older kernel), instead of failing on
  // EPERM or dying.
  if (is_denial(c.default_action) && c.default_action != SCMP_ACT_ERRNO(ENOSYS)) {
    c.table.range =
        LookupTable::Range{static_cast<std::uint32_t>(seccomp_highest_known_syscall() + 1),
                           kSyscallNumberLimit, SCMP_ACT_ERRNO(ENOSYS)};
  }
  // Other ABIs (i386 int 0x80) and x32 calls kill the process.
  c.args.native_arch = c.table.native_arch;
  c.args.x32 = c.table.native_arch == SCMP_ARCH_X86_64;
  c.args.foreign_action = SCMP_ACT_KILL_PROCESS;
  c.args.default_action = c.default_action;
  // Whole-syscall answers first, then the rules on arguments.
  BpfProgram prog = lookup_prefix(c.table);
  const BpfProgram rules = arg_program(c.args);
  if (rules.insns.empty()) return fail("a seccomp argument rule is too long for a BPF jump");
  prog.insns.insert(prog.insns.end(), rules.insns.begin(), rules.insns.end());
  static_assert(BPF_MAXINSNS == 4096, "kMaxSeccompInsns in launch/child_spec.h");
  if (prog.insns.size() > BPF_MAXINSNS) {
    return fail(fmt::format("the seccomp filter has {} instructions; the kernel accepts {}",
                            prog.insns.size(), BPF_MAXINSNS));
  }
  return prog;
}

}  // namespace aj
