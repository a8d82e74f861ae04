// One function per subcommand; each returns the process exit code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/error.h"
#include "cli/cli.h"
#include "plan/plan.h"
#include "policy/policy.h"
#include "profile/diagnostic.h"
#include "profile/search.h"

namespace aj {

int command_run(const CliOptions& o);
int command_check(const CliOptions& o);
int command_explain(const CliOptions& o);
int command_features(const CliOptions& o);
int command_profiles(const CliOptions& o);
int command_journal(const CliOptions& o);   // app_journal.cc
int command_sessions(const CliOptions& o);  // app_journal.cc

// Shared by run and explain: profile chain + CLI layer -> Policy, then Plan.
struct Prepared {
  Policy policy;
  HostFacts facts;
  Plan plan;
};
std::vector<SearchDir> profile_search_path(const CliOptions& o);
void print_diagnostics(const std::vector<Diagnostic>& diags);

// Profile settings whose enforcement is not built yet, one line each. The
// sandbox never runs with less than the user asked for: such a profile is
// refused (by run, explain and check alike).
std::vector<std::string> not_yet_enforced(const Policy& p);

// `require = [...]` / --require: the layers asked for that this plan lacks,
// one line each; cgroup: whether the session has (or would get) a cgroup.
std::vector<std::string> missing_required(const Policy& policy, const Plan& plan, bool cgroup);

// Whether a session cgroup for the plan's limits can be made here (none is).
bool session_cgroup_possible(const Plan& plan);

// Prints every problem (one line each) and returns nullopt on failure.
// relayed_terminal: the device of the jail's own terminal when one was made
// (run); without it run plans a shared terminal, other subcommands and
// --dry-run show what run would do.
std::optional<Prepared> prepare(const CliOptions& o, bool user_namespace = true,
                                const std::string& relayed_terminal = {});

// Ubuntu's AppArmor restriction: user namespaces are created but powerless.
bool apparmor_blocks_userns();

}  // namespace aj
