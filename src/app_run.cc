// `agentjail run`: prepare, refuse what cannot be enforced, launch.
#include <iostream>

#include "app_commands.h"
#include "base/exit_codes.h"
#include "base/log.h"
#include "launch/launcher.h"
#include "launch/layers.h"
#include "plan/plan_print.h"

namespace aj {
namespace {

// Profile settings whose enforcement is not built yet. The sandbox never runs
// with less than the user asked for: such a profile is refused.
std::vector<std::string> not_yet_enforced(const Policy& p) {
  std::vector<std::string> out;
  auto item = [&out](const SourceLoc& where, const std::string& what) {
    out.push_back((where.file.empty() ? "" : where.str() + ": ") + "not yet enforced: " + what);
  };
  if (!p.network.allow.empty()) item(p.network.allow.front().where, "[network] allow (proxy)");
  const auto& j = p.journal;
  if (j.path) item(j.path->where, "[journal] path");
  for (const auto* v : {&j.exec, &j.denied, &j.network, &j.required, &j.trace})
    if (*v && (*v)->value) item((*v)->where, "[journal]");
  return out;
}

// Says which protections are weaker than asked: always when degraded.
void report_layers(const Plan& plan, const PreparedLayers& layers) {
  for (const auto& why : plan.landlock.not_enforced) log::warn("Landlock: {}", why);
  for (const auto& c : layers.clamps)
    log::warn("limit {} lowered to the host's hard limit {}",
              to_string(layers.rlimits[c.index].kind), c.effective);
  if (!layers.cgroup_note.empty())
    log::warn("no cgroup limits ({}); rlimits only", layers.cgroup_note);
}

}  // namespace

int command_run(const CliOptions& o) {
  auto prepared = prepare(o);
  if (!prepared) return kExitSetupFailed;
  const Plan& plan = prepared->plan;

  auto refused = not_yet_enforced(prepared->policy);
  if (!refused.empty()) {
    for (const auto& r : refused) std::cerr << r << '\n';
    log::error("refusing to run: the profile asks for protection this version cannot enforce");
    return kExitSetupFailed;
  }
  if (o.dry_run) {
    std::cout << format_plan(plan);
    return 0;
  }

  LayerOptions layer_options;
  auto layers = prepare_layers(plan, prepared->policy, layer_options);
  if (!layers) {
    log::error("{}", layers.error().render());
    return kExitSetupFailed;
  }
  report_layers(plan, **layers);

  LaunchOptions lo;
  lo.timeout_ms = plan.timeout_ms;
  lo.pass_fds = o.pass_fds;
  lo.hooks = (*layers)->hooks();
  if ((*layers)->cgroup) lo.cgroup = &*(*layers)->cgroup;
  auto outcome = launch(plan, lo);
  if ((*layers)->cgroup) {
    CgroupEvents ev = read_cgroup_events(*(*layers)->cgroup);
    if (ev.oom_kills) log::warn("memory limit hit: {} process(es) killed", ev.oom_kills);
    if (ev.pids_max_hits) log::warn("process limit hit {} time(s)", ev.pids_max_hits);
    auto destroyed = destroy_session_cgroup(*(*layers)->cgroup);
    if (!destroyed) log::warn("{}", destroyed.error().render());
  }
  if (!outcome) {
    log::error("{}", outcome.error().render());
    return kExitSetupFailed;
  }
  if (outcome->failure) log::error("{}", describe_failure(plan, *outcome->failure));
  return outcome->exit_code;
}

}  // namespace aj
