// Landlock syscalls: ABI detection (parent) and applying a LandlockPlan in the
// sandboxed child after clone.
//
// Order in the child (see DESIGN.md): ... → drop capabilities + no_new_privs →
// apply_landlock() → seccomp → execve. Landlock comes after no_new_privs
// because restrict_self requires it (or CAP_SYS_ADMIN, which we have just
// dropped), and before seccomp so that its syscalls need not be allowed by the
// filter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/error.h"
#include "plan/landlock_plan.h"

namespace aj {

// The running kernel's Landlock ABI (1, 2, ...; may exceed landlock::kAbiMax),
// or 0 when Landlock is not built in or disabled at boot (ENOSYS, EOPNOTSUPP).
int landlock_abi_version() noexcept;

// A flat view of a LandlockPlan that the child can walk without allocating.
// Built in the parent by make_child_rules(); every pointer points into the
// plan or the storage, which must outlive the child's use of it.
struct LandlockChildPath {
  const char* path;  // NUL-terminated, absolute
  std::uint64_t access;
  bool optional;
  bool exact;  // open without following symbolic links (RESOLVE_NO_SYMLINKS)
};

struct LandlockChildPort {
  std::uint64_t port;
  std::uint64_t access;
};

struct LandlockChildRules {
  int abi = 0;
  std::uint64_t handled_fs = 0;
  std::uint64_t handled_net = 0;
  std::uint64_t scoped = 0;
  std::uint32_t restrict_flags = 0;
  std::uint64_t dir_only_fs = 0;  // stripped from rules on non-directories
  const LandlockChildPath* paths = nullptr;
  std::size_t path_count = 0;
  const LandlockChildPort* ports = nullptr;
  std::size_t port_count = 0;
};

struct LandlockChildStorage {
  std::vector<LandlockChildPath> paths;
  std::vector<LandlockChildPort> ports;
};

// Parent side, before clone. Index i of the view is index i of plan.paths /
// plan.ports, so an error's index names the plan rule.
LandlockChildRules make_child_rules(const LandlockPlan& plan, LandlockChildStorage& storage);

enum class LandlockStage : int {
  kNone = 0,
  kCreateRuleset,  // index -1
  kOpenPath,       // index into paths
  kStatPath,       // index into paths
  kAddPathRule,    // index into paths
  kAddPortRule,    // index into ports
  kRestrictSelf,   // index -1
};

const char* to_string(LandlockStage s);

// A fixed-size failure record, fit for the child's status pipe.
struct LandlockApplyError {
  LandlockStage stage = LandlockStage::kNone;
  int index = -1;
  int err = 0;  // errno
};

// Child side, after clone. Builds the ruleset from `rules` and enforces it on
// the calling thread. Returns 0, or an errno with *err filled in.
//
// The caller MUST set no_new_privs (prctl PR_SET_NO_NEW_PRIVS) first; this
// function does not, so that the layer order stays visible in one place.
//
// noexcept, allocation-free, async-signal-safe: only open/fstat/close and raw
// syscalls. Paths are opened O_PATH|O_CLOEXEC (following symlinks, so a rule
// applies to the target); a missing (ENOENT) optional path is skipped.
// Directory-only rights are stripped when the opened path is not a directory.
// Does nothing and returns 0 when the rules restrict nothing (ABI 0).
int apply_landlock(const LandlockChildRules& rules, LandlockApplyError* err) noexcept;

// Parent side: the error record, rendered against the plan it came from, e.g.
// "Landlock rule 3 (read, default.toml:14): open '/data': No such file or directory".
Error landlock_apply_error(const LandlockApplyError& e, const LandlockPlan& plan);

}  // namespace aj
