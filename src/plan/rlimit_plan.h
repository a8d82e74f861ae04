// Resource limits as data: built from [limits] in the parent, applied in the
// child by sys/rlimits. Pure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "policy/policy.h"

namespace aj {

enum class RlimitKind {
  kAddressSpace,
  kProcesses,
  kOpenFiles,
  kFileSize,
  kCpuTime,
  kCore,
  kPendingSignals,
};

// The jail's share of the signals its user may have queued (RLIMIT_SIGPENDING
// is counted per user: the host's programs share it, and timer_create and
// sigqueue fail for all of them once the jail has taken the rest).
inline constexpr std::uint64_t kPendingSignalsCap = 1024;

// RLIM64_INFINITY, without including <sys/resource.h> in a pure module.
inline constexpr std::uint64_t kRlimInfinity = ~std::uint64_t{0};

struct RlimitSetting {
  RlimitKind kind;
  std::uint64_t soft;
  std::uint64_t hard;
  SourceLoc where;  // the [limits] entry; "built-in" for core dumps
  bool operator==(const RlimitSetting&) const = default;
};

// memory → address space (bytes), processes → RLIMIT_NPROC, open_files →
// RLIMIT_NOFILE, file_size → RLIMIT_FSIZE (bytes), cpu_time → RLIMIT_CPU
// (seconds, rounded up, at least 1). Core dumps are always 0, pending signals
// at most kPendingSignalsCap. Soft = hard.
// Ordered by RlimitKind; unset limits are left as inherited.
std::vector<RlimitSetting> build_rlimits(const LimitsPolicy& limits);

// A limit that cannot be applied as asked because the host's current hard
// limit is lower; agentjail never raises a limit, it keeps the lower one.
struct RlimitClamp {
  std::size_t index;  // into the settings vector
  std::uint64_t requested;
  std::uint64_t effective;
};

// Lowers every setting above the current hard limit to it (what apply_rlimits
// does in the child) and returns what changed, for the enforcement report.
// `current_hard` comes from sys/rlimits read_hard_limits(); a kind missing
// from it is treated as unlimited.
std::vector<RlimitClamp> clamp_rlimits(std::vector<RlimitSetting>& settings,
                                       const std::map<RlimitKind, std::uint64_t>& current_hard);

// "address-space", "processes", "open-files", "file-size", "cpu-time", "core",
// "pending-signals".
const char* to_string(RlimitKind kind);

}  // namespace aj
