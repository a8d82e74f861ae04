#include "plan/plan.h"

#include <fmt/format.h>

#include "plan/env_plan.h"
#include "sys/landlock_abi.h"  // constants only, no system headers
#include "policy/variables.h"

namespace aj {
namespace {

Variables variables_for(const HostFacts& facts, const std::string& workspace) {
  Variables v;
  v.home = facts.home;
  v.workspace = workspace;
  v.tmpdir = facts.tmpdir;
  v.state = facts.state_dir;
  v.session = facts.session_id;
  return v;
}

std::vector<ExpandedPath> expand_list(const StringList& list, const Variables& vars,
                                      std::vector<std::string>& errors) {
  std::vector<ExpandedPath> out;
  for (const auto& item : list) {
    auto expanded = expand_variables(item.value, vars);
    std::string prefix = item.where.file.empty() ? "" : item.where.str() + ": ";
    if (!expanded) {
      errors.push_back(prefix + expanded.error().render());
      continue;
    }
    if (expanded->empty() || (*expanded)[0] != '/') {
      errors.push_back(prefix + fmt::format("'{}' is not an absolute path", *expanded));
      continue;
    }
    out.push_back({normalize_path(*expanded), item.where});
  }
  return out;
}

GrantKind grant_for(const MountOp& op) {
  switch (op.kind) {
    case MountKind::kBindReadOnly: return GrantKind::kRead;
    case MountKind::kProc: return GrantKind::kRead;
    case MountKind::kBindDevice:
    case MountKind::kDevpts: return GrantKind::kDevice;
    default: return GrantKind::kReadWrite;
  }
}

// Landlock, the second wall: every path the mount plan makes reachable is
// granted again, so a mistake in the mount view is not an escape.
LandlockPlan plan_landlock(const Policy& policy, const Plan& plan, int abi,
                           const std::vector<ExpandedPath>& exec) {
  LandlockInputs in;
  in.abi = abi;
  for (const auto& op : plan.mounts.ops) {
    switch (op.kind) {
      case MountKind::kHideDir:
      case MountKind::kHideFile:
      case MountKind::kSymlink:
      case MountKind::kRemountReadOnly: continue;
      case MountKind::kTmpfs:
        if (op.target == "/dev") continue;  // only the nodes, not the directory
        break;
      default: break;
    }
    GrantKind kind = grant_for(op);
    if (op.target == "/dev/shm") kind = GrantKind::kDevice;
    in.grants.push_back({op.target, kind, op.optional, op.where});
  }
  for (const auto& e : exec) in.grants.push_back({e.path, GrantKind::kExec, true, e.where});
  in.tcp_connect = policy.network.tcp_connect;
  in.tcp_bind = policy.network.tcp_bind;
  in.scope_ipc = true;
  LandlockPlan ll = build_landlock_plan(in);
  // Listing '/' shows only names of what was mounted; without it `ls /` and
  // some path-walking tools fail.
  if (ll.active())
    ll.paths.push_back({"/", landlock::kAccessFsReadDir, false, GrantKind::kRead, {}});
  return ll;
}

}  // namespace

PlanResult build_plan(const Policy& policy, const HostFacts& facts, const Disk& disk,
                      const PlanInputs& inputs) {
  PlanResult result;
  auto& errors = result.errors;
  Plan plan;
  plan.session_id = facts.session_id;
  plan.uid = facts.uid;
  plan.gid = facts.gid;
  plan.argv = inputs.argv;

  const auto& fs = policy.filesystem;
  if (fs.workspace.value == WorkspaceMode::kOverlay)
    errors.push_back(fs.workspace.where.str() + ": workspace = \"overlay\" is not yet enforced");
  if (fs.workspace.value != WorkspaceMode::kNone) {
    std::string ws = normalize_path(inputs.workspace.value_or(facts.cwd));
    FileKind kind = disk.kind(ws);
    if (ws == "/") {
      errors.push_back("the workspace cannot be '/'; choose a directory with --workspace");
    } else if (kind != FileKind::kDirectory) {
      errors.push_back(fmt::format("workspace '{}' is not a directory", ws));
    } else {
      plan.workspace = disk.real_path(ws).value_or(ws);
    }
  }

  Variables vars = variables_for(facts, plan.workspace);
  FilesystemRequest req;
  req.read_only = expand_list(fs.read_only, vars, errors);
  req.read_write = expand_list(fs.read_write, vars, errors);
  req.hide = expand_list(fs.hide, vars, errors);
  req.tmpfs = expand_list(fs.tmpfs, vars, errors);
  req.optional = expand_list(fs.optional, vars, errors);
  req.workspace = plan.workspace;
  req.workspace_where = {"workspace", 0, 0};
  plan.mounts = build_mount_plan(req, disk);
  for (auto& e : plan.mounts.errors) errors.push_back(e);

  plan.net = policy.network.mode.value;
  plan.new_netns = plan.net != NetMode::kHost;
  if (plan.net == NetMode::kProxy)
    errors.push_back(policy.network.mode.where.str() + ": network mode \"proxy\" is not yet enforced");

  // Start where the caller is when that place is visible, else the workspace.
  if (!plan.workspace.empty() && path_is_within(facts.cwd, plan.workspace))
    plan.cwd = facts.cwd;
  else if (visible_from_host(plan.mounts, facts.cwd))
    plan.cwd = facts.cwd;
  else
    plan.cwd = plan.workspace.empty() ? "/" : plan.workspace;

  // The home directory keeps its path; /tmp is private, so TMPDIR points there.
  EnvPlan env = build_env(policy.environment, facts.environ, facts.session_id,
                          {{"HOME", facts.home}, {"TMPDIR", "/tmp"}});
  plan.env = std::move(env.entries);
  plan.dropped_secret_names = std::move(env.dropped_secret_names);

  auto exec = expand_list(fs.exec, vars, errors);
  plan.landlock = plan_landlock(policy, plan, facts.landlock_abi, exec);
  plan.rlimits = build_rlimits(policy.limits);
  if (policy.limits.memory) plan.memory_max = policy.limits.memory->value;
  if (policy.limits.processes) plan.pids_max = policy.limits.processes->value;
  if (policy.limits.wall_time_ms) plan.timeout_ms = policy.limits.wall_time_ms->value;

  if (errors.empty()) result.plan = std::move(plan);
  return result;
}

}  // namespace aj
