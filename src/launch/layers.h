// The kernel walls applied to the command just before exec (rlimits, Landlock,
// seccomp) and the session cgroup. Prepared in the parent, before clone so the
// child only reads flat data, except the seccomp filter, which is handed over
// on the status socket once compiled (launcher.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "launch/child_spec.h"
#include "plan/plan.h"
#include "policy/policy.h"
#include "seccomp/filter.h"
#include "sys/cgroup.h"
#include "sys/landlock.h"

namespace aj {

struct PreparedLayers {
  std::vector<RlimitSetting> rlimits;  // clamped to the current hard limits
  std::vector<RlimitClamp> clamps;
  LandlockChildStorage landlock_storage;
  LandlockChildRules landlock_rules{};
  BpfProgram seccomp;    // the enforcing filter (compile_layer_seccomp)
  BpfProgram installed;  // `seccomp` with the user notifications
  std::optional<SessionCgroup> cgroup;
  std::string cgroup_note;  // why no cgroup limits, when asked for and unavailable

  ChildHooks hooks() const;
  // The filter the command installs: `installed` once compiled.
  SeccompHandoff seccomp_handoff() const;
};

struct LayerOptions {
  SeccompOptions seccomp;  // the built-in rules' host-dependent part
  // The supervisor is notified of refusals (and journals them), of every
  // execve when observe_exec, and of these (trace mode, the metadata guard).
  bool observe_exec = true;
  std::vector<int> notify_syscalls;
  bool create_cgroup = true;  // false for --dry-run: no side effects
};

// The result must stay at one address until the child has exec'd (the hooks
// point into it), hence the unique_ptr. The seccomp policy is checked but not
// compiled: the launcher compiles it while the child builds the jail (it needs
// the filter only just before exec).
Result<std::unique_ptr<PreparedLayers>> prepare_layers(const Plan& plan, const Policy& policy,
                                                       const LayerOptions& options);

// Fills layers.seccomp and layers.installed.
Result<void> compile_layer_seccomp(PreparedLayers& layers, const Policy& policy,
                                   const LayerOptions& options);

}  // namespace aj
