#include "launch/launcher.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include "base/exit_codes.h"
#include "base/unique_fd.h"
#include "launch/descendants.h"
#include "plan/env_plan.h"
#include "supervise/supervisor.h"

namespace aj {
namespace {

// Owns the strings' pointer arrays the child reads after clone.
struct SpecStorage {
  std::vector<ChildMount> mounts;
  std::vector<std::string> limit_strings;  // file, value, file, value, ...
  std::vector<const char*> limit_files, limit_values;
  std::vector<char*> argv;
  std::vector<char*> envp;
  std::string path_search;
};

void flatten(const Plan& plan, SpecStorage& st) {
  for (const auto& op : plan.mounts.ops) {
    st.mounts.push_back({op.kind, op.source.empty() ? nullptr : op.source.c_str(),
                         op.target.c_str(), op.mode, op.optional, op.noexec});
  }
  for (const auto& a : plan.argv) st.argv.push_back(const_cast<char*>(a.c_str()));
  st.argv.push_back(nullptr);
  for (const auto& e : plan.env) st.envp.push_back(const_cast<char*>(e.c_str()));
  st.envp.push_back(nullptr);
  st.path_search = env_value(plan.env, "PATH");
  for (const auto& [name, value] : plan.namespace_limits) {
    st.limit_strings.push_back("/proc/sys/user/" + name);
    st.limit_strings.push_back(std::to_string(value));
  }
  for (std::size_t i = 0; i + 1 < st.limit_strings.size(); i += 2) {
    st.limit_files.push_back(st.limit_strings[i].c_str());
    st.limit_values.push_back(st.limit_strings[i + 1].c_str());
  }
}

Result<void> write_file(const std::string& path, const std::string& content) {
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
  if (!fd) return sys_error("open", path, errno);
  if (::write(fd.get(), content.data(), content.size()) != static_cast<ssize_t>(content.size()))
    return sys_error("write", path, errno);
  return {};
}

// The caller's ids mapped to themselves; setgroups denied (required for an
// unprivileged gid_map, and keeps supplementary groups from being dropped to
// reach group-denied files).
Result<void> write_id_maps(pid_t pid, std::uint32_t uid, std::uint32_t gid) {
  std::string base = fmt::format("/proc/{}/", pid);
  AJ_TRY(write_file(base + "setgroups", "deny"));
  AJ_TRY(write_file(base + "uid_map", fmt::format("{} {} 1\n", uid, uid)));
  AJ_TRY(write_file(base + "gid_map", fmt::format("{} {} 1\n", gid, gid)));
  return {};
}

// cgroup_fd >= 0: start the child in that (v2) group.
pid_t clone_child(std::uint64_t flags, int cgroup_fd, int* pidfd) {
  struct clone_args args;
  std::memset(&args, 0, sizeof args);
  args.flags = flags | CLONE_PIDFD;
  if (cgroup_fd >= 0) {
    args.flags |= CLONE_INTO_CGROUP;
    args.cgroup = static_cast<std::uint64_t>(cgroup_fd);
  }
  args.pidfd = reinterpret_cast<std::uint64_t>(pidfd);
  args.exit_signal = SIGCHLD;
  return static_cast<pid_t>(::syscall(SYS_clone3, &args, sizeof args));
}

void kill_and_reap(int pidfd) {
  ::syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, nullptr, 0);
  siginfo_t info;
  ::waitid(static_cast<idtype_t>(P_PIDFD), static_cast<id_t>(pidfd), &info, WEXITED);
}

// A new child waits on this CPU until we block, and we compile the seccomp
// filter and write session.start first (about a millisecond): the scheduler
// rarely moves it to an idle CPU in that time. So it is moved off this CPU
// (to whichever of the others the scheduler prefers), and takes back the
// whole set once it has the go (ChildSpec::cpu_affinity).
void start_elsewhere(pid_t pid, const cpu_set_t& allowed) {
  const int here = ::sched_getcpu();
  if (here < 0 || here >= CPU_SETSIZE) return;
  cpu_set_t others = allowed;
  CPU_CLR(here, &others);
  if (CPU_COUNT(&others) > 0) ::sched_setaffinity(pid, sizeof others, &others);
}

// One message: the header, then the instructions (see SeccompHandoff).
bool send_seccomp(int fd, const SeccompHandoff& prog) {
  SeccompHandoffHeader header{kSeccompHandoffMagic, static_cast<std::uint32_t>(prog.count),
                              prog.listener ? 1U : 0U};
  struct iovec iov[2] = {{&header, sizeof header},
                         {const_cast<BpfInsn*>(prog.insns), prog.count * sizeof(BpfInsn)}};
  struct msghdr msg = {};
  msg.msg_iov = iov;
  msg.msg_iovlen = 2;
  ssize_t n;
  do {
    n = ::sendmsg(fd, &msg, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(sizeof header + prog.count * sizeof(BpfInsn));
}

Outcome outcome_of(const SuperviseResult& sr) {
  Outcome out;
  out.timed_out = sr.timed_out;
  out.journal_failed = sr.journal_failed;
  out.failure = sr.failure;
  int status = sr.command_wait_status.value_or(sr.init_wait_status);
  if (sr.failure) {
    if (sr.failure->stage == ChildStage::kExec)
      out.exit_code = (sr.failure->err == ENOENT || sr.failure->err == ENOTDIR)
                          ? kExitNotFound
                          : kExitNotExecutable;
    else
      out.exit_code = kExitSetupFailed;
  } else if (sr.timed_out) {
    out.exit_code = kExitTimeout;
  } else if (WIFEXITED(status)) {
    out.exit_code = WEXITSTATUS(status);
  } else if (sr.journal_failed) {
    out.exit_code = kExitSetupFailed;
  } else if (WIFSIGNALED(status)) {
    out.exit_code = kExitSignalBase + WTERMSIG(status);
    out.signal = WTERMSIG(status);
  } else {
    out.exit_code = kExitSetupFailed;
  }
  return out;
}

const char* stage_verb(ChildStage stage) {
  switch (stage) {
    case ChildStage::kSync: return "synchronise with the supervisor";
    case ChildStage::kSetup: return "set up the namespaces";
    case ChildStage::kStaging: return "prepare the new root";
    case ChildStage::kPivot: return "pivot into the new root";
    case ChildStage::kLoopback: return "bring up the loopback interface";
    case ChildStage::kChdir: return "enter the working directory";
    case ChildStage::kFork: return "start the command";
    case ChildStage::kRlimits: return "set resource limits";
    case ChildStage::kCloseFds: return "close inherited file descriptors";
    case ChildStage::kCapabilities: return "drop capabilities";
    case ChildStage::kNoNewPrivs: return "set no_new_privs";
    case ChildStage::kLandlock: return "apply Landlock rules";
    case ChildStage::kSeccomp: return "install the seccomp filter";
    case ChildStage::kCgroup: return "join the session's cgroup";
    default: return "set up the jail";
  }
}

}  // namespace

std::string describe_failure(const Plan& plan, const ChildReport& r) {
  std::string why = std::strerror(r.err);
  bool has_op = r.index >= 0 && static_cast<std::size_t>(r.index) < plan.mounts.ops.size();
  if ((r.stage == ChildStage::kMount || r.stage == ChildStage::kOpenSource) && has_op) {
    const MountOp& op = plan.mounts.ops[static_cast<std::size_t>(r.index)];
    std::string where = op.where.file.empty() ? "built in" : op.where.str();
    const char* verb = op.is_bind() ? "bind" : "mount";
    if (op.kind == MountKind::kHideDir || op.kind == MountKind::kHideFile) verb = "hide";
    if (op.kind == MountKind::kSymlink) verb = "create symlink";
    return fmt::format("cannot {} '{}' ({}): {}", verb, op.is_bind() ? op.source : op.target, where,
                       why);
  }
  if (r.stage == ChildStage::kExec) {
    const std::string& cmd = plan.argv.empty() ? std::string() : plan.argv[0];
    if (r.err == ENOENT) return fmt::format("command not found: '{}'", cmd);
    return fmt::format("cannot execute '{}': {}", cmd, why);
  }
  if (r.stage == ChildStage::kChdir)
    return fmt::format("cannot enter the working directory '{}': {}", plan.cwd, why);
  return fmt::format("cannot {}: {}", stage_verb(r.stage), why);
}

Result<Outcome> launch(const Plan& plan, const LaunchOptions& options) {
  SpecStorage storage;
  flatten(plan, storage);

  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
    return sys_error("socketpair", "", errno);
  UniqueFd supervisor_end(sv[0]), child_end(sv[1]);

  ChildSpec spec;
  spec.status_fd = child_end.get();
  spec.supervisor_fd = supervisor_end.get();
  spec.user_namespace = plan.user_namespace;
  spec.new_netns = plan.new_netns;
  spec.new_session = plan.own_session;
  spec.terminal_slave = options.terminal_slave;
  spec.terminal_stdio = options.terminal_stdio;
  spec.mounts = storage.mounts.data();
  spec.mount_count = plan.user_namespace ? storage.mounts.size() : 0;
  spec.hostname = plan.hostname.c_str();
  spec.user_limit_files = storage.limit_files.data();
  spec.user_limit_values = storage.limit_values.data();
  spec.user_limit_count = storage.limit_files.size();
  spec.cwd = plan.cwd.c_str();
  spec.argv = storage.argv.data();
  spec.envp = storage.envp.data();
  spec.path_search = storage.path_search.empty() ? nullptr : storage.path_search.c_str();
  spec.pass_fds = options.pass_fds.data();
  spec.pass_fd_count = options.pass_fds.size();
  spec.hooks = options.hooks;
  spec.receive_seccomp = static_cast<bool>(options.while_child_builds);
  // Joining a cgroup without a migration (see SessionCgroup::Group::entry):
  // v2 through clone3, v1 by the child itself.
  const int into_cgroup = options.cgroup ? options.cgroup->v2_clone_into_fd() : -1;
  std::vector<int> task_fds;
  if (options.cgroup) task_fds = options.cgroup->v1_task_fds();
  spec.cgroup_task_fds = task_fds.data();
  spec.cgroup_task_fd_count = task_fds.size();

  // Block the supervised signals before clone so none is lost; the command
  // gets the original mask back.
  sigset_t supervised = supervised_signals();
  ::sigprocmask(SIG_BLOCK, &supervised, &spec.command_sigmask);

  // Without a PID namespace the init is an ordinary process of the user: if
  // it dies before its session (a kernel without Landlock signal scoping
  // lets the command kill it), its orphans come to us rather than to the
  // host's init, and are ended below.
  if (!plan.user_namespace) ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  std::uint64_t flags = 0;
  if (plan.user_namespace) {
    flags =
        CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWCGROUP;
    if (plan.new_netns) flags |= CLONE_NEWNET;
  }
  cpu_set_t affinity;
  const bool know_affinity = ::sched_getaffinity(0, sizeof affinity, &affinity) == 0;
  if (know_affinity) spec.cpu_affinity = &affinity;
  int pidfd_raw = -1;
  pid_t pid = clone_child(flags, into_cgroup, &pidfd_raw);
  if (pid == 0) run_child(spec);
  bool placed = into_cgroup >= 0 && pid > 0;
  if (pid < 0 && into_cgroup >= 0) {
    // A kernel without CLONE_INTO_CGROUP (< 5.7), or one refusing it: place
    // the child the slow way below. A refused user namespace fails again.
    pid = clone_child(flags, -1, &pidfd_raw);
    if (pid == 0) run_child(spec);
  }
  if (pid < 0) {
    int e = errno;
    ::sigprocmask(SIG_SETMASK, &spec.command_sigmask, nullptr);
    return sys_error("clone", "user namespace", e);
  }
  UniqueFd pidfd(pidfd_raw);
  child_end.reset();
  if (know_affinity) start_elsewhere(pid, affinity);

  Result<void> maps;
  if (into_cgroup >= 0 && !placed) maps = cgroup_add_pid(*options.cgroup, pid);
  if (maps && plan.user_namespace) maps = write_id_maps(pid, plan.uid, plan.gid);
  if (!maps) {
    kill_and_reap(pidfd.get());
    return unexpected(std::move(maps).error().with_context("cannot prepare the jail's process"));
  }
  char go = 'G';
  if (::send(supervisor_end.get(), &go, 1, MSG_NOSIGNAL) != 1) {
    // The child died before the go: its report (if any) says why.
  }
  if (options.while_child_builds) {
    auto handoff = options.while_child_builds(pid);
    if (!handoff) {
      kill_and_reap(pidfd.get());
      return unexpected(std::move(handoff).error());
    }
    // A child that died meanwhile cannot take it: its report says why.
    (void)send_seccomp(supervisor_end.get(), *handoff);
  }

  SuperviseOptions so;
  so.pidfd = pidfd.get();
  so.status_fd = supervisor_end.get();
  so.timeout_ms = options.timeout_ms;
  so.grace_ms = options.grace_ms;
  so.notify = options.notify;
  so.sink = options.sink;
  so.signal_session = options.signal_session;
  so.relay = options.relay;
  if (options.on_command_exit)
    so.on_command_exit = [&options](const SuperviseResult& sr) {
      options.on_command_exit(outcome_of(sr));
    };
  SuperviseResult sr = supervise(so);
  if (!plan.user_namespace) kill_descendants();

  Outcome out = outcome_of(sr);
  ::sigprocmask(SIG_SETMASK, &spec.command_sigmask, nullptr);
  return out;
}

}  // namespace aj
