// `agentjail run`: prepare, refuse what cannot be enforced, launch.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "app_commands.h"
#include "base/exit_codes.h"
#include "base/log.h"
#include "launch/launcher.h"
#include "launch/layers.h"
#include "app_session_dir.h"
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

void finish_cgroup(PreparedLayers& layers) {
  if (!layers.cgroup) return;
  CgroupEvents ev = read_cgroup_events(*layers.cgroup);
  if (ev.oom_kills) log::warn("memory limit hit: {} process(es) killed", ev.oom_kills);
  if (ev.pids_max_hits) log::warn("process limit hit {} time(s)", ev.pids_max_hits);
  auto destroyed = destroy_session_cgroup(*layers.cgroup);
  if (!destroyed) log::warn("{}", destroyed.error().render());
  layers.cgroup.reset();
}

// Says which protections are weaker than asked: always when degraded.
void report_layers(const Plan& plan, const PreparedLayers& layers) {
  for (const auto& why : plan.landlock.not_enforced) log::warn("Landlock: {}", why);
  for (const auto& c : layers.clamps)
    log::warn("limit {} lowered to the host's hard limit {}",
              to_string(layers.rlimits[c.index].kind), c.effective);
  if (!layers.cgroup_note.empty()) {
    // RLIMIT_NPROC does not bind uid 0, and RLIMIT_AS is a weak memory bound:
    // only then is the missing cgroup a real loss worth a warning.
    bool degraded = plan.memory_max || (plan.pids_max && plan.uid == 0);
    if (degraded) log::warn("no cgroup limits ({}); rlimits only", layers.cgroup_note);
    else log::info("no cgroup limits ({}); rlimits only", layers.cgroup_note);
  }
}

// Ubuntu 24.04 lets an unprivileged process create a user namespace but
// denies it every capability there (AppArmor): treat that as unavailable.
bool apparmor_blocks_userns() {
  if (::getuid() == 0) return false;
  std::ifstream f("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
  int v = 0;
  return (f >> v) && v == 1;
}

bool is_userns_refusal(const Error& e) {
  return e.op == "clone" &&
         (e.errnum == EPERM || e.errnum == EACCES || e.errnum == ENOSPC || e.errnum == EUSERS ||
          e.errnum == EINVAL);
}

// `require = [...]` / --require: refuse to start when a layer is missing.
std::vector<std::string> missing_required(const Policy& policy, const Plan& plan,
                                          const PreparedLayers& layers) {
  std::vector<std::string> out;
  int abi = plan.landlock.abi;
  for (const auto& r : policy.require) {
    const std::string& n = r.value;
    bool ok = (n == "userns" && plan.user_namespace) || (n == "netns" && plan.new_netns) ||
              (n == "landlock" && plan.landlock.active()) || (n == "landlock-net" && abi >= 4) ||
              (n == "landlock-scope" && abi >= 6) || (n == "seccomp" && !layers.seccomp.insns.empty()) ||
              (n == "cgroup" && layers.cgroup.has_value());
    if (!ok) out.push_back(fmt::format("{}: required layer '{}' is not available here", r.where.str(), n));
  }
  return out;
}

struct RunState {
  std::optional<Prepared> prepared;
  std::unique_ptr<PreparedLayers> layers;
};

// With -v, what the supervisor observes is also shown on stderr.
class LogSink final : public EventSink {
 public:
  void exec(int pid, int ppid, const std::string& path, const std::vector<std::string>& argv) override {
    std::string args;
    for (const auto& a : argv) args += (args.empty() ? "" : " ") + a;
    log::info("exec pid {} (parent {}): {} [{}]", pid, ppid, path, args);
  }
  void syscall_denied(int pid, const std::string& name, const std::string& detail, int err) override {
    log::info("denied pid {}: {} {} -> {}", pid, name, detail, std::strerror(err));
  }
  void signal_forwarded(int sig, bool escalated) override {
    log::info("signal {} {}", sig, escalated ? "(escalated to SIGKILL)" : "forwarded");
  }
  void limit_hit(const std::string& which, const std::string& value) override {
    log::info("limit {} reached ({})", which, value);
  }
};

// Prepares plan and layers; nullopt after printing why.
std::optional<RunState> get_ready(const CliOptions& o, bool user_namespace) {
  RunState st;
  st.prepared = prepare(o, user_namespace);
  if (!st.prepared) return std::nullopt;
  const Plan& plan = st.prepared->plan;
  auto refused = not_yet_enforced(st.prepared->policy);
  if (!refused.empty()) {
    for (const auto& r : refused) std::cerr << r << '\n';
    log::error("refusing to run: the profile asks for protection this version cannot enforce");
    return std::nullopt;
  }
  LayerOptions layer_options;
  layer_options.sockets_unix_only = !plan.user_namespace && plan.net != NetMode::kHost;
  layer_options.observe = true;
  auto layers = prepare_layers(plan, st.prepared->policy, layer_options);
  if (!layers) {
    log::error("{}", layers.error().render());
    return std::nullopt;
  }
  st.layers = std::move(*layers);
  auto missing = missing_required(st.prepared->policy, plan, *st.layers);
  if (!missing.empty()) {
    for (const auto& m : missing) std::cerr << m << '\n';
    log::error("refusing to run without a required layer");
    return std::nullopt;
  }
  return st;
}

}  // namespace

int command_run(const CliOptions& o) {
  bool userns = !o.no_userns;
  if (userns && apparmor_blocks_userns()) {
    log::warn("user namespaces are restricted by AppArmor here");
    userns = false;
  }
  auto st = get_ready(o, userns);
  if (!st) return kExitSetupFailed;
  if (o.dry_run) {
    std::cout << format_plan(st->prepared->plan);
    return 0;
  }
  if (!userns)
    log::warn("running without user namespaces: Landlock, seccomp, capabilities and rlimits only");

  while (true) {
    const Plan& plan = st->prepared->plan;
    if (!plan.user_namespace) {
      auto made = create_private_dir(plan.private_dir);
      if (!made) {
        log::error("{}", made.error().render());
        return kExitSetupFailed;
      }
    }
    report_layers(plan, *st->layers);
    LaunchOptions lo;
    lo.timeout_ms = plan.timeout_ms;
    lo.pass_fds = o.pass_fds;
    lo.hooks = st->layers->hooks();
    if (st->layers->cgroup) lo.cgroup = &*st->layers->cgroup;
    LogSink sink;
    NotifyHandler notify(st->layers->seccomp, &sink);
    lo.notify = &notify;
    lo.sink = &sink;
    auto outcome = launch(plan, lo);
    finish_cgroup(*st->layers);
    if (!plan.user_namespace) remove_private_dir(plan.private_dir);
    if (!outcome && plan.user_namespace && is_userns_refusal(outcome.error())) {
      log::warn("cannot create a user namespace ({}): running with Landlock, seccomp, "
                "capabilities and rlimits only", std::strerror(outcome.error().errnum));
      st = get_ready(o, false);
      if (!st) return kExitSetupFailed;
      continue;
    }
    if (!outcome) {
      log::error("{}", outcome.error().render());
      return kExitSetupFailed;
    }
    if (outcome->failure) log::error("{}", describe_failure(plan, *outcome->failure));
    return outcome->exit_code;
  }
}

}  // namespace aj
