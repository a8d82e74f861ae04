// Applying resource limits. apply_rlimits runs in the child after clone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>

#include "plan/rlimit_plan.h"

namespace aj {

// RLIMIT_* for a kind.
int rlimit_resource(RlimitKind kind) noexcept;

// Child side: allocation-free, async-signal-safe (raw prlimit64). Applies the
// settings in order. A limit is never raised: a value above the current hard
// limit is clamped to it (the parent reports that via clamp_rlimits), because
// raising needs CAP_SYS_RESOURCE in the initial user namespace, which the
// child does not have inside its user namespace, and because the lower
// existing ceiling is at least as strict as the policy asked. Returns 0, or
// an errno with *failed_index set to the setting that failed.
int apply_rlimits(const RlimitSetting* settings, std::size_t n, std::size_t* failed_index) noexcept;

// Parent side: the current hard limit of every kind, for clamp_rlimits().
std::map<RlimitKind, std::uint64_t> read_hard_limits();

}  // namespace aj
