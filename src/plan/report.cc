#include "plan/report.h"

#include <fmt/format.h>

#include "base/json.h"
#include "base/units.h"
#include "base/utf8.h"
#include "plan/plan_print.h"
#include "policy/variables.h"
#include "sys/landlock_abi.h"

namespace aj {
namespace {

std::string where_of(const SourceLoc& w) { return w.file.empty() ? "built in" : w.str(); }

class Builder {
 public:
  Builder(const Plan& plan, const Policy& policy, const ReportContext& ctx)
      : plan_(plan), policy_(policy), ctx_(ctx) {}

  Report run() {
    files();
    moot_hides();
    exec();
    network();
    syscalls();
    limits();
    environment();
    assumptions();
    return std::move(r_);
  }

 private:
  std::string landlock() const { return ctx_.landlock_abi > 0 ? "Landlock" : ""; }

  void add(std::string action, std::string subject, std::vector<std::string> layers,
           std::string rule, std::string note = {}) {
    std::erase(layers, std::string());
    r_.rules.push_back({std::move(action), std::move(subject), std::move(layers), std::move(rule),
                        std::move(note)});
  }

  // The nearest enclosing read-write bind, if any (Landlock cannot narrow it).
  bool inside_writable(const std::string& path) const {
    for (const auto& op : plan_.mounts.ops) {
      if (op.target != path && op.kind == MountKind::kBindReadWrite &&
          path_is_within(path, op.target))
        return true;
    }
    return false;
  }

  // Whether Landlock grants reading path (a rule at it or above it).
  bool landlock_reads(const std::string& path) const {
    for (const auto& rule : plan_.landlock.paths)
      if (rule.kind != GrantKind::kExec && (rule.access & ::aj::landlock::kAccessFsReadFile) != 0 &&
          path_is_within(path, rule.path))
        return true;
    return false;
  }

  // No mount namespace: the host's paths, Landlock alone. A hide is real only
  // where no grant reaches it; a read-only path inside a writable one is not.
  void files_without_mounts() {
    for (const auto& op : plan_.mounts.ops) {
      if (op.where.file.empty()) continue;
      std::string w = where_of(op.where);
      switch (op.kind) {
        case MountKind::kBindReadOnly:
          add("read", op.source, {landlock()}, w,
              inside_writable(op.target)
                  ? "NOT read-only: no mount namespace, writable through the grant that holds "
                    "it (changes are reported when the command ends)"
                  : "");
          break;
        case MountKind::kBindReadWrite: add("write", op.source, {landlock()}, w); break;
        case MountKind::kTmpfs:
          add("none", op.target, {landlock()}, w,
              inside_writable(op.target)
                  ? "NOT private: no mount namespace, the host's directory, writable through "
                    "the grant that holds it"
                  : "no mount namespace: the host's directory is not granted; HOME and TMPDIR "
                    "are the session's private directory");
          break;
        case MountKind::kHideDir:
        case MountKind::kHideFile: hide_without_mounts(op.target, w); break;
        case MountKind::kSymlink:
          add("read", fmt::format("{} -> {}", op.target, op.source), {"the host's own path"}, w);
          break;
        default: break;
      }
    }
  }

  void hide_without_mounts(const std::string& path, const std::string& w) {
    if (landlock_reads(path))
      add("read", path, {}, w,
          "NOT hidden: no mount namespace, readable through the grant that holds it");
    else
      add("hidden", path, {landlock() + " (not granted)"}, w);
  }

  void files() {
    if (!plan_.user_namespace) return files_without_mounts();
    for (const auto& op : plan_.mounts.ops) {
      if (op.where.file.empty()) continue;  // built-in /proc and /dev: see assumptions
      std::string w = where_of(op.where);
      switch (op.kind) {
        case MountKind::kBindReadOnly:
          add("read", op.target, {"mount (read-only, recursive)", landlock()}, w,
              inside_writable(op.target)
                  ? "inside a read-write tree: only the mount keeps it read-only"
                  : "");
          break;
        case MountKind::kBindReadWrite:
          add("write", op.target, {"mount (read-write bind)", landlock()}, w);
          break;
        case MountKind::kTmpfs:
          add("write", op.target, {"mount (private tmpfs, discarded at exit)", landlock()}, w);
          break;
        case MountKind::kHideDir:
        case MountKind::kHideFile: add("hidden", op.target, {"mount (empty, read-only)"}, w); break;
        case MountKind::kSymlink:
          add("read", fmt::format("{} -> {}", op.target, op.source), {"mount (symlink)"}, w);
          break;
        default: break;
      }
    }
  }

  // Hides that needed no mount: the path is absent, or only reachable through
  // a private tmpfs or the empty root, so the host's file is not in the view.
  void moot_hides() {
    for (const auto& h : plan_.hides) {
      bool mounted = false;
      for (const auto& op : plan_.mounts.ops)
        if ((op.kind == MountKind::kHideDir || op.kind == MountKind::kHideFile) &&
            op.where == h.where && op.target == h.path)
          mounted = true;
      if (mounted) continue;
      if (plan_.user_namespace)
        add("hidden", h.path, {"mount (the host's path is not in the jail's view)"},
            where_of(h.where));
      else
        hide_without_mounts(h.path, where_of(h.where));
    }
  }

  void exec() {
    for (const auto& rule : plan_.landlock.paths) {
      if (rule.kind != GrantKind::kExec) continue;
      add("execute", rule.path, {landlock()}, where_of(rule.where),
          ctx_.landlock_abi > 0
              ? ""
              : "not enforced: Landlock unavailable, everything readable is executable");
    }
    if (ctx_.landlock_abi == 0)
      add("execute", "(anything readable)", {}, "filesystem.exec",
          "not enforced: no Landlock on this kernel");
  }

  void network() {
    const auto& n = policy_.network;
    std::string w = where_of(n.mode.where);
    const SeccompOptions builtin = builtin_seccomp_options(plan_);
    if (plan_.new_netns)
      add("network", fmt::format("{}: loopback only", to_string(plan_.net)),
          {"network namespace (no interfaces but lo)"}, w);
    else if (builtin.no_inet_sockets)
      add("network", fmt::format("{}: no sockets (socketpair only)", to_string(plan_.net)),
          {"seccomp (socket families)", landlock()}, w,
          "no network namespace: the host's network is closed by seccomp, not hidden");
    else
      add("network", "host network", {}, w, "not restricted: the host's network is shared");
    if (builtin.no_unix_sockets)
      add("unix sockets", "none (socketpair only)", {"seccomp (socket families)"}, "built in",
          "no mount or network namespace would hide the host's (D-Bus, docker.sock, X11), and "
          "Landlock does not govern connect()");
    // Landlock's port rules are TCP's only; Multipath TCP and TCP Fast Open,
    // which would go around them, are refused by seccomp.
    const char* kTcpOnly = "TCP only: UDP (and ICMP) to any port is not restricted";
    for (const auto& p : n.tcp_connect)
      add("tcp connect", fmt::format("port {}", p.value), {landlock()}, where_of(p.where),
          kTcpOnly);
    for (const auto& p : n.tcp_bind)
      add("tcp bind", fmt::format("port {}", p.value), {landlock()}, where_of(p.where), kTcpOnly);
  }

  void syscalls() {
    const auto& s = policy_.seccomp;
    std::string mode = s.default_action && s.default_action->value == SeccompDefault::kDeny
                           ? "default deny (allowlist)"
                           : "default allow";
    std::string denied, allowed;
    for (const auto& d : s.deny) denied += (denied.empty() ? "" : " ") + d.value;
    for (const auto& a : s.allow) allowed += (allowed.empty() ? "" : " ") + a.value;
    // An allowed call wins over a group denied here (a call named in both
    // lists is denied): said, or the denied list would claim too much.
    if (!allowed.empty()) allowed = "; allowed, over any group denied: " + allowed;
    add("syscalls", mode + (denied.empty() ? "" : "; denied: " + denied) + allowed, {"seccomp"},
        s.default_action ? where_of(s.default_action->where) : "built in");
    add("syscalls",
        "always denied: namespace creation, TIOCSTI/TIOCLINUX, non-native ABIs (killed), "
        "socket families other than unix/inet/inet6/netlink-route, set-user-ID and "
        "set-group-ID file modes (chmod, open, creat, mknod; openat2 answers ENOSYS), "
        "extended attribute changes (EOPNOTSUPP), inode flag changes (chattr, "
        "FS_IOC_FSSETXATTR, fs-verity, file_setattr)",
        {"seccomp"}, "built in");
    const SeccompOptions guards = builtin_seccomp_options(plan_);
    if (guards.guard_kill_group)
      add("syscalls", "denied: kill(0) (no Landlock signal scoping; your process group is shared)",
          {"seccomp"}, "built in");
    if (guards.guard_truncate)
      add("syscalls",
          "denied: truncate(2) and read-only opens with O_TRUNC (no Landlock TRUNCATE right, "
          "no read-only mounts)",
          {"seccomp"}, "built in");
    if (guards.guard_kill_all)
      add("syscalls", "denied: kill(-1) (no Landlock signal scoping, no PID namespace)",
          {"seccomp"}, "built in");
    if (signals_unconfined(plan_))
      add("syscalls",
          "signals (kill, tkill, tgkill, rt_(tg)sigqueueinfo) only to the session's own "
          "processes, checked by the supervisor; pidfd_send_signal answers ENOSYS; "
          "asynchronous-I/O signals refused (F_SETOWN, F_SETSIG, O_ASYNC, FIOSETOWN, "
          "SIOCSPGRP, FIOASYNC)",
          {"seccomp", "supervisor"}, "built in");
    add("capabilities", "none (all sets and the bounding set empty, no_new_privs)",
        {"capabilities", "no_new_privs"}, "built in");
  }

  void limits() {
    for (const auto& rl : plan_.rlimits) {
      std::vector<std::string> layers = {fmt::format("rlimit {}", to_string(rl.kind))};
      std::string note;
      if (rl.kind == RlimitKind::kProcesses) {
        if (ctx_.cgroup_pids)
          layers.push_back("cgroup pids.max");
        else if (plan_.uid == 0)
          note = "RLIMIT_NPROC does not bind uid 0 and no pids cgroup is available: not enforced";
      }
      if (rl.kind == RlimitKind::kAddressSpace && ctx_.cgroup_memory)
        layers = {"cgroup memory.max"};
      std::string value = rl.kind == RlimitKind::kCpuTime ? fmt::format("{}s", rl.hard)
                                                          : fmt::format("{}", rl.hard);
      if (rl.kind == RlimitKind::kAddressSpace || rl.kind == RlimitKind::kFileSize)
        value = format_size(rl.hard);
      if (!note.empty()) layers.clear();
      add("limit", fmt::format("{} = {}", to_string(rl.kind), value), layers, where_of(rl.where),
          note);
    }
    for (const auto& [name, value] : plan_.namespace_limits)
      add("limit", fmt::format("{} = {} (half of your user's)", name, value), {"user namespace"},
          "built in");
    if (plan_.timeout_ms)
      add("limit", fmt::format("wall time = {}", format_duration_ms(*plan_.timeout_ms)),
          {"supervisor timer (TERM, grace, KILL)"}, where_of(policy_.limits.wall_time_ms->where));
  }

  void environment() {
    add("environment", fmt::format("{} variables, rebuilt from the allowlist", plan_.env.size()),
        {"supervisor"}, "environment.keep");
    for (const auto& name : plan_.dropped_secret_names)
      add("withheld", name, {"supervisor"}, "built in",
          "secret-looking; not in [environment] pass");
  }

  void assumptions() {
    auto& a = r_.assumptions;
    a.push_back("The kernel is trusted: a kernel exploit escapes every layer. Use a VM for that.");
    a.push_back(
        "What the command may read can leave through what it may write (the workspace) "
        "and, if granted, the network.");
    a.push_back(
        "Files written to the workspace (Makefiles, package scripts, .envrc, editor "
        "settings) may run later on the host when you use them outside the jail; only "
        ".git/hooks and .git/config, and what decides where git finds them (a .git file, "
        "commondir, the submodules' git directories and .git files), are kept read-only by "
        "the default profile.");
    a.push_back(
        "git on the host can still run code the command planted in git metadata it may "
        "write: a commondir or config.worktree where there was none (config and hooks read "
        "from elsewhere), a .git made where there was none, the workspace's top made a "
        "repository of its own (a HEAD there), a submodule checkout moved aside, a symbolic "
        "link on the way to .git or its hooks pointed elsewhere, or a symbolic link made in "
        ".git (git on the host writes through it, to the reflog, COMMIT_EDITMSG, refs: a "
        "file of yours anywhere is appended to or replaced, and a branch name written there "
        "can hold shell code) (each reported when the command ends, not prevented), or the "
        ".git of a "
        "repository nested in the workspace, or one it registers as a submodule later (its "
        "core.fsmonitor runs on `git status` at the top), or the state of an interrupted "
        "rebase, cherry-pick or am (.git/rebase-merge, .git/sequencer: `git rebase --continue` "
        "runs the exec lines of its todo). Look before running git in the workspace outside "
        "the jail, and do not run it there while the command runs.");
    if (plan_.terminal_relayed)
      a.push_back(
          "Run from a terminal, the command gets a pseudo-terminal of its own, which agentjail "
          "relays: what it prints reaches yours as it is (escape sequences included: titles, "
          "colours, the clipboard where your terminal accepts OSC 52), and what you type reaches "
          "it only while agentjail is the foreground job (your terminal is in raw mode "
          "meanwhile, so ^C and ^Z are the command's keys). It never holds your terminal: it "
          "cannot read what you type to another program, change your terminal's settings, or "
          "take its foreground. A command that ignores ^Z keeps the terminal, as it would "
          "outside; --timeout, or a signal to agentjail from elsewhere, still ends the "
          "session.");
    else
      a.push_back(
          "The command shares your terminal (--share-terminal, or no pseudo-terminal could be "
          "made): it can print escape sequences; typing into it "
          "(TIOCSTI, TIOCLINUX) and changing its line discipline (TIOCSETD) are blocked by "
          "seccomp, and, when it ran in the foreground, its settings, foreground group and the "
          "status flags of what you hand it on descriptors 0-2 are given back when the session "
          "ends; a window size it sets stays (yours may have changed meanwhile). It can also "
          "stop the other programs "
          "of its job (those in a pipeline with agentjail) by reading the terminal after giving "
          "the foreground to a group of its own (SIGTTIN); agentjail itself ignores that. While "
          "it holds the foreground, what you type (^C, ^Z included) goes to it alone: "
          "--timeout, or a signal to agentjail from elsewhere, still ends the session. In the "
          "background, while another job holds the terminal, it can neither take it nor change "
          "its settings, size or queues (TIOCSPGRP, TCSETS, TIOCSWINSZ, TCFLSH... are refused; "
          "so are they for a pseudo-terminal of its own then), and it has a terminal file of "
          "its own, so its O_NONBLOCK does not reach your job; nor may it leave the terminal's "
          "session then (setsid, TIOCNOTTY). But a process that left it while agentjail was the "
          "foreground job keeps its descriptors on the terminal and, once you put agentjail in "
          "the background, may read what you type there to another program (without "
          "--share-terminal it gets a terminal of its own).");
    a.push_back(fmt::format(
        "Some kernel limits count per user, your other programs and the command together, and "
        "the command can use up what is left of them while it runs: epoll watches "
        "(fs.epoll.max_user_watches), descriptors in flight over unix sockets (for an ordinary "
        "user), pipe buffers beyond pipe-user-pages-soft{}. Queued signals are capped at 1024{}. "
        "Set [limits] open_files (and memory, which a cgroup enforces for root) to bound them.",
        plan_.user_namespace ? "" : ", inotify instances and watches, fanotify groups and marks",
        plan_.user_namespace ? "; inotify and fanotify get half of your user's" : ""));
    if (plan_.net == NetMode::kHost && plan_.user_namespace)
      a.push_back(
          "The host's network is shared, its abstract unix socket names too: the command "
          "cannot connect to the host's (Landlock ABI 6 or later), but it can take a free "
          "name (an X display's, @/tmp/.X11-unix/X1, when no X server holds it) and a host "
          "program that then connects there talks to the command.");
    if (plan_.uid == 0)
      a.push_back(
          "Invoked by root, the command owns what root owns: root-only files under the "
          "read-only binds (/etc, /opt, ...) are readable unless hidden (base hides the usual "
          "secrets: shadow, host and service keys, VPN, Wi-Fi, cluster, package-repository and "
          "LDAP credentials).");
    a.push_back(
        "The exec rules decide which files may be executed, not whether the command runs "
        "code of its choosing: it can load a program into memory and run it (the dynamic "
        "loader given a memfd, an interpreter, a JIT). They stop a program from running by "
        "accident, not a hostile one.");
    if (plan_.user_namespace)
      a.push_back(
          "Hidden paths and read-only binds are mounts on the host's directory entries: a "
          "program on the host that replaces such a file while the session runs (passwd "
          "rewriting /etc/shadow; git config, git remote add or git push -u rewriting "
          ".git/config) or creates a hidden path missing at the start lifts that protection "
          "for the rest of the session, so the command may read the new file or write the "
          "new .git/config (a changed .git/config is reported when the session ends). Do not "
          "run such commands on the host while a session runs.");
    if (!plan_.user_namespace)
      a.push_back(
          "No mount namespace: where a profile forbids executing (strict's workspace), the "
          "dynamic loader can still run a file from there (ld.so ./prog), as Landlock's "
          "execute right governs only execve; with user namespaces such writable paths are "
          "mounted noexec.");
    a.push_back(
        "Landlock does not govern inotify or fanotify: the command can watch directories it "
        "may read "
        "(or, without a mount namespace, ones of yours it may not list) and learn when and "
        "which files are used there, hidden ones included.");
    if (!plan_.user_namespace)
      a.push_back(
          "No PID namespace: the command sees every process on the host in /proc, with its "
          "command line (arguments holding a password show); not their environment, memory "
          "or descriptors (Landlock refuses the ptrace access those need); it cannot change "
          "their limits, priorities or CPUs (seccomp lets prlimit, setpriority, ioprio_set and "
          "sched_set* name only the caller). It cannot signal them: Landlock scopes signals "
          "(ABI 6 or later), or below that the supervisor lets kill, tkill, tgkill and "
          "rt_(tg)sigqueueinfo through only to the session's own processes (a target that "
          "dies and whose pid is reused in between is the one gap). System V and POSIX "
          "message-queue IPC is refused (it would be the host's). Sharing your terminal "
          "session, it can move into another job's process group there and stop that job by "
          "reading the terminal (SIGTTIN).");
    if (!plan_.user_namespace)
      a.push_back(
          "No user namespace: the supervisor performs chmod and chown for the command and "
          "refuses them outside the writable paths; the timestamps of your files outside "
          "them can still be changed.");
    a.push_back(
        "The command may take file locks (flock, fcntl, OFD) on any file it may read: a host "
        "program that locks the same file (a database, a mailbox) waits while the session "
        "holds it. Leases are refused, and base hides /etc/.pwd.lock.");
    a.push_back(
        "Your terminal and any file you redirect the command's output to are handed to it "
        "as they are: it cannot change their mode, owner, ACL or inode flags (the "
        "supervisor performs chmod and chown; extended attributes and inode flags cannot be "
        "changed), but it can change their timestamps.");
    if (!plan_.timeout_ms) a.push_back("No wall-clock limit: the session runs until it ends.");
    if (ctx_.landlock_abi == 0)
      a.push_back("No Landlock on this kernel: files are bounded by the mount namespace alone.");
    for (const auto& why : plan_.landlock.not_enforced) a.push_back("Landlock: " + why);
    // Only what was asked for and is missing: root may get v1 groups where
    // the v2 hierarchy offers nothing (the note then speaks of v2 alone).
    const bool no_memory = plan_.memory_max && !ctx_.cgroup_memory;
    const bool no_pids = plan_.pids_max && !ctx_.cgroup_pids;
    if (no_memory || no_pids)
      a.push_back(fmt::format(
          "No cgroup limit for {} ({}); rlimits only, and RLIMIT_AS does not count memory held "
          "in memfds or pipes.",
          no_memory && no_pids ? "memory and processes"
          : no_memory          ? "memory"
                               : "processes",
          ctx_.cgroup_note.empty() ? "no usable controller" : ctx_.cgroup_note));
  }

  const Plan& plan_;
  const Policy& policy_;
  const ReportContext& ctx_;
  Report r_;
};

std::string json_list(const std::vector<std::string>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += ',';
    json_append(out, v[i]);
  }
  return out + "]";
}

}  // namespace

bool Report::degraded() const {
  for (const auto& r : rules)
    if (r.layers.empty()) return true;
  return false;
}

Report build_report(const Plan& plan, const Policy& policy, const ReportContext& ctx) {
  return Builder(plan, policy, ctx).run();
}

std::string format_report_text(const Report& report) {
  std::string out = "Permitted actions, and what enforces each:\n";
  for (const auto& r : report.rules) {
    std::string layers;
    for (const auto& l : r.layers) layers += (layers.empty() ? "" : " + ") + l;
    if (layers.empty()) layers = "NOT ENFORCED";
    // Subjects and notes may name paths a project holds (git metadata).
    out += fmt::format("  {:<12} {:<40} {}  [{}]\n", r.action, terminal_safe(r.subject), layers,
                       r.rule);
    if (!r.note.empty())
      out += fmt::format("  {:<12} {:<40} note: {}\n", "", "", terminal_safe(r.note));
  }
  out += "\nFailure assumptions (what this sandbox does not protect against here):\n";
  for (const auto& a : report.assumptions) out += "  - " + a + "\n";
  return out;
}

std::string format_report_json(const Report& report, const Plan& plan, const Policy& policy) {
  std::string out = "{";
  out += "\"profile_chain\":" + json_list(policy.chain);
  out += ",\"workspace\":" + json_string(plan.workspace);
  out += ",\"network\":" + json_string(to_string(plan.net));
  out += "," + plan_json_members(plan);
  out += ",\"permitted\":[";
  for (std::size_t i = 0; i < report.rules.size(); ++i) {
    const auto& r = report.rules[i];
    out += fmt::format(
        "{}{{\"action\":{},\"subject\":{},\"layers\":{},\"enforced\":{},\"rule\":{},\"note\":{}}}",
        i ? "," : "", json_string(r.action), json_string(r.subject), json_list(r.layers),
        r.layers.empty() ? "false" : "true", json_string(r.rule), json_string(r.note));
  }
  out += "],\"assumptions\":" + json_list(report.assumptions) + "}\n";
  return out;
}

}  // namespace aj
