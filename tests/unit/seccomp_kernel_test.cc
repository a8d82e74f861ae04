// The compiled filters installed for real, in a forked child that reports back
// through its exit status: the kernel, not the BPF model, has the last word.
#include <doctest/doctest.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/keyctl.h>
#include <linux/netlink.h>
#include <linux/openat2.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>

#include "seccomp/filter.h"
#include "sys/seccomp_install.h"

namespace aj {
namespace {

#ifndef SYS_clone3
#define SYS_clone3 435
#endif

StringList items(const std::vector<std::string>& names) {
  StringList out;
  for (const auto& n : names) out.push_back({n, SourceLoc{"test.toml", 1, 1}});
  return out;
}

BpfProgram compile(SeccompDefault def, std::vector<std::string> deny,
                   std::vector<std::string> allow, SeccompAction action = SeccompAction::kErrno,
                   SeccompOptions options = {}) {
  SeccompPolicy p;
  p.default_action = Item<SeccompDefault>{def, {}};
  p.deny = items(deny);
  p.allow = items(allow);
  p.action = Item<SeccompAction>{action, {}};
  auto r = compile_seccomp(p, options);
  if (!r) FAIL(r.error().render());
  return std::move(r).value();
}

BpfProgram default_profile() {
  return compile(SeccompDefault::kAllow,
                 {"@mount", "@keyring", "@bpf", "@perf", "@debug", "@privileged", "@handle",
                  "@userfaultfd", "@io_uring", "@cpu-emulation", "@obsolete"},
                 {});
}

BpfProgram strict_profile() { return compile(SeccompDefault::kDeny, {}, {"@default"}); }

// Exit codes the child uses for its own failures (above every errno we expect).
constexpr int kNoNewPrivsFailed = 250;
constexpr int kInstallFailed = 251;

// Runs body in a forked child, under `prog` when given; returns the wait status.
int run_child(const BpfProgram* prog, const std::function<int()>& body) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    if (prog != nullptr) {
      if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) _exit(kNoNewPrivsFailed);
      if (install_seccomp_filter(prog->insns.data(), prog->insns.size()) != 0) {
        _exit(kInstallFailed);
      }
    }
    _exit(body());
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// The errno the probe ends with in a filtered child (0: it worked), or -signal.
int outcome(const BpfProgram* prog, const std::function<int()>& probe) {
  const int status = run_child(prog, probe);
  if (WIFSIGNALED(status)) return -WTERMSIG(status);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) != kNoNewPrivsFailed);
  REQUIRE(WEXITSTATUS(status) != kInstallFailed);
  return WEXITSTATUS(status);
}

int errno_of(long rc) { return rc < 0 ? errno : 0; }

// A call that would fork when not refused: the copy leaves at once.
int errno_of_fork(long rc) {
  if (rc == 0) _exit(0);
  if (rc > 0) waitpid(static_cast<pid_t>(rc), nullptr, 0);
  return rc < 0 ? errno : 0;
}

int pipe_fd() {
  int fds[2];
  if (pipe(fds) != 0) _exit(249);
  return fds[0];
}

// Runs op on a fresh file in /tmp (its path and a descriptor), then removes
// the file; returns op's errno.
int on_scratch_file(const std::function<long(const char*, int)>& op) {
  char path[] = "/tmp/aj-seccomp-test-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return 248;
  const int err = errno_of(op(path, fd));
  unlink(path);
  return err;
}

constexpr long kFchmodat2 = 452;  // Linux 6.6; not in every libc's headers

// Set above the low 32 bits the kernel reads, to try to slip past the filter.
constexpr unsigned long kHigh = 1UL << 32;

struct Probe {
  const char* what;
  std::function<int()> run;
  int filtered;  // errno under the default profile (0: works)
  // Also run unfiltered (as root, where privilege checks do not answer EPERM
  // first): it must then not fail with that errno, so the filter is what refuses.
  bool control;
};

std::vector<Probe> probes() {
  return {
      {"mount", [] { return errno_of(mount("none", "/nonexistent-aj", "tmpfs", 0, nullptr)); },
       EPERM, true},
      {"umount2", [] { return errno_of(umount2("/nonexistent-aj", 0)); }, EPERM, true},
      {"fsopen", [] { return errno_of(syscall(SYS_fsopen, "nosuchfs-aj", 0)); }, EPERM, true},
      {"keyctl",
       [] {
         return errno_of(syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0));
       },
       EPERM, true},
      {"bpf", [] { return errno_of(syscall(SYS_bpf, 0, nullptr, 0)); }, EPERM, true},
      {"perf_event_open",
       [] { return errno_of(syscall(SYS_perf_event_open, nullptr, 0, -1, -1, 0)); }, EPERM, true},
      {"ptrace", [] { return errno_of(syscall(SYS_ptrace, 16 /* ATTACH */, 0x7ffffff0, 0, 0)); },
       EPERM, true},
      // No control: kernel.io_uring_disabled=2 answers EPERM even to root.
      {"io_uring_setup", [] { return errno_of(syscall(SYS_io_uring_setup, 1, nullptr)); }, EPERM,
       false},
      {"open_by_handle_at", [] { return errno_of(syscall(SYS_open_by_handle_at, -1, nullptr, 0)); },
       EPERM, true},
      {"userfaultfd", [] { return errno_of(syscall(SYS_userfaultfd, 0)); }, EPERM, true},
      {"unshare(CLONE_NEWUSER)", [] { return errno_of(unshare(CLONE_NEWUSER)); }, EPERM, true},
      {"unshare(CLONE_NEWNS)", [] { return errno_of(unshare(CLONE_NEWNS)); }, EPERM, true},
      {"clone(CLONE_NEWPID)",
       [] { return errno_of_fork(syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, 0, 0, 0, 0)); }, EPERM,
       true},
      {"setns", [] { return errno_of(setns(-1, 0)); }, EPERM, true},
      {"clone3", [] { return errno_of(syscall(SYS_clone3, nullptr, 0)); }, ENOSYS, true},
      {"ioctl(TIOCSTI | 1 << 32)",
       [] {
         char c = 'x';
         return errno_of(syscall(SYS_ioctl, pipe_fd(), TIOCSTI | kHigh, &c));
       },
       EPERM, true},
      {"ioctl(TIOCLINUX)",
       [] { return errno_of(syscall(SYS_ioctl, pipe_fd(), TIOCLINUX, nullptr)); }, EPERM, true},
      // Access mode 3 asks Landlock for no right: truncation, leases and
      // ioctls on any file of the user's.
      {"open(O_ACCMODE)", [] { return errno_of(open("/dev/null", O_ACCMODE | O_CLOEXEC)); }, EPERM,
       true},
      {"openat(O_ACCMODE | O_TRUNC | 1 << 32)",
       [] {
         return errno_of(syscall(SYS_openat, AT_FDCWD, "/dev/null", O_ACCMODE | O_TRUNC | kHigh));
       },
       EPERM, true},
      {"fcntl(F_SETLEASE)",
       [] { return on_scratch_file([](auto, int fd) { return fcntl(fd, F_SETLEASE, F_RDLCK); }); },
       EPERM, true},
      {"ioctl(EXT4_IOC_SETVERSION)",
       [] {
         long v = 1;
         return errno_of(syscall(SYS_ioctl, pipe_fd(), 0x40086604, &v));
       },
       EPERM, true},
      // Stopping the terminal's output (tcflow(TCOOFF)) would block the
      // supervisor's own messages, and with them its timeout.
      {"ioctl(TCXONC)", [] { return errno_of(syscall(SYS_ioctl, pipe_fd(), TCXONC, TCOOFF)); },
       EPERM, true},
      // A text console's keyboard mode and active VT (KDSKBMODE, VT_ACTIVATE).
      {"ioctl(KDSKBMODE)",
       [] { return errno_of(syscall(SYS_ioctl, pipe_fd(), 0x4b45, 4 /* K_OFF */)); }, EPERM, true},
      {"ioctl(VT_ACTIVATE | 1 << 32)",
       [] { return errno_of(syscall(SYS_ioctl, pipe_fd(), 0x5606 | kHigh, 1)); }, EPERM, true},
      {"socket(AF_PACKET)", [] { return errno_of(socket(AF_PACKET, SOCK_RAW, 0)); }, EAFNOSUPPORT,
       true},
      {"socket(AF_PACKET | 1 << 32)",
       [] { return errno_of(syscall(SYS_socket, AF_PACKET | kHigh, SOCK_RAW, 0)); }, EAFNOSUPPORT,
       true},
      {"socket(AF_NETLINK, NETLINK_AUDIT)",
       [] { return errno_of(socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT)); }, EAFNOSUPPORT, true},
      {"socketpair(AF_INET)",
       [] {
         int sv[2];
         return errno_of(socketpair(AF_INET, SOCK_STREAM, 0, sv));
       },
       EAFNOSUPPORT, true},
      {"personality(ADDR_NO_RANDOMIZE)",
       [] { return errno_of(syscall(SYS_personality, ADDR_NO_RANDOMIZE)); }, EPERM, true},
      // Set-ID files outlive the session (a setuid-root shell left behind).
      {"chmod(S_ISUID)",
       [] { return on_scratch_file([](auto p, int) { return chmod(p, 04755); }); }, EPERM, true},
      {"fchmod(S_ISGID)",
       [] { return on_scratch_file([](auto, int fd) { return fchmod(fd, 02755); }); }, EPERM, true},
      {"fchmodat(S_ISUID | 1 << 32)",
       [] {
         return on_scratch_file(
             [](auto p, int) { return syscall(SYS_fchmodat, AT_FDCWD, p, 04755 | kHigh); });
       },
       EPERM, true},
      {"fchmodat2(S_ISUID)",
       [] {
         return on_scratch_file(
             [](auto p, int) { return syscall(kFchmodat2, AT_FDCWD, p, 04755, 0); });
       },
       EPERM, false},  // no control: older kernels answer ENOSYS
      {"open(O_CREAT, S_ISUID)",
       [] {
         return on_scratch_file([](auto p, int) {
           unlink(p);
           return syscall(SYS_open, p, O_CREAT | O_WRONLY | O_CLOEXEC, 04755);
         });
       },
       EPERM, true},
      {"openat(O_TMPFILE, S_ISGID)",
       [] { return errno_of(syscall(SYS_openat, AT_FDCWD, "/tmp", O_TMPFILE | O_WRONLY, 02700)); },
       EPERM, true},
      {"creat(S_ISUID)",
       [] {
         return on_scratch_file([](auto p, int) {
           unlink(p);
           return syscall(SYS_creat, p, 04700);
         });
       },
       EPERM, true},
      {"mknod(S_IFREG | S_ISUID)",
       [] {
         return on_scratch_file([](auto p, int) {
           unlink(p);
           return mknod(p, S_IFREG | 04700, 0);
         });
       },
       EPERM, true},
      {"openat2",
       [] {
         struct open_how how = {.flags = O_RDONLY | O_CLOEXEC, .mode = 0, .resolve = 0};
         return errno_of(syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof how));
       },
       ENOSYS, true},
      {"fsetxattr(user.aj)",
       [] {
         return on_scratch_file(
             [](auto, int fd) { return syscall(SYS_fsetxattr, fd, "user.aj", "1", 1, 0); });
       },
       EOPNOTSUPP, false},  // no control: the filesystem may lack user xattrs
      {"removexattr(system.posix_acl_access)",
       [] {
         return on_scratch_file(
             [](auto p, int) { return syscall(SYS_removexattr, p, "system.posix_acl_access"); });
       },
       EOPNOTSUPP, false},
      // What must keep working.
      {"chmod(0600)", [] { return on_scratch_file([](auto p, int) { return chmod(p, 0600); }); }, 0,
       false},
      {"chmod(01700) (sticky)",
       [] { return on_scratch_file([](auto p, int) { return chmod(p, 01700); }); }, 0, false},
      {"open(O_CREAT, 0600)",
       [] {
         return on_scratch_file([](auto p, int) {
           unlink(p);
           return syscall(SYS_open, p, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
         });
       },
       0, false},
      {"open(O_RDONLY) with a stray S_ISUID mode (ignored by the kernel)",
       [] { return errno_of(syscall(SYS_open, "/", O_RDONLY | O_CLOEXEC, 04755)); }, 0, false},
      {"getpid", [] { return errno_of(getpid()); }, 0, false},
      {"socket(AF_INET)", [] { return errno_of(socket(AF_INET, SOCK_STREAM, 0)); }, 0, false},
      {"socket(AF_INET6)", [] { return errno_of(socket(AF_INET6, SOCK_DGRAM, 0)); }, 0, false},
      {"socket(AF_UNIX)", [] { return errno_of(socket(AF_UNIX, SOCK_STREAM, 0)); }, 0, false},
      {"socket(AF_NETLINK, NETLINK_ROUTE)",
       [] { return errno_of(socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE)); }, 0,
       false},
      {"socketpair(AF_UNIX)",
       [] {
         int sv[2];
         return errno_of(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
       },
       0, false},
      {"ioctl(FIONREAD)",
       [] {
         int n = 0;
         return errno_of(ioctl(pipe_fd(), FIONREAD, &n));
       },
       0, false},
      {"personality query", [] { return errno_of(personality(0xffffffff)); }, 0, false},
      {"fork", [] { return errno_of_fork(fork()); }, 0, false},
      {"a thread (clone3 falls back to clone)",
       [] {
         std::thread t([] {});
         t.join();
         return 0;
       },
       0, false},
      {"unshare(CLONE_FILES)", [] { return errno_of(unshare(CLONE_FILES)); }, 0, false},
  };
}

TEST_CASE("the default profile's filter refuses escapes in the kernel and keeps ordinary calls") {
  const BpfProgram def = default_profile();
  const BpfProgram strict = strict_profile();
  for (const Probe& p : probes()) {
    CAPTURE(p.what);
    CHECK(outcome(&def, p.run) == p.filtered);
    // The strict allowlist refuses at least as much, with the same answers
    // for what it allows.
    const int under_strict = outcome(&strict, p.run);
    if (p.filtered == 0) {
      CHECK(under_strict == 0);
    } else {
      CHECK(under_strict != 0);
    }
    if (p.control && geteuid() == 0) CHECK(outcome(nullptr, p.run) != p.filtered);
  }
}

TEST_CASE("with no_inet_sockets the kernel refuses every socket but AF_UNIX") {
  const BpfProgram prog =
      compile(SeccompDefault::kAllow, {}, {}, SeccompAction::kErrno, {.no_inet_sockets = true});
  CHECK(outcome(&prog, [] { return errno_of(socket(AF_UNIX, SOCK_STREAM, 0)); }) == 0);
  CHECK(outcome(&prog, [] { return errno_of(socket(AF_INET, SOCK_STREAM, 0)); }) == EAFNOSUPPORT);
  CHECK(outcome(&prog, [] { return errno_of(socket(AF_INET6, SOCK_STREAM, 0)); }) == EAFNOSUPPORT);
  CHECK(outcome(&prog, [] { return errno_of(socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)); }) ==
        EAFNOSUPPORT);
}

TEST_CASE("with no_unix_sockets as well the kernel refuses every socket; socketpair still works") {
  const BpfProgram prog = compile(SeccompDefault::kAllow, {}, {}, SeccompAction::kErrno,
                                  {.no_inet_sockets = true, .no_unix_sockets = true});
  CHECK(outcome(&prog, [] { return errno_of(socket(AF_UNIX, SOCK_STREAM, 0)); }) == EAFNOSUPPORT);
  CHECK(outcome(&prog, [] { return errno_of(socket(AF_UNIX, SOCK_DGRAM, 0)); }) == EAFNOSUPPORT);
  CHECK(outcome(&prog, [] { return errno_of(socket(AF_INET, SOCK_STREAM, 0)); }) == EAFNOSUPPORT);
  CHECK(outcome(&prog, [] {
          int sv[2];
          return errno_of(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
        }) == 0);
  CHECK(outcome(&prog, [] {
          int sv[2];
          return errno_of(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv));
        }) == 0);
  // A datagram pair could connect or send to any host datagram socket.
  for (int type : {int{SOCK_DGRAM}, SOCK_DGRAM | SOCK_NONBLOCK, int{SOCK_RAW}}) {
    CAPTURE(type);
    CHECK(outcome(&prog, [type] {
            int sv[2];
            return errno_of(socketpair(AF_UNIX, type, 0, sv));
          }) == EAFNOSUPPORT);
  }
  // Nothing may bind or connect: a socket pair's end could take an
  // abstract name.
  CHECK(outcome(&prog, [] {
          int sv[2];
          if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return -1;
          struct sockaddr_un a = {};
          a.sun_family = AF_UNIX;
          std::memcpy(a.sun_path, "\0aj-squat", 9);
          return errno_of(
              bind(sv[0], reinterpret_cast<sockaddr*>(&a), offsetof(sockaddr_un, sun_path) + 9));
        }) == EPERM);
  const BpfProgram inet =
      compile(SeccompDefault::kAllow, {}, {}, SeccompAction::kErrno, {.no_unix_sockets = true});
  CHECK(outcome(&inet, [] { return errno_of(socket(AF_UNIX, SOCK_STREAM, 0)); }) == EAFNOSUPPORT);
  CHECK(outcome(&inet, [] { return errno_of(socket(AF_INET, SOCK_STREAM, 0)); }) == 0);
}

TEST_CASE("the kill action kills the process with SIGSYS and log lets the call through") {
  const BpfProgram kill = compile(SeccompDefault::kAllow, {"@keyring"}, {}, SeccompAction::kKill);
  const BpfProgram log = compile(SeccompDefault::kAllow, {"@keyring"}, {}, SeccompAction::kLog);
  auto keyctl = [] {
    return errno_of(syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 0));
  };
  CHECK(outcome(&kill, keyctl) == -SIGSYS);
  CHECK(outcome(&log, keyctl) == 0);
}

#if defined(__x86_64__)
long int80_getpid() {
  long ret = 20;  // i386 getpid
  asm volatile("int $0x80" : "+a"(ret) : : "memory", "r8", "r9", "r10", "r11");
  return ret;
}

TEST_CASE("an i386 syscall through int 0x80 and an x32 syscall kill the process") {
  const BpfProgram prog = default_profile();
  const int unfiltered = outcome(nullptr, [] { return int80_getpid() > 0 ? 0 : 1; });
  if (unfiltered != 0) {
    MESSAGE("skipping int 0x80: this kernel has no i386 emulation (" << unfiltered << ")");
  } else {
    CHECK(outcome(&prog, [] { return int80_getpid() > 0 ? 0 : 1; }) == -SIGSYS);
  }
  CHECK(outcome(&prog, [] { return errno_of(syscall(0x40000000 | SYS_getpid)); }) == -SIGSYS);
}
#endif

// Runs argv (with a small fixed environment) under the strict filter.
int exec_under_strict(std::vector<std::string> argv, const std::string& home = "/tmp") {
  const BpfProgram prog = strict_profile();
  const int status = run_child(&prog, [&] {
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    std::string home_var = "HOME=" + home;
    char path[] = "PATH=/usr/bin:/bin";
    char nosys[] = "GIT_CONFIG_NOSYSTEM=1";
    char* envp[] = {path, home_var.data(), nosys, nullptr};
    const int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devnull >= 0) dup2(devnull, STDOUT_FILENO);
    execve(args[0], args.data(), envp);
    return 127;
  });
  if (WIFSIGNALED(status)) return -WTERMSIG(status);
  return WEXITSTATUS(status);
}

TEST_CASE("the strict allowlist runs a shell, coreutils, git, python3 and node") {
  CHECK(exec_under_strict({"/bin/sh", "-c", "true"}) == 0);
  CHECK(exec_under_strict({"/bin/sh", "-c",
                           "set -e; d=$(mktemp -d); cd \"$d\"; echo hi > f; cat f | sort | wc -l; "
                           "ls -la; cp f g; mv g h; ln -s h i; chmod 600 h; touch -d @0 h; "
                           "stat h; readlink i; mkdir sub; rm -r sub h i f; date; id; uname -a; "
                           "sleep 0.01; [ -x /bin/sh ]; cd /; rmdir \"$d\""}) == 0);
  const std::string home = std::filesystem::temp_directory_path() / "aj-seccomp-git-XXXXXX";
  std::string dir = home;
  REQUIRE(mkdtemp(dir.data()) != nullptr);
  if (access("/usr/bin/git", X_OK) == 0) {
    CHECK(exec_under_strict({"/bin/sh", "-c",
                             "set -e; cd \"$HOME\"; git init -q r; cd r; echo x > a; git add a; "
                             "git -c user.name=t -c user.email=t@example.org commit -qm one; "
                             "git status --short; git log --oneline"},
                            dir) == 0);
  }
  std::filesystem::remove_all(dir);
  if (access("/usr/bin/python3", X_OK) == 0) {
    CHECK(exec_under_strict({"/usr/bin/python3", "-c", "pass"}) == 0);
    CHECK(exec_under_strict({"/usr/bin/python3", "-c",
                             "import socket, subprocess, tempfile, threading\n"
                             "t = threading.Thread(target=lambda: None); t.start(); t.join()\n"
                             "subprocess.run(['/bin/true'], check=True)\n"
                             "socket.socket().close(); socket.if_nameindex()\n"
                             "tempfile.TemporaryFile().close()\n"}) == 0);
  }
  if (access("/usr/bin/node", X_OK) == 0) {
    CHECK(exec_under_strict({"/usr/bin/node", "-e",
                             "const cp = require('child_process'); cp.execFileSync('/bin/true');"
                             "require('fs').readdirSync('/'); require('os').networkInterfaces();"
                             "const {Worker} = require('worker_threads');"
                             "new Worker('1', {eval: true}).on('exit', () => "
                             "setTimeout(() => process.exit(0), 5));"}) == 0);
  }
}

}  // namespace
}  // namespace aj
