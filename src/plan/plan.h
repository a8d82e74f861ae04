// Policy + HostFacts -> Plan: everything the launcher will do, as values.
// Pure: the host is seen only through HostFacts and the Disk interface.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plan/host_facts.h"
#include "plan/landlock_plan.h"
#include "plan/mount_plan.h"
#include "plan/rlimit_plan.h"
#include "policy/policy.h"
#include "seccomp/arg_rules.h"

namespace aj {

struct PlanInputs {
  std::vector<std::string> argv;              // the command (empty for explain)
  std::optional<std::string> workspace;       // --workspace, else facts.cwd
  bool user_namespace = true;                 // false: Landlock + seccomp + rlimits only
  std::optional<std::string> journal_target;  // --journal PATH|-|fd:N
  // The jail gets a terminal of its own, relayed by the supervisor, instead
  // of sharing the caller's controlling terminal: its device (shown inside
  // as /dev/console), or empty when not made yet (--dry-run, explain).
  bool relay_terminal = false;
  std::string relayed_terminal;
};

struct Plan {
  std::string session_id;
  std::string workspace;  // empty when workspace = none
  std::string cwd;        // where the command starts, inside the jail
  MountPlan mounts;
  std::vector<ExpandedPath> hides;  // every requested hide, including moot ones
  NetMode net = NetMode::kNone;
  bool new_netns = true;  // false for --net host
  // A session (and process group) of the jail's own: kill(0) inside reaches
  // the jail only. Not when the jail shares the caller's controlling
  // terminal, whose job control and ^C need the jail in the caller's
  // foreground process group.
  bool own_session = false;
  // The jail's user namespace's share of the per-user limits it would
  // otherwise take whole from the caller's programs (HostFacts::user_limits):
  // half of each, written to its /proc/sys/user.
  std::vector<std::pair<std::string, long>> namespace_limits;
  // Run from a terminal, the jail gets one of its own (PlanInputs).
  bool terminal_relayed = false;
  bool user_namespace = true;
  // Without a user namespace there is no tmpfs: a private home and /tmp are
  // directories under this session directory instead (created by the caller).
  std::string private_dir;
  // There, what the profile grants under the real home is reached through
  // links the caller makes in the private one: (link, where it leads), as
  // ~/.claude -> /home/u/.claude. Landlock still decides what may be done.
  std::vector<std::pair<std::string, std::string>> home_links;
  std::uint32_t uid = 0, gid = 0;  // mapped to themselves inside
  std::string hostname = "agentjail";
  std::vector<std::string> argv;
  std::vector<std::string> env;                   // "NAME=VALUE", the command's whole environment
  std::vector<std::string> dropped_secret_names;  // host variables withheld (names only)
  LandlockPlan landlock;
  std::vector<RlimitSetting> rlimits;
  std::optional<std::uint64_t> memory_max;  // cgroup limit, when [limits] memory is set
  std::optional<std::uint64_t> pids_max;    // cgroup limit, when [limits] processes is set
  std::optional<std::uint64_t> timeout_ms;
  // Where the journal goes: a path (its directory is hidden from the jail),
  // "-" or "fd:N".
  std::string journal_target;
  // Paths the profile keeps read-only that the jail cannot: optional ones
  // missing at the start (nothing to bind), all inside a writable grant
  // without a mount namespace, and the files that would move a protected
  // .git's config and hooks elsewhere (commondir, config.worktree). Compared
  // before and after the command, and every change reported.
  std::vector<WatchedPath> watched;
  // Directories beneath which a symbolic link made during the session is
  // reported when it ends (git directories: git writes through such links).
  std::vector<WatchedPath> link_watched;
};

struct PlanResult {
  std::optional<Plan> plan;
  std::vector<std::string> errors;  // "FILE:LINE:COL: message" or a plain message
};

PlanResult build_plan(const Policy& policy, const HostFacts& facts, const Disk& disk,
                      const PlanInputs& inputs);

// What the built-in seccomp rules must make up for in this plan: missing
// network and mount namespaces (sockets) and Landlock's missing signal scoping
// (kill).
SeccompOptions builtin_seccomp_options(const Plan& plan);

// No PID namespace and no Landlock signal scoping: nothing in the kernel
// keeps the command's signals inside the session (supervise/signal_guard.h).
bool signals_unconfined(const Plan& plan);

// Once the jail's init exists: without a PID namespace or Landlock signal
// scoping, the supervisor, the init and (when the jail shares it) the
// supervisor's process group are kept from the command's signals.
void protect_session_pids(const Plan& plan, SeccompOptions& options, int supervisor, int init,
                          int supervisor_pgid);

}  // namespace aj
