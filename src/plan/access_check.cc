#include "plan/access_check.h"

#include "plan/mount_plan.h"

namespace aj {
namespace {

std::string rule_of(const MountOp& op) {
  return op.where.file.empty() ? "built in" : op.where.str();
}

}  // namespace

AccessDecision check_open(const Plan& plan, const std::string& path, bool write) {
  // The mount the path lies on decides, as the kernel would.
  const MountOp* best = mount_covering(plan.mounts, path);
  if (!best) {
    if (path == "/" && !write) return {true, "built in", ""};
    return {false, "not granted", write ? "the root is read-only" : "not in the jail's view"};
  }
  switch (best->kind) {
    case MountKind::kHideDir:
    case MountKind::kHideFile: return {false, rule_of(*best), "hidden"};
    case MountKind::kBindReadOnly:
    case MountKind::kRemountReadOnly:
      if (write) return {false, rule_of(*best), "read-only"};
      return {true, rule_of(*best), ""};
    case MountKind::kSymlink:
      // Resolved by the kernel to its target, which has its own rule.
      return {true, rule_of(*best), ""};
    default: return {true, rule_of(*best), ""};
  }
}

}  // namespace aj
