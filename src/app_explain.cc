// `agentjail explain` and `agentjail features` (filled in below).
#include <iostream>

#include "app_commands.h"
#include "base/exit_codes.h"
#include "base/log.h"
#include "plan/plan_print.h"
#include "plan/report.h"
#include "sys/cgroup.h"

namespace aj {

ReportContext report_context(const Prepared& p) {
  ReportContext ctx;
  ctx.user_namespace = p.plan.user_namespace;
  ctx.landlock_abi = p.plan.landlock.abi;
  if (p.plan.memory_max || p.plan.pids_max) {
    CgroupSupport cg = detect_cgroups();
    ctx.cgroup_memory = cg.memory;
    ctx.cgroup_pids = cg.pids;
    ctx.cgroup_note = cg.reason;
  }
  return ctx;
}

int command_explain(const CliOptions& o) {
  // The plan `run` would make here: without user namespaces when asked, or
  // when AppArmor takes their power away.
  auto prepared = prepare(o, !o.no_userns && !apparmor_blocks_userns());
  if (!prepared) return kExitSetupFailed;
  Report report = build_report(prepared->plan, prepared->policy, report_context(*prepared));
  if (o.json) {
    std::cout << format_report_json(report, prepared->plan, prepared->policy);
    return 0;
  }
  std::string chain;
  for (const auto& f : prepared->policy.chain) chain += (chain.empty() ? "" : " <- ") + f;
  // Paths come from the workspace too (git metadata a project holds):
  // shown with control characters made visible.
  std::cout << log::terminal_safe_lines("Profile chain: " + chain + "\n\n" +
                                        format_plan(prepared->plan) + "\n" +
                                        format_report_text(report));
  return 0;
}

}  // namespace aj
