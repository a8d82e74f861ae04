#include "launch/layers.h"

#include <fmt/format.h>

#include "seccomp/notify_program.h"
#include "sys/rlimits.h"

namespace aj {
namespace {

int rlimits_hook(const void* ctx, int* index) noexcept {
  const auto* l = static_cast<const PreparedLayers*>(ctx);
  std::size_t failed = 0;
  int err = apply_rlimits(l->rlimits.data(), l->rlimits.size(), &failed);
  if (err) *index = static_cast<int>(failed);
  return err;
}

int landlock_hook(const void* ctx, int* index) noexcept {
  const auto* l = static_cast<const PreparedLayers*>(ctx);
  LandlockApplyError e{};
  int err = apply_landlock(l->landlock_rules, &e);
  if (err) *index = e.index;
  return err;
}

}  // namespace

ChildHooks PreparedLayers::hooks() const {
  ChildHooks h;
  if (!rlimits.empty()) {
    h.apply_rlimits = rlimits_hook;
    h.rlimits_ctx = this;
  }
  if (landlock_rules.abi > 0) {
    h.apply_landlock = landlock_hook;
    h.landlock_ctx = this;
  }
  return h;
}

Result<std::unique_ptr<PreparedLayers>> prepare_layers(const Plan& plan, const Policy& policy,
                                                       const LayerOptions& options) {
  auto layers = std::make_unique<PreparedLayers>();
  layers->rlimits = plan.rlimits;
  layers->clamps = clamp_rlimits(layers->rlimits, read_hard_limits());

  if (plan.landlock.active())
    layers->landlock_rules = make_child_rules(plan.landlock, layers->landlock_storage);

  // Only checked here; compile_layer_seccomp builds the filter later.
  AJ_TRY_CTX(check_seccomp_policy(policy.seccomp), "seccomp");

  if (options.create_cgroup && (plan.memory_max || plan.pids_max)) {
    CgroupSupport support = detect_cgroups();
    CgroupLimits limits;
    if (plan.memory_max && support.memory) limits.memory_max = plan.memory_max;
    if (plan.pids_max && support.pids) limits.pids_max = plan.pids_max;
    if (limits.memory_max || limits.pids_max) {
      auto cg = create_session_cgroup(support, plan.session_id, limits);
      if (cg)
        layers->cgroup = std::move(*cg);
      else
        layers->cgroup_note = cg.error().render();
      // A memory cgroup limits what is used; RLIMIT_AS would also cap what is
      // merely reserved, which breaks V8 and other large reservers.
      if (layers->cgroup && limits.memory_max) {
        std::erase_if(layers->rlimits,
                      [](const RlimitSetting& r) { return r.kind == RlimitKind::kAddressSpace; });
      }
    } else {
      layers->cgroup_note = support.reason.empty() ? "no usable cgroup controller" : support.reason;
    }
  }
  return layers;
}

Result<void> compile_layer_seccomp(PreparedLayers& layers, const Policy& policy,
                                   const LayerOptions& options) {
  layers.seccomp = AJ_TRY_CTX(compile_seccomp(policy.seccomp, options.seccomp), "seccomp");
  NotifyOptions no;
  no.exec = options.observe_exec;
  no.denials = true;
  no.extra = options.notify_syscalls;
  layers.installed = make_notifying_program(layers.seccomp, no);
  return {};
}

SeccompHandoff PreparedLayers::seccomp_handoff() const {
  const BpfProgram& p = installed.insns.empty() ? seccomp : installed;
  return {p.insns.data(), p.insns.size(), !installed.insns.empty()};
}

}  // namespace aj
