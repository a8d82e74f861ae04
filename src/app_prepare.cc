// Profile chain + command line -> Policy -> Plan, printing every problem.
#include <fmt/format.h>
#include <unistd.h>

#include <iostream>

#include "app_commands.h"
#include "base/log.h"
#include "cli/cli_layer.h"
#include "journal/summary.h"
#include "profile/loader.h"
#include "profile/search.h"
#include "seccomp/names.h"
#include "sys/cgroup.h"
#include "sys/host_probe.h"
#include "sys/make_dirs.h"
#include "sys/read_file.h"

extern char** environ;

namespace aj {
namespace {

std::string exe_dir() {
  const std::string path = read_link("/proc/self/exe").value_or("");
  return path.substr(0, path.rfind('/'));
}

}  // namespace

std::vector<SearchDir> profile_search_path(const CliOptions& o) {
  return make_search_path(search_inputs_from_env(o.profile_dir, is_build_tree(exe_dir())));
}

void print_diagnostics(const std::vector<Diagnostic>& diags) {
  // A profile's text (a misspelt key, say) may hold terminal controls: shown
  // escaped, as the journal reader shows what the command wrote.
  for (const auto& d : diags) std::cerr << display_safe(d.str()) << '\n';
}

std::optional<Policy> load_effective_policy(const CliOptions& o, const std::string& cwd) {
  auto layer = cli_layer(o, cwd);
  if (!layer) {
    log::error("{}", layer.error().render());
    return std::nullopt;
  }
  std::string profile = o.profile.value_or("default");
  LoadResult loaded = load_policy(profile, profile_search_path(o), {*layer}, seccomp_name_is_known);
  if (!loaded.policy) {
    print_diagnostics(loaded.diagnostics);
    log::error("profile '{}' cannot be used ({} problem{})", profile, loaded.diagnostics.size(),
               loaded.diagnostics.size() == 1 ? "" : "s");
    return std::nullopt;
  }
  return loaded.policy;
}

std::vector<std::string> not_yet_enforced(const Policy& p) {
  std::vector<std::string> out;
  auto item = [&out](const SourceLoc& where, const std::string& what) {
    out.push_back((where.file.empty() ? "" : where.str() + ": ") + "not yet enforced: " + what);
  };
  if (p.network.mode.value == NetMode::kProxy)
    item(p.network.mode.where, "[network] mode = \"proxy\"");
  if (!p.network.allow.empty()) item(p.network.allow.front().where, "[network] allow (proxy)");
  if (p.filesystem.workspace.value == WorkspaceMode::kOverlay)
    item(p.filesystem.workspace.where, "[filesystem] workspace = \"overlay\"");
  return out;
}

std::vector<std::string> missing_required(const Policy& policy, const Plan& plan, bool cgroup) {
  std::vector<std::string> out;
  int abi = plan.landlock.abi;
  for (const auto& r : policy.require) {
    const std::string& n = r.value;
    bool ok = (n == "userns" && plan.user_namespace) || (n == "netns" && plan.new_netns) ||
              (n == "landlock" && plan.landlock.active()) || (n == "landlock-net" && abi >= 4) ||
              (n == "landlock-scope" && abi >= 6) ||
              // The filter is compiled during the launch, which fails without it.
              n == "seccomp" || (n == "cgroup" && cgroup);
    if (!ok)
      out.push_back(fmt::format("{}: required layer '{}' is not available here", r.where.str(), n));
  }
  return out;
}

bool session_cgroup_possible(const Plan& plan) {
  if (!plan.memory_max && !plan.pids_max) return false;
  const CgroupSupport support = detect_cgroups();
  return (plan.memory_max && support.memory) || (plan.pids_max && support.pids);
}

std::optional<Prepared> prepare(const CliOptions& o, bool user_namespace,
                                const std::string& relayed_terminal) {
  auto facts = probe_host(environ);
  if (!facts) {
    log::error("{}", facts.error().render());
    return std::nullopt;
  }
  if (o.landlock_abi && *o.landlock_abi < facts->landlock_abi) {
    // Shows what a profile gives on an older kernel; never raises the ABI.
    log::warn("--landlock-abi {}: using Landlock ABI {} of this kernel's {}", *o.landlock_abi,
              *o.landlock_abi, facts->landlock_abi);
    facts->landlock_abi = *o.landlock_abi;
  }
  auto policy = load_effective_policy(o, facts->cwd);
  if (!policy) return std::nullopt;
  PlanInputs inputs;
  inputs.argv = o.command;
  inputs.user_namespace = user_namespace;
  inputs.journal_target = o.journal_target;
  inputs.relay_terminal = !o.share_terminal && (!relayed_terminal.empty() ||
                                                o.subcommand != Subcommand::kRun || o.dry_run);
  inputs.relayed_terminal = relayed_terminal;
  if (o.workspace) {
    std::string ws = *o.workspace;
    if (!ws.empty() && ws[0] != '/') ws = facts->cwd + "/" + ws;
    inputs.workspace = ws;
  }
  // The default journal directory exists before planning, so the plan can
  // hide it from the jail (a bound home would otherwise expose it).
  // A failure here is not fatal: the journal writer reports it later.
  if (o.subcommand == Subcommand::kRun && !o.dry_run)
    (void)make_private_dirs(facts->state_dir + "/sessions");
  RealDisk disk;
  PlanResult planned = build_plan(*policy, *facts, disk, inputs);
  if (!planned.plan) {
    for (const auto& e : planned.errors) std::cerr << display_safe(e) << '\n';
    log::error("cannot build the jail ({} problem{})", planned.errors.size(),
               planned.errors.size() == 1 ? "" : "s");
    return std::nullopt;
  }
  return Prepared{std::move(*policy), std::move(*facts), std::move(*planned.plan)};
}

}  // namespace aj
