// The jail's side of clone. Async-signal-safe calls and raw syscalls only:
// no allocation, no exceptions; failures go to the supervisor as a fixed-size
// ChildReport and the process leaves with _exit.
//
// Layer order, and why each step sits where it does:
//   1. die with the supervisor (PDEATHSIG, then re-check it is still there);
//      not dumpable, so the command cannot read our memory or /proc/1/environ
//   2. wait until the supervisor has written our uid/gid maps
//   3. hostname, mounts, pivot_root (needs the capabilities of the new userns)
//   4. loopback up (needs CAP_NET_ADMIN in the new netns)
//   5. fork the command; this process stays as PID 1: reaps, forwards signals
//   In the command: rlimits -> close inherited fds -> drop capabilities and
//   set no_new_privs -> Landlock -> seccomp (last, so the setup syscalls above
//   are not filtered) -> execve.
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/securebits.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <climits>
#include <cstring>
#include <ctime>

#include "base/digits.h"
#include "base/exit_codes.h"
#include "launch/child_mounts.h"
#include "launch/child_spec.h"
#include "launch/descendants.h"
#include "sys/cgroup.h"
#include "sys/seccomp_install.h"

namespace aj {
namespace {

void send_report(int fd, const ChildReport& r) noexcept {
  ssize_t rc;
  do {
    rc = ::send(fd, &r, sizeof r, MSG_NOSIGNAL);
  } while (rc < 0 && errno == EINTR);
}

// Hands the seccomp listener to the supervisor before exec (which blocks
// until the supervisor answers the exec notification).
bool send_listener(int fd, int listener) noexcept {
  ChildReport r{ReportType::kListener, ChildStage::kSeccomp, 0, 0, 0};
  struct iovec iov = {&r, sizeof r};
  alignas(struct cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  struct msghdr msg = {};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  struct cmsghdr* c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &listener, sizeof(int));
  ssize_t rc;
  do {
    rc = ::sendmsg(fd, &msg, MSG_NOSIGNAL);
  } while (rc < 0 && errno == EINTR);
  return rc == static_cast<ssize_t>(sizeof r);
}

// The filter the supervisor hands over (SeccompHandoff), into static
// storage: nothing may be allocated here. 0 or an errno.
int receive_seccomp(int fd, SeccompHandoff* out) noexcept {
  static BpfInsn insns[kMaxSeccompInsns];
  SeccompHandoffHeader header{};
  struct iovec iov[2] = {{&header, sizeof header}, {insns, sizeof insns}};
  struct msghdr msg = {};
  msg.msg_iov = iov;
  msg.msg_iovlen = 2;
  ssize_t n;
  do {
    n = ::recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  if (n < 0) return errno;
  if (n == 0) return EPIPE;  // the supervisor is gone (or gave up on the launch)
  const std::size_t got = static_cast<std::size_t>(n);
  if (got < sizeof header || header.magic != kSeccompHandoffMagic || header.count == 0 ||
      header.count > kMaxSeccompInsns || (msg.msg_flags & MSG_TRUNC) ||
      got != sizeof header + header.count * sizeof(BpfInsn))
    return EPROTO;
  *out = {insns, header.count, header.listener != 0};
  return 0;
}

[[noreturn]] void die(const ChildSpec& spec, ChildStage stage, int index, int err,
                      int code = kExitSetupFailed) noexcept {
  send_report(spec.status_fd, {ReportType::kError, stage, index, err, 0});
  ::_exit(code);
}

bool supervisor_gone(int fd) noexcept {
  struct pollfd p = {fd, POLLRDHUP, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLRDHUP | POLLERR));
}

int bring_up_loopback() noexcept {
  int s = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (s < 0) return errno;
  struct ifreq ifr = {};
  std::memcpy(ifr.ifr_name, "lo", 3);
  int err = 0;
  if (::ioctl(s, SIOCGIFFLAGS, &ifr) < 0) {
    err = errno;
  } else {
    ifr.ifr_flags = static_cast<short>(ifr.ifr_flags | IFF_UP | IFF_RUNNING);
    if (::ioctl(s, SIOCSIFFLAGS, &ifr) < 0) err = errno;
  }
  ::close(s);
  return err;
}

// Drops every capability: bounding set, ambient, then the three sets. The
// securebits first (they need CAP_SETPCAP): without them a uid 0 command would
// regain a full set at execve.
int drop_capabilities() noexcept {
  struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2] = {};
  if (::syscall(SYS_capget, &hdr, data) < 0) return errno;
  // Without user namespaces an ordinary caller holds nothing to drop, and may
  // not touch the securebits or the bounding set; no_new_privs covers exec.
  if ((data[0].permitted | data[1].permitted) == 0 && ::getuid() != 0) return 0;
  constexpr unsigned long kSecurebits = SECBIT_NOROOT | SECBIT_NOROOT_LOCKED |
                                        SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED |
                                        SECBIT_KEEP_CAPS_LOCKED | SECBIT_NO_CAP_AMBIENT_RAISE |
                                        SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
  if (::prctl(PR_SET_SECUREBITS, kSecurebits, 0, 0, 0) < 0) return errno;
  if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
    return errno;
  // EINVAL: past the kernel's last capability, and so is every higher one.
  for (int cap = 0; cap <= 63; ++cap) {
    if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0) {
      if (errno == EINVAL) break;
      return errno;
    }
  }
  std::memset(data, 0, sizeof data);
  if (::syscall(SYS_capset, &hdr, data) < 0) return errno;
  return 0;
}

// Keeps 0, 1, 2 and the fds the user passed; everything else closes at exec.
// Descriptors 0-2 that are the caller's terminal get an open file of their
// own: the status flags (O_NONBLOCK, O_ASYNC) belong to the open file, which
// the caller's shell and its other jobs share, so a jail in the background
// setting O_NONBLOCK would make the foreground job's reads fail with EAGAIN.
// Where the terminal cannot be opened again (not the caller's own), the
// inherited one stays.
void reopen_terminal_stdio() noexcept {
  for (int fd = 0; fd < 3; ++fd) {
    if (!::isatty(fd)) continue;
    const int flags = ::fcntl(fd, F_GETFL);
    char path[] = "/proc/self/fd/N";
    path[sizeof path - 2] = static_cast<char>('0' + fd);
    const int fresh = ::open(path, (flags & O_ACCMODE) | O_NOCTTY | O_CLOEXEC);
    if (fresh < 0) continue;
    ::dup3(fresh, fd, 0);
    ::close(fresh);
  }
}

int close_inherited_fds(const ChildSpec& spec) noexcept {
  if (::syscall(SYS_close_range, 3U, ~0U, 4U /* CLOSE_RANGE_CLOEXEC */) < 0) return errno;
  for (std::size_t i = 0; i < spec.pass_fd_count; ++i) {
    int fd = spec.pass_fds[i];
    int flags = ::fcntl(fd, F_GETFD);
    if (flags < 0 || ::fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC) < 0) return errno;
  }
  return 0;
}

// execvpe without allocation. PATH is searched with faccessat first so only
// the one execve that should succeed is made (each is a notification to the
// supervisor when exec is journaled). Returns the most telling errno.
int exec_command(const ChildSpec& spec) noexcept {
  const char* file = spec.argv[0];
  if (std::strchr(file, '/')) {
    ::execve(file, spec.argv, spec.envp);
    return errno;
  }
  const char* path = spec.path_search ? spec.path_search : kDefaultSearchPath;
  int best = ENOENT;
  char buf[PATH_MAX];
  std::size_t flen = std::strlen(file);
  while (true) {
    const char* end = std::strchr(path, ':');
    std::size_t dlen = end ? static_cast<std::size_t>(end - path) : std::strlen(path);
    if (dlen + 1 + flen + 1 <= sizeof buf) {
      std::size_t n = 0;
      if (dlen == 0) {
        buf[n++] = '.';
      } else {
        std::memcpy(buf, path, dlen);
        n = dlen;
      }
      buf[n++] = '/';
      std::memcpy(buf + n, file, flen + 1);
      if (::faccessat(AT_FDCWD, buf, X_OK, AT_EACCESS) == 0) {
        ::execve(buf, spec.argv, spec.envp);
        // As execvp: EACCES (e.g. Landlock refusing one PATH entry) is
        // remembered and the search goes on; other failures end it.
        if (errno == EACCES || errno == EPERM)
          best = errno;
        else if (errno != ENOENT && errno != ENOTDIR)
          return errno;
      } else if (errno == EACCES || errno == EPERM) {
        best = errno;
      }
    }
    if (!end) break;
    path = end + 1;
  }
  return best;
}

// Our user namespace's share of the per-user limits (Plan::namespace_limits).
// /proc/sys/user shows the writer's own namespace, which we own here. Best
// effort: a kernel that refuses one leaves the host's limit alone in force.
void set_namespace_limits(const ChildSpec& spec) noexcept {
  for (std::size_t i = 0; i < spec.user_limit_count; ++i) {
    const int fd = ::open(spec.user_limit_files[i], O_WRONLY | O_CLOEXEC);
    if (fd < 0) continue;
    const std::size_t len = std::strlen(spec.user_limit_values[i]);
    [[maybe_unused]] const ssize_t n = ::write(fd, spec.user_limit_values[i], len);
    ::close(fd);
  }
}

[[noreturn]] void run_command(const ChildSpec& spec) noexcept {
  // The jail's own terminal: the command leads a process group of its own,
  // the terminal's foreground (SIGTTOU is still blocked here). In the init's
  // group it would be orphaned, the init's parent being outside the session,
  // and the kernel would drop the ^Z sent to it.
  if (spec.terminal_slave >= 0) {
    ::setpgid(0, 0);
    ::tcsetpgrp(spec.terminal_slave, ::getpid());
  }
  // Signals back to their defaults for the command.
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) ::signal(sig, SIG_DFL);
  }
  ::sigprocmask(SIG_SETMASK, &spec.command_sigmask, nullptr);
  ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);

  int index = -1;
  const ChildHooks& h = spec.hooks;
  if (h.apply_rlimits) {
    if (int e = h.apply_rlimits(h.rlimits_ctx, &index)) die(spec, ChildStage::kRlimits, index, e);
  }
  if (int e = close_inherited_fds(spec)) die(spec, ChildStage::kCloseFds, -1, e);
  // A fresh, empty session keyring: the caller's keys (and its user's) stay
  // out of reach even for a profile that allows the keyring syscalls.
  if (::syscall(SYS_keyctl, 1 /* KEYCTL_JOIN_SESSION_KEYRING */, nullptr) < 0 && errno != ENOSYS)
    die(spec, ChildStage::kSetup, -1, errno);
  if (int e = drop_capabilities()) die(spec, ChildStage::kCapabilities, -1, e);
  // no_new_privs: required by Landlock and unprivileged seccomp, and makes
  // setuid binaries inside inert.
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) die(spec, ChildStage::kNoNewPrivs, -1, errno);
  if (h.apply_landlock) {
    if (int e = h.apply_landlock(h.landlock_ctx, &index))
      die(spec, ChildStage::kLandlock, index, e);
  }
  if (spec.receive_seccomp) {
    SeccompHandoff prog;
    if (int e = receive_seccomp(spec.status_fd, &prog)) die(spec, ChildStage::kSeccomp, -1, e);
    // Dumpable again so the supervisor may read this process's memory (the
    // exec notification's path and argv); nothing else in the jail runs yet,
    // and execve resets it by the usual rules.
    if (prog.listener) ::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    int listener = -1;
    int e = prog.listener ? install_seccomp_listener(prog.insns, prog.count, &listener)
                          : install_seccomp_filter(prog.insns, prog.count);
    if (e) die(spec, ChildStage::kSeccomp, -1, e);
    if (listener >= 0) {
      if (!send_listener(spec.status_fd, listener)) die(spec, ChildStage::kSeccomp, -1, errno);
      ::close(listener);
    }
  }
  int err = exec_command(spec);
  int code = (err == ENOENT || err == ENOTDIR) ? kExitNotFound : kExitNotExecutable;
  die(spec, ChildStage::kExec, -1, err, code);
}

// Kills and reaps every other process of the session. As PID 1 of the jail's
// PID namespace, kill(-1) reaches all of them (a fork racing it fails, its
// parent having a fatal signal pending), and all end up as our children.
// Without one, the command's descendants are found through /proc.
void end_session(const ChildSpec& spec) noexcept {
  // kill(-1) outside a PID namespace of our own would reach the host's
  // processes: only PID 1 uses it.
  if (!spec.user_namespace || ::getpid() != 1) {
    kill_descendants();
    return;
  }
  ::kill(-1, SIGKILL);
  int status;
  while (::waitpid(-1, &status, 0) > 0 || errno == EINTR) {
  }
}

// Without a PID namespace the init's death would not end the session:
// processes that left the command's process tree (setsid, double fork) come
// to the init as its subreaper, and must be killed by it. So the init's
// parent-death signal is this one, caught, rather than SIGKILL.
int supervisor_gone_signal() noexcept { return SIGRTMAX; }

// PID 1: forward what the supervisor sends, reap everything, leave with the
// command. Terminal-generated signals (SI_KERNEL) are not forwarded: the
// command shares our process group and already received them.
[[noreturn]] void be_init(const ChildSpec& spec, pid_t command, pid_t supervisor) noexcept {
  sigset_t all;
  ::sigfillset(&all);
  while (true) {
    siginfo_t info;
    int sig = ::sigwaitinfo(&all, &info);
    if (sig < 0) continue;
    if (sig == supervisor_gone_signal() && !spec.user_namespace) {
      // Only the kernel and the supervisor can signal us (the command's
      // filter protects our pid); act only once the parent is really gone.
      if (::getppid() == supervisor) continue;
      end_session(spec);
      ::_exit(kExitSetupFailed);
    }
    if (sig == SIGCHLD) {
      int status = 0;
      pid_t pid;
      // With a terminal of the jail's own, ^Z stops the command only: said,
      // so that agentjail stops too and the user gets the shell back. So is
      // any other stop (SIGSTOP, SIGTTIN): the user's terminal, raw for the
      // relay, would otherwise stay with a command that reads no more.
      const int stops = spec.terminal_slave >= 0 ? WUNTRACED : 0;
      while ((pid = ::waitpid(-1, &status, WNOHANG | stops)) > 0) {
        if (WIFSTOPPED(status)) {
          if (pid == command)
            send_report(spec.status_fd, {ReportType::kStopped, ChildStage::kExec, 0, 0, status});
          continue;
        }
        if (pid == command) {
          // The report says the session is over: nothing of it runs after
          // it is sent (the supervisor closes the journal on it, while our
          // own exit still tears the namespaces down).
          end_session(spec);
          send_report(spec.status_fd, {ReportType::kExited, ChildStage::kExec, 0, 0, status});
          ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : kExitSignalBase + WTERMSIG(status));
        }
      }
      continue;
    }
    if (info.si_code == SI_KERNEL) continue;
    ::kill(command, sig);
  }
}

}  // namespace

[[noreturn]] void run_child(const ChildSpec& spec) noexcept {
  if (spec.supervisor_fd >= 0) ::close(spec.supervisor_fd);
  // Die with the supervisor; then check it did not die before we asked.
  // (With a PID namespace of our own, SIGKILL: the kernel then kills every
  // process in it.)
  const pid_t supervisor = ::getppid();
  const int death_signal = spec.user_namespace ? SIGKILL : supervisor_gone_signal();
  if (::prctl(PR_SET_PDEATHSIG, death_signal, 0, 0, 0) < 0)
    die(spec, ChildStage::kSetup, -1, errno);
  if (supervisor_gone(spec.status_fd)) ::_exit(kExitSetupFailed);

  char go = 0;
  ssize_t n;
  do {
    n = ::recv(spec.status_fd, &go, 1, 0);
  } while (n < 0 && errno == EINTR);
  if (n != 1 || go != 'G') ::_exit(kExitSetupFailed);
  // Only after the go: the supervisor narrows our CPUs before sending it.
  if (spec.cpu_affinity) ::sched_setaffinity(0, sizeof(cpu_set_t), spec.cpu_affinity);
  // Join the session's v1 cgroups ourselves: cheap for a single thread, where
  // the supervisor moving us would wait for an RCU grace period. (v2 groups
  // were joined by clone3 itself.)
  std::size_t failed_group = 0;
  if (int e = cgroup_enter_self(spec.cgroup_task_fds, spec.cgroup_task_fd_count, &failed_group))
    die(spec, ChildStage::kCgroup, static_cast<int>(failed_group), e);
  if (spec.terminal_slave >= 0) {
    for (int fd = 0; fd < 3; ++fd)
      if ((spec.terminal_stdio & (1U << fd)) && ::dup2(spec.terminal_slave, fd) < 0)
        die(spec, ChildStage::kSetup, -1, errno);
  } else {
    reopen_terminal_stdio();  // after the go: our ids are mapped
  }
  // Not dumpable from here on (not before: the supervisor had to write our
  // /proc/PID/uid_map, which non-dumpable processes keep root-owned).
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);

  if (spec.user_namespace) {
    if (::sethostname(spec.hostname, std::strlen(spec.hostname)) < 0)
      die(spec, ChildStage::kSetup, -1, errno);
    set_namespace_limits(spec);
    ChildFailure failure{};
    if (!build_filesystem(spec, &failure)) die(spec, failure.stage, failure.index, failure.err);
    if (spec.new_netns) {
      if (int e = bring_up_loopback()) die(spec, ChildStage::kLoopback, -1, e);
    }
  }
  if (::chdir(spec.cwd) < 0) die(spec, ChildStage::kChdir, -1, errno);
  // Without a PID namespace we are not PID 1: become the subreaper so the
  // command's orphans come to us and can be ended with the session.
  if (!spec.user_namespace && ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
    die(spec, ChildStage::kSetup, -1, errno);

  // No controlling terminal: a session of the jail's own, so that kill(0)
  // inside reaches the jail only.
  if (spec.new_session && ::setsid() < 0) die(spec, ChildStage::kSetup, -1, errno);
  // The jail's own terminal becomes the session's: /dev/tty, job control
  // and ^C inside work on it, and its foreground is our process group.
  if (spec.terminal_slave >= 0 && ::ioctl(spec.terminal_slave, TIOCSCTTY, 0) < 0)
    die(spec, ChildStage::kSetup, -1, errno);

  sigset_t all;
  ::sigfillset(&all);
  ::sigprocmask(SIG_BLOCK, &all, nullptr);
  pid_t command = static_cast<pid_t>(::syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0));
  if (command < 0) die(spec, ChildStage::kFork, -1, errno);
  if (command == 0) run_command(spec);
  be_init(spec, command, supervisor);
}

}  // namespace aj
