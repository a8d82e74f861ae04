// The enforcement report: for every rule of the effective policy, which
// layer(s) enforce it on this host, or that it is not enforced and why; and
// the assumptions the sandbox rests on. This is agentjail's honest safety
// claim, printed by `explain` and (when degraded) at the start of a run.
#pragma once

#include <string>
#include <vector>

#include "plan/plan.h"
#include "policy/policy.h"

namespace aj {

struct ReportContext {
  bool user_namespace = true;
  int landlock_abi = 0;
  bool cgroup_memory = false;
  bool cgroup_pids = false;
  std::string cgroup_note;  // why no cgroup, when none
};

struct ReportRule {
  std::string action;   // "read", "write", "execute", "hidden", "network", "syscalls", ...
  std::string subject;  // a path, a port, a limit
  std::vector<std::string> layers;  // empty: not enforced
  std::string rule;                 // the profile item (file:line:col) or "built in"
  std::string note;                 // why not enforced, or a caveat
};

struct Report {
  std::vector<ReportRule> rules;
  std::vector<std::string> assumptions;

  // Rules with no enforcing layer, or with a caveat.
  bool degraded() const;
};

Report build_report(const Plan& plan, const Policy& policy, const ReportContext& ctx);

std::string format_report_text(const Report& report);
std::string format_report_json(const Report& report, const Plan& plan, const Policy& policy);

}  // namespace aj
