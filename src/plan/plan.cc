#include "plan/plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "plan/env_plan.h"
#include "plan/git_protect.h"
#include "policy/variables.h"
#include "sys/landlock_abi.h"  // constants only, no system headers

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

// The read-write bind holding `path` (not the path itself), or nullptr.
const MountOp* writable_bind_holding(const MountPlan& mounts, const std::string& path) {
  for (const auto& op : mounts.ops)
    if (op.kind == MountKind::kBindReadWrite && op.target != path &&
        path_is_within(path, op.target))
      return &op;
  return nullptr;
}

// Without a mount namespace Landlock is the only wall: grant the host paths
// the mount plan would have bound, never a tmpfs path (it would be the host's
// shared /tmp or home), and say which hides and read-only paths cannot be
// enforced.
void host_grants(const Plan& plan, LandlockInputs& in, std::vector<std::string>& notes) {
  for (const auto& op : plan.mounts.ops) {
    // Landlock grants add up: a read-only path inside a writable one (the
    // default profile's .git/hooks and .git/config) stays writable.
    const MountOp* holder = op.kind == MountKind::kBindReadOnly
                                ? writable_bind_holding(plan.mounts, op.target)
                                : nullptr;
    if (holder)
      notes.push_back(fmt::format(
          "read-only '{}' ({}): no mount namespace; still writable through the grant '{}' that "
          "contains it (changes are reported when the command ends)",
          op.target, op.where.str(), holder->target));
    if (op.kind == MountKind::kTmpfs && !op.where.file.empty())
      if (const MountOp* rw = writable_bind_holding(plan.mounts, op.target))
        notes.push_back(fmt::format(
            "tmpfs '{}' ({}): no mount namespace; the host's directory is used, writable "
            "through the grant '{}' (changes are reported when the command ends)",
            op.target, op.where.str(), rw->target));
    switch (op.kind) {
      case MountKind::kBindReadOnly:
      case MountKind::kBindReadWrite:
      case MountKind::kBindDevice:
        // The host's object: for the caller's terminal (bound at
        // /dev/console) its own /dev/pts/N, never the host's /dev/console.
        in.grants.push_back({op.source, grant_for(op), op.optional, op.where, true});
        break;
      case MountKind::kProc:
        in.grants.push_back({"/proc", GrantKind::kRead, false, op.where});
        // The host's /proc, whole: the built-in hides below have no place to
        // go. For an ordinary user the kernel keeps most of them root's.
        if (plan.uid == 0)
          notes.push_back(
              "the built-in hides of /proc (kallsyms, keys, timer_list, slabinfo, ...): no mount "
              "namespace; readable through the /proc grant (the host's /proc)");
        break;
      case MountKind::kHideDir:
      case MountKind::kHideFile:
        if (!op.where.file.empty())
          notes.push_back(
              fmt::format("hide '{}' ({}): no mount namespace; still readable through "
                          "the grant that contains it",
                          op.target, op.where.str()));
        break;
      default: break;
    }
  }
  // Not /dev/pts: it holds every terminal of the user (root: of everyone),
  // to read what is typed there and to write fake prompts. Only the
  // caller's own terminal, granted above.
  in.grants.push_back({plan.private_dir + "/home", GrantKind::kReadWrite, false, {}});
  in.grants.push_back({plan.private_dir + "/tmp", GrantKind::kReadWrite, false, {}});
  in.deny_all_tcp = plan.net == NetMode::kNone || plan.net == NetMode::kLoopback;
}

// Landlock, the second wall: every path the mount plan makes reachable is
// granted again, so a mistake in the mount view is not an escape.
LandlockPlan plan_landlock(const Policy& policy, const Plan& plan, int abi,
                           const std::vector<PathGrant>& exec) {
  LandlockInputs in;
  in.abi = abi;
  std::vector<std::string> notes;
  if (!plan.user_namespace) host_grants(plan, in, notes);
  for (const auto& op : plan.user_namespace ? plan.mounts.ops : std::vector<MountOp>{}) {
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
    in.grants.push_back({op.target, kind, op.optional, op.where, op.is_bind()});
  }
  in.grants.insert(in.grants.end(), exec.begin(), exec.end());
  in.tcp_connect = policy.network.tcp_connect;
  in.tcp_bind = policy.network.tcp_bind;
  in.scope_ipc = true;
  LandlockPlan ll = build_landlock_plan(in);
  ll.not_enforced.insert(ll.not_enforced.end(), notes.begin(), notes.end());
  if (!plan.user_namespace) return ll;  // '/' is the host's: grant nothing there
  // Listing '/' shows only names of what was mounted; without it `ls /` and
  // some path-walking tools fail.
  if (ll.active())
    ll.paths.push_back({"/", landlock::kAccessFsReadDir, false, GrantKind::kRead, {}});
  return ll;
}

// Writable and not executable: mounted noexec. Where no writable path is
// executable at all (strict), the private tmpfs directories (/tmp, home,
// /dev/shm) too, or the loader would run from there what it may not from the
// workspace; where one is (default: the workspace), /tmp stays as it is:
// noexec there would only break programs that map code from it.
void mark_noexec(MountPlan& mounts, const std::vector<PathGrant>& exec) {
  auto executable = [&exec](const std::string& target) {
    return std::any_of(exec.begin(), exec.end(), [&target](const PathGrant& e) {
      return path_is_within(target, e.path) || path_is_within(e.path, target);
    });
  };
  auto writable = [](const MountOp& op) {
    return op.kind == MountKind::kBindReadWrite ||
           (op.kind == MountKind::kTmpfs && op.target != "/dev");
  };
  const bool writable_exec =
      std::any_of(mounts.ops.begin(), mounts.ops.end(),
                  [&](const MountOp& op) { return writable(op) && executable(op.target); });
  for (auto& op : mounts.ops)
    if (writable(op))
      op.noexec = op.kind == MountKind::kBindReadWrite ? !executable(op.target) : !writable_exec;
}

// See Plan::watched.
std::vector<WatchedPath> watched_paths(const Plan& plan,
                                       const std::vector<WatchedPath>& git_watched) {
  std::vector<WatchedPath> out;
  for (const auto& u : plan.mounts.unguarded)
    out.push_back({u.path, u.where, "read-only in the profile, but missing when the jail started"});
  // A read-only bind inside a writable path: without a mount namespace it
  // is only a Landlock grant, which the writable one outweighs; with one, the
  // bind holds, but a directory above it (up to the writable bind) can be
  // renamed, taking the bind along, and another put in its place.
  for (const auto& op : plan.mounts.ops)
    if (op.kind == MountKind::kBindReadOnly && writable_bind_holding(plan.mounts, op.target))
      out.push_back({op.target, op.where,
                     plan.user_namespace
                         ? "read-only in the profile; a directory above it could be renamed and "
                           "another put in its place"
                         : "read-only in the profile, but inside a writable path and without a "
                           "mount namespace"});
  for (const auto& w : git_watched)
    if (writable_bind_holding(plan.mounts, w.path)) out.push_back(w);
  // A private tmpfs inside a writable path, without a mount namespace: the
  // host's directory, which what is written there outlives the session in.
  if (!plan.user_namespace)
    for (const auto& op : plan.mounts.ops)
      if (op.kind == MountKind::kTmpfs && !op.where.file.empty() &&
          writable_bind_holding(plan.mounts, op.target))
        out.push_back({op.target, op.where,
                       "private to the session in the profile, but without a mount namespace "
                       "the host's directory is used"});
  for (const auto& l : plan.mounts.links)
    if (writable_bind_holding(plan.mounts, l.path))
      out.push_back({l.path, l.where,
                     "a symbolic link on the way to a read-only path: pointed elsewhere, it "
                     "would lead to files the command made"});
  std::vector<WatchedPath> unique;
  for (auto& e : out) {
    bool seen = false;
    for (const auto& u : unique) seen = seen || u.path == e.path;
    if (!seen) unique.push_back(std::move(e));
  }
  return unique;
}

// Hiding the journal's directory must not hide what the jail is for, and
// without a mount namespace nothing can be hidden inside a grant at all.
void check_journal_placement(const Plan& plan, const FilesystemRequest& req, const std::string& dir,
                             std::vector<std::string>& errors) {
  if (dir.empty()) return;
  std::vector<std::pair<std::string, bool>> granted;  // path, writable
  if (!req.workspace.empty()) granted.push_back({req.workspace, true});
  for (const auto& p : req.read_write) granted.push_back({p.path, true});
  for (const auto& p : req.read_only) granted.push_back({p.path, false});
  for (const auto& [path, writable] : granted) {
    if (path_is_within(path, dir)) {
      errors.push_back(fmt::format(
          "the journal's directory '{}' holds '{}', which the jail needs: choose another "
          "--journal path",
          dir, path));
      return;
    }
    if (!plan.user_namespace && path_is_within(dir, path)) {
      errors.push_back(fmt::format(
          "without a user namespace the journal's directory '{}' cannot be hidden from the "
          "jail, which may {} '{}': choose a --journal path outside it",
          dir, writable ? "write" : "read", path));
      return;
    }
  }
}

// Places that make a poor implicit workspace: the home directory and its
// ancestors, and the machine's shared scratch and runtime directories.
bool is_shared_place(const std::string& ws, const std::string& home) {
  if (!home.empty() && home != "/" && path_is_within(home, ws)) return true;
  for (const char* shared : {"/tmp", "/var/tmp", "/run", "/dev/shm", "/var", "/etc", "/usr"})
    if (ws == shared) return true;
  return false;
}

// The directory of a journal file, to hide from the jail; empty for a stream
// ("-", "fd:N"), "off", or a directory agentjail builds itself (/dev, /proc
// hold no host files) or cannot hide ('/').
std::string journal_dir_to_hide(const std::string& target) {
  if (target.empty() || target == "-" || target == "off" || target.rfind("fd:", 0) == 0) return {};
  auto slash = target.rfind('/');
  if (slash == std::string::npos || slash == 0) return {};
  std::string dir = normalize_path(target.substr(0, slash));
  if (dir == "/" || path_is_within(dir, "/dev") || path_is_within(dir, "/proc")) return {};
  return dir;
}

// Writable directories outside the workspace hold state that programs on
// the host write to later (Claude Code's ~/.claude: its history and
// transcripts are appended to): a symbolic link the command makes there
// leads those writes wherever it says, so new links are reported, as in a
// protected .git.
void add_writable_link_roots(Plan& plan, const std::vector<ExpandedPath>& read_write,
                             const Disk& disk) {
  constexpr const char* kWhy =
      "programs on the host that write here later write through a symbolic link, to wherever "
      "it leads";
  for (const ExpandedPath& p : read_write) {
    if (!plan.workspace.empty() && path_is_within(p.path, plan.workspace)) continue;
    if (disk.kind(p.path) != FileKind::kDirectory) continue;
    const bool covered =
        std::any_of(plan.link_watched.begin(), plan.link_watched.end(),
                    [&](const WatchedPath& w) { return path_is_within(p.path, w.path); });
    if (!covered) plan.link_watched.push_back({p.path, p.where, kWhy});
  }
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
    } else if (!inputs.workspace && is_shared_place(ws, facts.home)) {
      // Started from ~ (dotfiles: code the host runs later), /tmp or /run
      // (other programs' sockets): only when the user says so.
      errors.push_back(fmt::format(
          "the current directory '{}' would make {} writable in the jail; run agentjail from a "
          "project directory, or say --workspace '{}' if that is really meant",
          ws, path_is_within(facts.home, ws) ? "your home directory" : "a shared directory", ws));
    } else if (kind != FileKind::kDirectory) {
      errors.push_back(fmt::format("workspace '{}' is not a directory", ws));
    } else {
      plan.workspace = disk.real_path(ws).value_or(ws);
    }
    // Everything else would only repeat this (every ${WORKSPACE} fails).
    if (!errors.empty()) return result;
  }

  Variables vars = variables_for(facts, plan.workspace);
  FilesystemRequest req;
  req.read_only = expand_list(fs.read_only, vars, errors);
  req.read_write = expand_list(fs.read_write, vars, errors);
  // Git metadata may name places in any writable path, not only in the
  // workspace (a .git file's gitdir in ~/.claude).
  std::vector<std::string> other_writable;
  for (const ExpandedPath& p : req.read_write) {
    if (plan.workspace.empty() || path_is_within(p.path, plan.workspace)) continue;
    other_writable.push_back(p.path);
    if (auto real = disk.real_path(p.path); real && *real != p.path)
      other_writable.push_back(*real);
  }
  GitProtection git;
  if (!plan.workspace.empty())
    git = protect_git_metadata(req.read_only, disk, plan.workspace,
                               git_user_env(facts.home, facts.environ), other_writable);
  req.read_only.insert(req.read_only.end(), git.read_only.begin(), git.read_only.end());
  req.read_write.insert(req.read_write.end(), git.pinned.begin(), git.pinned.end());
  req.hide = expand_list(fs.hide, vars, errors);
  plan.journal_target = facts.state_dir + "/sessions/" + facts.session_id + ".jsonl";
  if (inputs.journal_target) {
    plan.journal_target = *inputs.journal_target;
    const std::string& t = plan.journal_target;
    bool special = t == "-" || t == "off" || t.rfind("fd:", 0) == 0;
    if (!special && !t.empty() && t[0] != '/') plan.journal_target = facts.cwd + "/" + t;
  } else if (policy.journal.path) {
    auto expanded = expand_list({*policy.journal.path}, vars, errors);
    if (!expanded.empty()) plan.journal_target = expanded.front().path;
  }
  // The journal is the supervisor's record: the command must not see or
  // touch it, even through a bind of the home directory.
  std::string journal_dir = journal_dir_to_hide(plan.journal_target);
  if (!journal_dir.empty()) req.hide.push_back({journal_dir, {"journal", 0, 0}});
  req.tmpfs = expand_list(fs.tmpfs, vars, errors);
  req.optional = expand_list(fs.optional, vars, errors);
  // What git protection found existed a moment ago; if it is gone, so be it.
  req.optional.insert(req.optional.end(), git.read_only.begin(), git.read_only.end());
  req.optional.insert(req.optional.end(), git.pinned.begin(), git.pinned.end());
  req.workspace = plan.workspace;
  req.workspace_where = {"workspace", 0, 0};
  req.terminal = inputs.relay_terminal ? inputs.relayed_terminal : facts.terminal;
  plan.mounts = build_mount_plan(req, disk);
  plan.hides = req.hide;
  for (auto& e : plan.mounts.errors) errors.push_back(e);

  plan.net = policy.network.mode.value;
  plan.user_namespace = inputs.user_namespace;
  plan.new_netns = plan.user_namespace && plan.net != NetMode::kHost;
  plan.terminal_relayed = inputs.relay_terminal;
  // Watching files (inotify, fanotify) is counted per user: a jail that took
  // all the instances or watches would stop the user's editors and services
  // from watching anything. Its namespace gets half; the kernel checks each
  // level up, so the caller's programs keep the rest.
  if (plan.user_namespace)
    for (const auto& [name, value] : facts.user_limits)
      if (value > 1) plan.namespace_limits.push_back({name, value / 2});
  plan.own_session = !facts.controlling_terminal || plan.terminal_relayed;
  if (!plan.user_namespace) {
    plan.private_dir = facts.state_dir + "/sessions/" + facts.session_id;
    for (const auto& op : plan.mounts.ops) {
      const bool grant = op.kind == MountKind::kBindReadOnly ||
                         op.kind == MountKind::kBindReadWrite || op.kind == MountKind::kSymlink;
      // Beneath a path already linked, the link leads there anyway.
      const bool beneath_link =
          std::any_of(plan.home_links.begin(), plan.home_links.end(),
                      [&](const auto& l) { return path_is_within(op.target, l.second); });
      if (grant && op.target != facts.home && path_is_within(op.target, facts.home) &&
          !op.where.file.empty() && !beneath_link)
        plan.home_links.push_back(
            {plan.private_dir + "/home" + op.target.substr(facts.home.size()), op.target});
    }
  }
  check_journal_placement(plan, req, journal_dir, errors);
  // Without a user namespace the session's private directory is made under
  // the state directory. Where that lies in a writable grant (XDG_STATE_HOME
  // in the workspace, --rw ~), an earlier session could have put a link on
  // the way, and the private home would be made where it leads: refused.
  if (!plan.user_namespace && errors.empty()) {
    std::vector<std::string> writable = {req.workspace};
    for (const auto& p : req.read_write) writable.push_back(p.path);
    const std::string sessions = facts.state_dir + "/sessions";
    for (std::size_t slash = sessions.find('/', 1);; slash = sessions.find('/', slash + 1)) {
      const std::string prefix = sessions.substr(0, slash);
      const bool in_writable =
          std::any_of(writable.begin(), writable.end(), [&](const std::string& w) {
            return !w.empty() && prefix != w && path_is_within(prefix, w);
          });
      if (in_writable && disk.kind(prefix) == FileKind::kSymlink) {
        errors.push_back(fmt::format(
            "without a user namespace the session directory goes through '{}', a symbolic link "
            "in a writable path (an earlier session could have made it): remove it",
            prefix));
        break;
      }
      if (slash == std::string::npos) break;
    }
  }
  // Reached through a link, the directory is where the link leads: that is
  // what the jail could write.
  if (errors.empty() && !journal_dir.empty())
    if (auto real = disk.real_path(journal_dir); real && *real != journal_dir)
      check_journal_placement(plan, req, *real, errors);
  if (plan.net == NetMode::kProxy)
    errors.push_back(policy.network.mode.where.str() +
                     ": network mode \"proxy\" is not yet enforced");

  // Start where the caller is when that place is visible, else the workspace.
  if (!plan.workspace.empty() && path_is_within(facts.cwd, plan.workspace))
    plan.cwd = facts.cwd;
  else if (!plan.user_namespace)
    plan.cwd = plan.workspace.empty() ? facts.cwd : plan.workspace;
  else if (visible_from_host(plan.mounts, facts.cwd))
    plan.cwd = facts.cwd;
  else
    plan.cwd = plan.workspace.empty() ? "/" : plan.workspace;

  // The home directory keeps its path; /tmp is private, so TMPDIR points there.
  std::map<std::string, std::string> forced = {{"HOME", facts.home}, {"TMPDIR", "/tmp"}};
  if (!plan.user_namespace)
    forced = {{"HOME", plan.private_dir + "/home"}, {"TMPDIR", plan.private_dir + "/tmp"}};
  EnvPlan env = build_env(policy.environment, facts.environ, facts.session_id, forced);
  plan.env = std::move(env.entries);
  plan.dropped_secret_names = std::move(env.dropped_secret_names);

  // Resolved now, so that the child opens them without following links.
  std::vector<PathGrant> exec;
  for (const auto& e : expand_list(fs.exec, vars, errors)) {
    const auto real = disk.real_path(e.path);
    exec.push_back({real.value_or(e.path), GrantKind::kExec, true, e.where, real.has_value()});
  }
  mark_noexec(plan.mounts, exec);
  plan.landlock = plan_landlock(policy, plan, facts.landlock_abi, exec);
  plan.watched = watched_paths(plan, git.watched);
  plan.link_watched = std::move(git.link_roots);
  add_writable_link_roots(plan, req.read_write, disk);
  plan.rlimits = build_rlimits(policy.limits);
  if (policy.limits.memory) plan.memory_max = policy.limits.memory->value;
  if (policy.limits.processes) plan.pids_max = policy.limits.processes->value;
  if (policy.limits.wall_time_ms) plan.timeout_ms = policy.limits.wall_time_ms->value;

  if (errors.empty()) result.plan = std::move(plan);
  return result;
}

bool signals_unconfined(const Plan& plan) {
  return !plan.user_namespace && (plan.landlock.scoped & landlock::kScopeSignal) == 0;
}

void protect_session_pids(const Plan& plan, SeccompOptions& options, int supervisor, int init,
                          int supervisor_pgid) {
  if (!signals_unconfined(plan)) return;
  options.protected_pids = {supervisor, init};
  if (!plan.own_session) options.protected_pgid = supervisor_pgid;
}

SeccompOptions builtin_seccomp_options(const Plan& plan) {
  SeccompOptions o;
  o.no_inet_sockets = !plan.user_namespace && plan.net != NetMode::kHost;
  o.no_unix_sockets = !plan.user_namespace;
  const bool unscoped = (plan.landlock.scoped & landlock::kScopeSignal) == 0;
  // In the caller's process group (its terminal job), on a kernel whose
  // Landlock cannot scope signals, kill(0) would reach the caller.
  o.guard_kill_group = unscoped && !plan.own_session;
  // A PID namespace confines kill(-1) to the jail; without one it reaches
  // every process of the user.
  o.guard_kill_all = unscoped && !plan.user_namespace;
  // Without read-only mounts only Landlock's TRUNCATE right (ABI 3) keeps
  // truncation inside the writable paths.
  o.guard_truncate = !plan.user_namespace && plan.landlock.abi < 3;
  o.guard_other_processes = !plan.user_namespace;
  o.guard_signals = signals_unconfined(plan);
  o.no_host_ipc = !plan.user_namespace;
  o.tcp_port_rules = !plan.landlock.ports.empty();
  return o;
}

}  // namespace aj
