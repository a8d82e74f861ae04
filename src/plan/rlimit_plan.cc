#include "plan/rlimit_plan.h"

#include <algorithm>
#include <optional>

namespace aj {
namespace {

void add(std::vector<RlimitSetting>& out, RlimitKind kind,
         const std::optional<Item<std::uint64_t>>& item) {
  if (item) out.push_back({kind, item->value, item->value, item->where});
}

}  // namespace

std::vector<RlimitSetting> build_rlimits(const LimitsPolicy& limits) {
  std::vector<RlimitSetting> out;
  add(out, RlimitKind::kAddressSpace, limits.memory);
  add(out, RlimitKind::kProcesses, limits.processes);
  add(out, RlimitKind::kOpenFiles, limits.open_files);
  add(out, RlimitKind::kFileSize, limits.file_size);
  if (limits.cpu_time_ms) {
    // RLIMIT_CPU counts whole seconds. Rounding up never cuts the budget
    // short; 0 would mean "killed at once" on some kernels and nothing
    // sensible on any, so the floor is one second.
    const std::uint64_t ms = limits.cpu_time_ms->value;
    const std::uint64_t secs = std::max<std::uint64_t>(1, ms / 1000 + (ms % 1000 != 0 ? 1 : 0));
    out.push_back({RlimitKind::kCpuTime, secs, secs, limits.cpu_time_ms->where});
  }
  // A core dump of the agent could hold the secrets it was passed, written
  // into the workspace.
  out.push_back({RlimitKind::kCore, 0, 0, SourceLoc{"built-in", 0, 0}});
  out.push_back({RlimitKind::kPendingSignals, kPendingSignalsCap, kPendingSignalsCap,
                 SourceLoc{"built-in", 0, 0}});
  return out;
}

std::vector<RlimitClamp> clamp_rlimits(std::vector<RlimitSetting>& settings,
                                       const std::map<RlimitKind, std::uint64_t>& current_hard) {
  std::vector<RlimitClamp> clamps;
  for (std::size_t i = 0; i < settings.size(); ++i) {
    RlimitSetting& s = settings[i];
    const auto it = current_hard.find(s.kind);
    if (it == current_hard.end() || s.hard <= it->second) continue;
    clamps.push_back({i, s.hard, it->second});
    s.hard = it->second;
    s.soft = std::min(s.soft, s.hard);
  }
  return clamps;
}

const char* to_string(RlimitKind kind) {
  switch (kind) {
    case RlimitKind::kAddressSpace: return "address-space";
    case RlimitKind::kProcesses: return "processes";
    case RlimitKind::kOpenFiles: return "open-files";
    case RlimitKind::kFileSize: return "file-size";
    case RlimitKind::kCpuTime: return "cpu-time";
    case RlimitKind::kCore: return "core";
    case RlimitKind::kPendingSignals: return "pending-signals";
  }
  return "?";
}

}  // namespace aj
