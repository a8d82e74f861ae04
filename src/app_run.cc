// `agentjail run`: prepare, refuse what cannot be enforced, launch.
#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "app_commands.h"
#include "app_journal_sink.h"
#include "app_session_dir.h"
#include "app_terminal.h"
#include "app_watched.h"
#include "base/exit_codes.h"
#include "base/log.h"
#include "launch/launcher.h"
#include "launch/layers.h"
#include "plan/access_check.h"
#include "plan/env_plan.h"
#include "plan/plan_print.h"
#include "plan/report.h"
#include "policy/variables.h"
#include "seccomp/groups.h"
#include "supervise/caller_stdio.h"
#include "supervise/metadata_guard.h"
#include "supervise/notify.h"
#include "supervise/signal_guard.h"
#include "supervise/terminal_guard.h"
#include "supervise/terminal_relay.h"
#include "sys/host_probe.h"
#include "sys/inherited_fds.h"
#include "sys/read_file.h"

namespace aj {
namespace {

// Journals (when a sink is given) and warns about what the session's cgroup
// refused. Once, when the session's processes are gone.
void report_cgroup_events(const PreparedLayers& layers, EventSink* sink) {
  if (!layers.cgroup) return;
  CgroupEvents ev = read_cgroup_events(*layers.cgroup);
  if (ev.oom_kills) {
    log::warn("memory limit hit: {} process(es) killed", ev.oom_kills);
    if (sink) sink->limit_hit("memory", fmt::format("{} oom kill(s)", ev.oom_kills));
  }
  if (ev.pids_max_hits) {
    log::warn("process limit hit {} time(s)", ev.pids_max_hits);
    if (sink) sink->limit_hit("processes", fmt::format("{} fork(s) refused", ev.pids_max_hits));
  }
}

// Reports what the session's cgroup refused (unless already reported), then
// removes the group.
void finish_cgroup(PreparedLayers& layers, EventSink* sink = nullptr, bool reported = false) {
  if (!layers.cgroup) return;
  if (!reported) report_cgroup_events(layers, sink);
  auto destroyed = destroy_session_cgroup(*layers.cgroup);
  if (!destroyed) log::warn("{}", destroyed.error().render());
  layers.cgroup.reset();
}

// Says which protections are weaker than asked: always when degraded.
// The enforcement report: in full with -v; otherwise only what is not
// enforced (the degraded rules), which is always shown.
void report_layers(const Prepared& p, const PreparedLayers& layers) {
  const Plan& plan = p.plan;
  ReportContext ctx;
  ctx.user_namespace = plan.user_namespace;
  ctx.landlock_abi = plan.landlock.abi;
  ctx.cgroup_pids = layers.cgroup.has_value() && plan.pids_max.has_value();
  ctx.cgroup_memory = layers.cgroup.has_value() && plan.memory_max.has_value();
  ctx.cgroup_note = layers.cgroup_note;
  Report report = build_report(plan, p.policy, ctx);
  if (log::level() >= log::Level::kVerbose) {
    std::cerr << log::terminal_safe_lines(format_report_text(report));
  } else {
    for (const auto& r : report.rules)
      if (r.layers.empty())
        log::warn("not enforced: {} {}{}", r.action, r.subject,
                  r.note.empty() ? "" : " (" + r.note + ")");
  }
  for (const auto& why : plan.landlock.not_enforced) log::warn("Landlock: {}", why);
  for (const auto& c : layers.clamps)
    log::warn("limit {} lowered to the host's hard limit {}",
              to_string(layers.rlimits[c.index].kind), c.effective);
  if (!layers.cgroup_note.empty()) {
    // RLIMIT_NPROC does not bind uid 0, and RLIMIT_AS is a weak memory bound:
    // only then is the missing cgroup a real loss worth a warning.
    bool degraded = plan.memory_max || (plan.pids_max && plan.uid == 0);
    if (degraded)
      log::warn("no cgroup limits ({}); rlimits only", layers.cgroup_note);
    else
      log::info("no cgroup limits ({}); rlimits only", layers.cgroup_note);
  }
}

// Opens the journal into *out. False (after saying why) only when the
// journal is required; otherwise a failure leaves *out empty and the run
// goes on with -v diagnostics only.
bool open_journal(const Prepared& p, std::unique_ptr<JournalSink>* out) {
  const auto& j = p.policy.journal;
  JournalSettings settings;
  settings.exec = !j.exec || j.exec->value;
  settings.denied = !j.denied || j.denied->value;
  settings.required = j.required && j.required->value;
  settings.max_size = j.max_size ? j.max_size->value : kDefaultJournalMaxSize;
  settings.max_size_rule = j.max_size ? j.max_size->where.str() : "built in";
  if (p.plan.journal_target == "off") return true;
  auto writer = JournalWriter::open(p.plan.journal_target, p.plan.session_id);
  if (!writer) {
    if (settings.required) {
      log::error("journal: {}; refusing to run unlogged (journal.required)",
                 writer.error().render());
      return false;
    }
    log::warn("journal: {}; running without a journal", writer.error().render());
    return true;
  }
  // Values of passed secrets never reach the journal.
  for (const auto& e : p.plan.env) {
    auto eq = e.find('=');
    if (eq != std::string::npos && env_name_looks_secret(e.substr(0, eq)))
      writer->redactor().add_secret(e.substr(eq + 1));
  }
  log::info("journal: {}", writer->target());
  *out = std::make_unique<JournalSink>(std::move(*writer), settings);
  return true;
}

// Which profile item refused a syscall: the first deny entry naming it or a
// group holding it; otherwise the built-in rules (or a default-deny policy).
std::string deny_rule(const Policy& policy, const std::string& syscall) {
  for (const auto& d : policy.seccomp.deny) {
    if (d.value == syscall) return d.where.str();
    if (!d.value.empty() && d.value[0] == '@') {
      for (auto name : expand_syscall_group(d.value))
        if (name == syscall) return fmt::format("{} ({})", d.value, d.where.str());
    }
  }
  if (policy.seccomp.default_action &&
      policy.seccomp.default_action->value == SeccompDefault::kDeny)
    return fmt::format("default = \"deny\" ({})", policy.seccomp.default_action->where.str());
  return "built in";
}

// Everything the jail enforces, as text, for the session's policy digest.
// What the session was allowed and how it was watched, for session.start's
// policy_digest: two sessions with the same digest ran under the same rules.
std::string plan_fingerprint(const Plan& plan, const PreparedLayers& layers,
                             const JournalPolicy& journal) {
  std::string out;
  out += fmt::format("userns {} netns {}\n", plan.user_namespace, plan.new_netns);
  for (const auto& op : plan.mounts.ops) out += op.describe() + "\n";
  // The session's own private directory (no user namespace) is named
  // alike in every session.
  for (const auto& r : plan.landlock.paths) {
    const bool own = !plan.private_dir.empty() && path_is_within(r.path, plan.private_dir);
    const std::string path = own ? "<session>" + r.path.substr(plan.private_dir.size()) : r.path;
    out += fmt::format("ll {} {:x}\n", path, r.access);
  }
  for (const auto& r : plan.landlock.ports) out += fmt::format("port {} {:x}\n", r.port, r.access);
  for (const auto& r : plan.rlimits) out += fmt::format("rl {} {}\n", to_string(r.kind), r.hard);
  for (const auto& e : plan.env) out += "env " + e.substr(0, e.find('=')) + "\n";
  for (const auto& i : layers.seccomp.insns)
    out += fmt::format("{:x} {} {} {:x}\n", i.code, i.jt, i.jf, i.k);
  out += to_string(plan.net);
  out += fmt::format("\ntimeout {} memory {} pids {}\n", plan.timeout_ms.value_or(0),
                     plan.memory_max.value_or(0), plan.pids_max.value_or(0));
  for (const auto& w : plan.watched) out += "watch " + w.path + "\n";
  for (const auto& w : plan.link_watched) out += "links " + w.path + "\n";
  auto flag = [](const std::optional<Item<bool>>& b, bool dflt) { return b ? b->value : dflt; };
  out +=
      fmt::format("journal exec {} denied {} required {} max_size {}\n", flag(journal.exec, true),
                  flag(journal.denied, true), flag(journal.required, false),
                  journal.max_size ? journal.max_size->value : kDefaultJournalMaxSize);
  return out;
}

std::vector<std::string> active_layers(const Plan& plan, const PreparedLayers& layers) {
  std::vector<std::string> out;
  if (plan.user_namespace)
    out.insert(out.end(), {"userns", "mount", "pid", "ipc", "uts", "cgroupns"});
  if (plan.new_netns) out.push_back("netns");
  if (plan.landlock.active()) out.push_back(fmt::format("landlock (ABI {})", plan.landlock.abi));
  if (!layers.seccomp.insns.empty()) out.push_back("seccomp");
  out.insert(out.end(), {"capabilities", "no_new_privs", "rlimits", "environment"});
  if (layers.cgroup) out.push_back("cgroup");
  return out;
}

// The descriptor of the terminal the command shares with us, our
// controlling terminal: one of the standard ones, or else /dev/tty opened
// into *held (with 0-2 redirected the command still reaches it through its
// /dev/tty); -1 when there is none.
int shared_terminal_fd(UniqueFd* held) {
  for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO})
    if (::isatty(fd) && ::tcgetpgrp(fd) >= 0) return fd;
  held->reset(::open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (!*held) held->reset(::open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC));
  return held->get();
}

bool is_userns_refusal(const Error& e) {
  return e.op == "clone" && (e.errnum == EPERM || e.errnum == EACCES || e.errnum == ENOSPC ||
                             e.errnum == EUSERS || e.errnum == EINVAL);
}

// What Claude Code reads back later that the command may write (the claude
// profile): its state file and its memory (app_watched.h).
ClaudeWatch claude_watch(const Plan& plan, const std::string& home) {
  ClaudeWatch w;
  w.workspace = plan.workspace;
  auto writable = [&plan](const std::string& path) { return check_open(plan, path, true); };
  const std::string memory_why =
      "Claude Code follows a subagent's memory as instructions in its later sessions";
  if (!plan.workspace.empty())
    for (const char* dir : {"/.claude/agent-memory", "/.claude/agent-memory-local"})
      if (const AccessDecision d = writable(plan.workspace + dir + "/a/MEMORY.md"); d.allowed)
        w.memory_dirs.push_back({plan.workspace + dir, SourceLoc{d.rule, 0, 0}, memory_why});
  if (home.empty()) return w;
  if (const AccessDecision d = writable(home + "/.claude/agent-memory/a/MEMORY.md"); d.allowed)
    w.memory_dirs.push_back({home + "/.claude/agent-memory", SourceLoc{d.rule, 0, 0}, memory_why});
  const std::string state = home + "/.claude.json";
  if (const AccessDecision d = writable(state); d.allowed)
    // A link of the user's (a dotfiles checkout) is read where it leads: the
    // watcher opens no link, and the command cannot change the user's.
    w.state_files.push_back({RealDisk().real_path(state).value_or(state), SourceLoc{d.rule, 0, 0},
                             "Claude Code on the host runs the MCP servers named there, and "
                             "lets the tools allowed there run unasked"});
  const std::string projects = home + "/.claude/projects";
  if (const AccessDecision d = writable(projects + "/p/memory/MEMORY.md"); d.allowed)
    w.projects_dirs.push_back({projects, SourceLoc{d.rule, 0, 0},
                               "Claude Code follows a project's memory as instructions in its "
                               "later sessions there"});
  return w;
}

struct RunState {
  JailTerminal terminal;  // made before planning: the plan binds its device
  std::optional<Prepared> prepared;
  std::unique_ptr<PreparedLayers> layers;
  LayerOptions layer_options;
  bool trace = false;  // --trace or [journal] trace, with the journal observing
};

// With -v, what the supervisor observes is also shown on stderr.
class LogSink final : public EventSink {
 public:
  void exec(int pid, int ppid, const std::string& path,
            const std::vector<std::string>& argv) override {
    std::string args;
    for (const auto& a : argv) args += (args.empty() ? "" : " ") + a;
    log::info("exec pid {} (parent {}): {} [{}]", pid, ppid, path, args);
  }
  void syscall_denied(int pid, const std::string& name, const std::string& detail,
                      int err) override {
    log::info("denied pid {}: {} {} -> {}", pid, name, detail, std::strerror(err));
  }
  void fs_denied(int pid, const FsDenial& d) override {
    log::info("denied pid {}: {} {}{}{} ({}, {})", pid, d.access, d.path,
              d.leads_to.empty() ? "" : " -> ", d.leads_to, d.reason, d.rule);
  }
  void signal_forwarded(int sig, bool escalated) override {
    log::info("signal {} {}", sig, escalated ? "(escalated to SIGKILL)" : "forwarded");
  }
  void limit_hit(const std::string& which, const std::string& value) override {
    log::info("limit {} reached ({})", which, value);
  }
};

// Prepares plan and layers; nullopt after printing why.
std::optional<RunState> get_ready(const CliOptions& o, bool user_namespace, JailTerminal terminal) {
  RunState st;
  st.terminal = std::move(terminal);
  st.prepared =
      prepare(o, user_namespace, st.terminal.pty ? st.terminal.pty->slave_path : std::string());
  if (!st.prepared) return std::nullopt;
  const Plan& plan = st.prepared->plan;
  auto refused = not_yet_enforced(st.prepared->policy);
  if (!refused.empty()) {
    for (const auto& r : refused) std::cerr << r << '\n';
    log::error("refusing to run: the profile asks for protection this version cannot enforce");
    return std::nullopt;
  }
  LayerOptions layer_options;
  layer_options.seccomp = builtin_seccomp_options(plan);
  // --journal off: no record and no exec notifications (the baseline for
  // measuring what journaling costs). The listener stays: the supervisor
  // performs the jail's chmod and chown calls (supervise/metadata_guard.h)
  // journal or not.
  const bool journal_on = plan.journal_target != "off";
  const auto& j = st.prepared->policy.journal;
  layer_options.observe_exec = journal_on && (!j.exec || j.exec->value);
  st.trace = journal_on && (o.trace || (j.trace && j.trace->value));
  if (st.trace) layer_options.notify_syscalls = traced_open_syscalls();
  for (int nr : MetadataGuard::syscalls()) layer_options.notify_syscalls.push_back(nr);
  if (signals_unconfined(plan))
    for (int nr : SignalGuard::syscalls()) layer_options.notify_syscalls.push_back(nr);
  // No PID namespace, in the caller's session: every process group of the
  // terminal's session is in reach; setpgid is checked
  // (supervise/terminal_guard.h).
  if (!plan.user_namespace && !plan.own_session)
    layer_options.notify_syscalls.push_back(SYS_setpgid);
  // Sharing the caller's terminal: leaving its session is checked too (a
  // process out of it reads the terminal with no background rule).
  if (!plan.own_session) layer_options.notify_syscalls.push_back(SYS_setsid);
  layer_options.create_cgroup = !o.dry_run;
  st.layer_options = layer_options;
  auto layers = prepare_layers(plan, st.prepared->policy, layer_options);
  if (!layers) {
    log::error("{}", layers.error().render());
    return std::nullopt;
  }
  st.layers = std::move(*layers);
  // A dry run makes no cgroup: whether one could be made is asked instead.
  const bool cgroup = o.dry_run ? session_cgroup_possible(plan) : st.layers->cgroup.has_value();
  auto missing = missing_required(st.prepared->policy, plan, cgroup);
  if (!missing.empty()) {
    finish_cgroup(*st.layers);
    for (const auto& m : missing) std::cerr << m << '\n';
    log::error("refusing to run without a required layer");
    return std::nullopt;
  }
  // Without a mount namespace Landlock is all that keeps file access inside
  // the profile. With neither, the command could write every file of yours
  // and, through /proc, the memory of your other processes: not a sandbox.
  if (!plan.user_namespace && !plan.landlock.active()) {
    finish_cgroup(*st.layers);
    log::error(
        "refusing to run: no user namespace and no Landlock (ABI {}), so nothing would keep the "
        "command's file access inside the profile; use a kernel with Landlock (5.13 or later) or "
        "allow unprivileged user namespaces",
        plan.landlock.abi);
    return std::nullopt;
  }
  return st;
}

// A command the jail cannot find but the host can is usually one installed
// under the home, which the jail keeps private: say where it is.
void hint_host_command(const Plan& plan, const ChildReport& failure) {
  if (failure.stage != ChildStage::kExec || failure.err != ENOENT || plan.argv.empty()) return;
  const std::string& cmd = plan.argv[0];
  if (cmd.empty() || cmd.find('/') != std::string::npos) return;
  std::string path = env_value(plan.env, "PATH");
  if (path.empty()) path = kDefaultSearchPath;
  for (std::size_t start = 0; start <= path.size();) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string dir = path.substr(start, end - start);
    start = end + 1;
    if (dir.empty() || dir[0] != '/') continue;
    const std::string candidate = dir + "/" + cmd;
    if (::access(candidate.c_str(), X_OK) == 0) {
      log::warn(
          "on the host, '{}' is {}, which this profile does not show or let run; bind it (--ro) "
          "and allow it ([filesystem] exec), or use a profile that does (agentjail profiles)",
          cmd, candidate);
      return;
    }
  }
}

// One launch: journal, private directories, supervision, clean-up. Every
// path out ends the journal it started and removes what it created.
// *userns_refused gets the errno when the kernel refused the user namespace.
int run_once(const CliOptions& o, RunState& st, int* userns_refused) {
  const Plan& plan = st.prepared->plan;
  PreparedLayers& layers = *st.layers;
  std::unique_ptr<JournalSink> journal;
  if (!open_journal(*st.prepared, &journal)) {
    finish_cgroup(layers);
    return kExitSetupFailed;
  }
  LogSink log_sink;
  EventSink* sink = journal ? static_cast<EventSink*>(journal.get()) : &log_sink;
  const Policy& policy = st.prepared->policy;
  if (journal)
    journal->set_rule_lookup(
        [&policy](const std::string& syscall) { return deny_rule(policy, syscall); });
  // session.start is written while the child builds the jail, once the
  // seccomp filter (part of the digest) is compiled; or, when the launch
  // fails before that, just ahead of session.end. False: journal.required
  // and nothing could be written.
  bool started = false;
  auto start_journal = [&]() {
    if (!journal || started) return true;
    started = true;
    journal->session_start(*st.prepared, active_layers(plan, layers),
                           policy_digest(plan_fingerprint(plan, layers, policy.journal)));
    return journal->healthy();
  };
  auto end_journal = [&](int code, std::optional<int> signal, bool timed_out) {
    if (!journal) return;
    start_journal();
    journal->session_end(code, signal, timed_out);
  };
  if (!plan.user_namespace) {
    if (auto made = create_private_dir(plan.private_dir, plan.home_links); !made) {
      log::error("{}", made.error().render());
      finish_cgroup(layers, sink);
      end_journal(kExitSetupFailed, std::nullopt, false);
      return kExitSetupFailed;
    }
  }
  report_layers(*st.prepared, layers);

  NotifyHandler notify(layers.seccomp, sink);
  const MetadataGuard metadata_guard(plan.user_namespace, writable_grants(plan.landlock), plan.uid);
  notify.set_metadata_guard(&metadata_guard);
  SignalGuard signal_guard;
  if (signals_unconfined(plan)) notify.set_signal_guard(&signal_guard);
  const UniqueFd proc_for_guard(::open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC));
  UniqueFd controlling_terminal;
  const int terminal = shared_terminal_fd(&controlling_terminal);
  // A terminal of the jail's own is the jail's to change: nothing to guard.
  const TerminalGuard terminal_guard(plan.terminal_relayed ? -1 : terminal, ::getpgrp(),
                                     signal_guard, proc_for_guard.get());
  notify.set_terminal_guard(&terminal_guard);

  if (st.trace)
    notify.set_trace([&plan](const std::string& path, bool write) -> std::string {
      AccessDecision d = check_open(plan, path, write);
      return d.allowed ? std::string() : d.rule + "\t" + d.reason;
    });
  // The terminal's settings and foreground are given back only where the
  // command could change them (sharing it) and nobody else of the job could
  // have since (not in a pipeline: a password prompt's echo off would be
  // undone under it). The relay restores its own raw mode.
  CallerStdio stdio(plan.terminal_relayed || st.terminal.job_shared ? -1 : terminal);
  std::unique_ptr<TerminalRelay> relay;
  if (plan.terminal_relayed && st.terminal.pty) {
    relay = std::make_unique<TerminalRelay>(
        UniqueFd(::fcntl(st.terminal.pty->master.get(), F_DUPFD_CLOEXEC, 3)),
        (st.terminal.stdio & 1U) != 0);
    if (auto started = relay->start(); !started) {
      log::error("{}", started.error().render());
      finish_cgroup(layers, sink);
      if (!plan.user_namespace) remove_private_dir(plan.private_dir);
      end_journal(kExitSetupFailed, std::nullopt, false);
      return kExitSetupFailed;
    }
  }
  LaunchOptions lo;
  lo.signal_session = [&signal_guard, &proc_for_guard, &stdio](int sig) {
    signal_guard.signal_all(proc_for_guard.get(), sig);
    if (sig == SIGCONT) stdio.note_continued();
  };
  lo.timeout_ms = plan.timeout_ms;
  lo.pass_fds = o.pass_fds;
  if (relay) {
    lo.relay = relay.get();
    lo.terminal_slave = st.terminal.pty->slave.get();
    lo.terminal_stdio = st.terminal.stdio;
  }
  lo.hooks = layers.hooks();
  if (layers.cgroup) lo.cgroup = &*layers.cgroup;
  lo.notify = &notify;
  lo.sink = sink;
  lo.while_child_builds = [&](pid_t init) -> Result<SeccompHandoff> {
    protect_session_pids(plan, st.layer_options.seccomp, ::getpid(), init, ::getpgrp());
    signal_guard.set_init(init);
    AJ_TRY(compile_layer_seccomp(layers, policy, st.layer_options));
    if (!start_journal())
      return fail("the journal cannot be written (journal.required): the command was not started");
    return layers.seccomp_handoff();
  };
  // The journal is closed as soon as the command has ended and its session
  // is empty: the durable write then overlaps the init's teardown.
  bool ended = false;
  WatchedPaths watched(plan.watched, plan.link_watched, claude_watch(plan, st.prepared->facts.home),
                       plan.env);
  lo.on_command_exit = [&](const Outcome& out) {
    report_cgroup_events(layers, sink);
    watched.report(journal.get());
    end_journal(out.exit_code, out.signal, out.timed_out);
    ended = true;
  };
  auto outcome = launch(plan, lo);
  stdio.restore();

  finish_cgroup(layers, sink, ended);
  if (!plan.user_namespace) remove_private_dir(plan.private_dir);
  int code = outcome ? outcome->exit_code : kExitSetupFailed;
  if (outcome && !outcome->failure) watched.report(journal.get());
  if (!ended)
    end_journal(code, outcome ? outcome->signal : std::nullopt, outcome && outcome->timed_out);
  if (!outcome) {
    if (plan.user_namespace && is_userns_refusal(outcome.error())) {
      log::info("{}", outcome.error().render());
      *userns_refused = outcome.error().errnum;
    } else {
      log::error("{}", outcome.error().render());
    }
    return kExitSetupFailed;
  }
  if (outcome->failure) {
    log::error("{}", describe_failure(plan, *outcome->failure));
    hint_host_command(plan, *outcome->failure);
  }
  return code;
}

}  // namespace

// Ubuntu 24.04 lets an unprivileged process create a user namespace but
// denies it every capability there (AppArmor): treat that as unavailable.
bool apparmor_blocks_userns() {
  if (::getuid() == 0) return false;
  return read_sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == 1;
}

int command_run(const CliOptions& o) {
  // A journal pipe whose reader left must give EPIPE, not kill the supervisor
  // (the command gets default dispositions back before exec).
  ::signal(SIGPIPE, SIG_IGN);
  // The command may take the terminal's foreground and set TOSTOP: our own
  // writes (the end-of-session warnings) and the restoring of the terminal
  // must then neither stop us nor fail with EIO. And a read of the terminal
  // from the job's group, by a command that gave the foreground to a group
  // of its own, sends SIGTTIN to the whole job: stopped, we would no longer
  // supervise (no --timeout, notified calls waiting).
  ::signal(SIGTTOU, SIG_IGN);
  ::signal(SIGTTIN, SIG_IGN);
  if (o.journal_target && o.journal_target->rfind("fd:", 0) == 0) {
    for (int fd : o.pass_fds)
      if (*o.journal_target == fmt::format("fd:{}", fd)) {
        log::error("--journal {} is also passed to the command with --pass-fd {}",
                   *o.journal_target, fd);
        return kExitSetupFailed;
      }
  }
  if (!o.dry_run) {
    std::vector<int> inherited = {0, 1, 2};
    inherited.insert(inherited.end(), o.pass_fds.begin(), o.pass_fds.end());
    const auto refused = refused_inherited_fds(inherited);
    for (const auto& line : refused) log::error("{}", line);
    if (!refused.empty()) return kExitSetupFailed;
  }
  bool userns = !o.no_userns;
  if (userns && apparmor_blocks_userns()) {
    log::warn("user namespaces are restricted by AppArmor here");
    userns = false;
  }
  auto st = get_ready(o, userns, make_jail_terminal(o));
  if (!st) return kExitSetupFailed;
  if (o.dry_run) {
    std::cout << log::terminal_safe_lines(format_plan(st->prepared->plan));
    return 0;
  }
  if (!userns)
    log::warn("running without user namespaces: Landlock, seccomp, capabilities and rlimits only");

  while (true) {
    int userns_refused = 0;
    int code = run_once(o, *st, &userns_refused);
    if (userns_refused == 0) return code;
    log::warn(
        "cannot create a user namespace ({}): running with Landlock, seccomp, capabilities "
        "and rlimits only",
        std::strerror(userns_refused));
    st = get_ready(o, false, std::move(st->terminal));
    if (!st) return kExitSetupFailed;
  }
}

}  // namespace aj
