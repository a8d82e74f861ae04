// `agentjail run`: prepare, refuse what cannot be enforced, launch.
#include <iostream>

#include "app_commands.h"
#include "base/exit_codes.h"
#include "base/log.h"
#include "launch/launcher.h"
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
  if (!p.seccomp.deny.empty()) item(p.seccomp.deny.front().where, "[seccomp] deny");
  if (!p.seccomp.allow.empty()) item(p.seccomp.allow.front().where, "[seccomp] allow");
  if (p.seccomp.default_action) item(p.seccomp.default_action->where, "[seccomp] default");
  const auto& l = p.limits;
  for (const auto* v : {&l.memory, &l.processes, &l.open_files, &l.file_size, &l.cpu_time_ms})
    if (*v) item((*v)->where, "[limits]");
  if (!p.network.tcp_connect.empty()) item(p.network.tcp_connect.front().where, "[network] tcp_connect");
  if (!p.network.tcp_bind.empty()) item(p.network.tcp_bind.front().where, "[network] tcp_bind");
  if (!p.network.allow.empty()) item(p.network.allow.front().where, "[network] allow (proxy)");
  const auto& j = p.journal;
  if (j.path) item(j.path->where, "[journal] path");
  for (const auto* v : {&j.exec, &j.denied, &j.network, &j.required, &j.trace})
    if (*v && (*v)->value) item((*v)->where, "[journal]");
  return out;
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

  LaunchOptions lo;
  if (prepared->policy.limits.wall_time_ms) lo.timeout_ms = prepared->policy.limits.wall_time_ms->value;
  lo.pass_fds = o.pass_fds;
  auto outcome = launch(plan, lo);
  if (!outcome) {
    log::error("{}", outcome.error().render());
    return kExitSetupFailed;
  }
  if (outcome->failure) log::error("{}", describe_failure(plan, *outcome->failure));
  return outcome->exit_code;
}

}  // namespace aj
