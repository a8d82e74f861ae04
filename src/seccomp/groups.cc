#include "seccomp/groups.h"

#include <algorithm>

namespace aj {
namespace {

struct GroupText {
  std::string_view name;
  std::string_view description;
  std::string_view members;  // separated by spaces
  bool for_allowlist;
};

// Deny groups bound kernel attack surface and close classic sandbox escapes.
// The argument filters every filter carries (ioctl TIOCSTI, clone/unshare
// namespace flags, socket families, personality, clone3, setns) are not here
// but in arg_rules.cc: they apply whatever the profile says.
//
// Allow groups are our own lists, in the spirit of systemd's well-known
// groups, of what shells, coreutils, git, python3 and node call (checked by
// running them under @default in tests/unit/seccomp_kernel_test.cc).
constexpr GroupText kGroups[] = {
    {"@mount", "mounting, the new mount API, pivot_root and chroot",
     "mount umount umount2 fsopen fsconfig fsmount fspick open_tree open_tree_attr move_mount "
     "mount_setattr pivot_root chroot",
     false},
    {"@keyring", "kernel keyrings", "add_key request_key keyctl", false},
    {"@bpf", "loading eBPF programs and maps", "bpf", false},
    {"@perf", "performance counters and tracing", "perf_event_open", false},
    {"@debug", "tracing and inspecting other processes",
     "ptrace process_vm_readv process_vm_writev kcmp pidfd_getfd", false},
    {"@module", "loading and unloading kernel modules", "init_module finit_module delete_module",
     false},
    {"@reboot", "rebooting and loading a new kernel", "kexec_load kexec_file_load reboot", false},
    {"@swap", "enabling and disabling swap", "swapon swapoff", false},
    {"@clock", "setting the system clock",
     "settimeofday clock_settime clock_adjtime adjtimex stime", false},
    {"@raw-io", "raw I/O port and PCI configuration access",
     "iopl ioperm pciconfig_iobase pciconfig_read pciconfig_write", false},
    {"@admin", "process accounting, disk quotas, the kernel log, vhangup",
     "acct quotactl quotactl_fd syslog vhangup", false},
    {"@privileged", "everything only an administrator of the host may use",
     "@module @reboot @swap @clock @raw-io @admin", false},
    {"@handle", "opening files by handle, which bypasses path checks",
     "open_by_handle_at name_to_handle_at", false},
    {"@userfaultfd", "user-space page fault handling (a common exploit aid)", "userfaultfd", false},
    {"@io_uring", "io_uring, whose operations bypass per-syscall filtering",
     "io_uring_setup io_uring_enter io_uring_register", false},
    {"@cpu-emulation", "LDT editing and CPU emulation modes",
     "modify_ldt vm86 vm86old subpage_prot switch_endian", false},
    {"@obsolete", "removed or unused system calls",
     "_sysctl afs_syscall bdflush break create_module ftime get_kernel_syms getpmsg gtty idle "
     "lock lookup_dcookie mpx nfsservctl prof profil putpmsg query_module security sgetmask "
     "ssetmask stime stty sysfs tuxcall ulimit uselib ustat vserver",
     false},

    {"@basic", "the runtime every program needs: exec, exit, threads, futexes",
     "arch_prctl brk execve execveat exit exit_group futex futex_waitv futex_wait futex_wake "
     "futex_requeue get_robust_list set_robust_list get_thread_area set_thread_area "
     "set_tid_address rseq restart_syscall rt_sigreturn getrandom membarrier prctl personality "
     "uname getcpu sched_yield map_shadow_stack",
     true},
    {"@memory", "mapping and managing memory",
     "mmap munmap mremap mprotect pkey_mprotect pkey_alloc pkey_free madvise mincore msync mlock "
     "mlock2 munlock mlockall munlockall memfd_create get_mempolicy mseal",
     true},
    {"@basic-io", "reading, writing and managing file descriptors",
     "read write readv writev pread64 pwrite64 preadv pwritev preadv2 pwritev2 lseek close "
     "close_range dup dup2 dup3 fcntl ioctl sendfile splice tee vmsplice copy_file_range",
     true},
    {"@file-system", "paths, metadata, directories, links, extended attributes, inotify",
     "access faccessat faccessat2 chdir fchdir getcwd open openat openat2 creat stat lstat fstat "
     "newfstatat statx statfs fstatfs readlink readlinkat rename renameat renameat2 link linkat "
     "symlink symlinkat unlink unlinkat mkdir mkdirat rmdir mknod mknodat chmod fchmod fchmodat "
     "fchmodat2 chown fchown lchown fchownat umask utime utimes utimensat futimesat truncate "
     "ftruncate fallocate fadvise64 readahead cachestat getdents getdents64 fsync fdatasync sync "
     "syncfs sync_file_range flock getxattr lgetxattr fgetxattr getxattrat listxattr llistxattr "
     "flistxattr listxattrat setxattr lsetxattr fsetxattr setxattrat removexattr lremovexattr "
     "fremovexattr removexattrat file_getattr file_setattr inotify_init inotify_init1 "
     "inotify_add_watch inotify_rm_watch",
     true},
    {"@io-event", "waiting for events: poll, select, epoll, eventfd",
     "select pselect6 poll ppoll epoll_create epoll_create1 epoll_ctl epoll_wait epoll_pwait "
     "epoll_pwait2 eventfd eventfd2",
     true},
    {"@ipc", "pipes, POSIX message queues, System V IPC",
     "pipe pipe2 mq_open mq_unlink mq_timedsend mq_timedreceive mq_notify mq_getsetattr msgget "
     "msgsnd msgrcv msgctl semget semop semtimedop semctl shmget shmat shmdt shmctl",
     true},
    {"@process", "creating, waiting for and scheduling processes and threads",
     "clone clone3 fork vfork wait4 waitid kill tkill tgkill pidfd_open pidfd_send_signal getpid "
     "getppid gettid getpgid setpgid getpgrp getsid setsid unshare sched_getaffinity "
     "sched_setaffinity sched_getparam sched_setparam sched_getscheduler sched_setscheduler "
     "sched_get_priority_max sched_get_priority_min sched_rr_get_interval sched_getattr "
     "sched_setattr getpriority setpriority ioprio_get ioprio_set times getrusage",
     true},
    {"@signal", "signal handlers, masks, waiting for signals",
     "rt_sigaction rt_sigprocmask rt_sigpending rt_sigsuspend rt_sigtimedwait rt_sigqueueinfo "
     "rt_tgsigqueueinfo sigaltstack signalfd signalfd4 pause",
     true},
    {"@timer", "clocks, sleeping, timers",
     "alarm getitimer setitimer timer_create timer_delete timer_gettime timer_settime "
     "timer_getoverrun timerfd_create timerfd_gettime timerfd_settime nanosleep clock_nanosleep "
     "clock_gettime clock_getres gettimeofday time",
     true},
    {"@credentials", "reading and (within the mapped ids) changing user ids and capabilities",
     "getuid geteuid getgid getegid getresuid getresgid getgroups setuid setgid setreuid "
     "setregid setresuid setresgid setgroups setfsuid setfsgid capget capset",
     true},
    {"@system-info", "system information and resource limits",
     "sysinfo uname getcpu getrlimit setrlimit prlimit64", true},
    {"@network-io", "sockets (families are limited by a built-in filter)",
     "socket socketpair bind listen accept accept4 connect getsockname getpeername getsockopt "
     "setsockopt sendto recvfrom sendmsg recvmsg sendmmsg recvmmsg shutdown",
     true},
    {"@sandbox", "restricting oneself further: Landlock and seccomp",
     "landlock_create_ruleset landlock_add_rule landlock_restrict_self seccomp", true},
    {"@default",
     "what ordinary programs need (shells, coreutils, git, python3, node): every allow group "
     "above",
     "@basic @memory @basic-io @file-system @io-event @ipc @process @signal @timer @credentials "
     "@system-info @network-io @sandbox",
     true},
};

std::vector<std::string_view> split_words(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    const size_t start = s.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    s.remove_prefix(start);
    const size_t end = std::min(s.find(' '), s.size());
    out.push_back(s.substr(0, end));
    s.remove_prefix(end);
  }
  return out;
}

void expand_into(std::string_view name, int depth, std::vector<std::string_view>* out) {
  const SyscallGroup* g = find_syscall_group(name);
  if (g == nullptr || depth > 8) return;  // the table has no cycles; the test checks
  for (std::string_view s : g->syscalls) {
    if (s.starts_with('@')) {
      expand_into(s, depth + 1, out);
    } else if (std::find(out->begin(), out->end(), s) == out->end()) {
      out->push_back(s);
    }
  }
}

}  // namespace

const std::vector<SyscallGroup>& syscall_groups() {
  static const std::vector<SyscallGroup> groups = [] {
    std::vector<SyscallGroup> out;
    for (const GroupText& t : kGroups) {
      out.push_back({t.name, t.description, split_words(t.members), t.for_allowlist});
    }
    return out;
  }();
  return groups;
}

const SyscallGroup* find_syscall_group(std::string_view name) {
  for (const SyscallGroup& g : syscall_groups()) {
    if (g.name == name) return &g;
  }
  return nullptr;
}

std::vector<std::string_view> expand_syscall_group(std::string_view name) {
  std::vector<std::string_view> out;
  expand_into(name, 0, &out);
  return out;
}

}  // namespace aj
