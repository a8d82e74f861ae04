// Syscall groups and name validation.
#include <doctest/doctest.h>
#include <sys/syscall.h>

#include <algorithm>
#include <set>
#include <string>

#include "seccomp/groups.h"
#include "seccomp/names.h"

namespace aj {
namespace {

bool contains(const std::vector<std::string_view>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST_CASE("deny groups contain the syscalls the issue names") {
  struct Row {
    const char* group;
    std::vector<const char*> members;
  };
  const Row rows[] = {
      {"@mount",
       {"mount", "umount2", "fsopen", "fsconfig", "fsmount", "fspick", "open_tree", "move_mount",
        "mount_setattr", "pivot_root", "chroot", "open_tree_attr"}},
      {"@keyring", {"add_key", "request_key", "keyctl"}},
      {"@bpf", {"bpf"}},
      {"@perf", {"perf_event_open"}},
      {"@debug", {"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd"}},
      {"@module", {"init_module", "finit_module", "delete_module"}},
      {"@reboot", {"kexec_load", "kexec_file_load", "reboot"}},
      {"@swap", {"swapon", "swapoff"}},
      {"@clock", {"settimeofday", "clock_settime", "clock_adjtime", "adjtimex"}},
      {"@raw-io", {"iopl", "ioperm"}},
      {"@admin", {"acct", "quotactl", "quotactl_fd"}},
      {"@privileged", {"init_module", "kexec_load", "swapon", "clock_settime", "iopl", "acct"}},
      {"@handle", {"open_by_handle_at", "name_to_handle_at"}},
      {"@userfaultfd", {"userfaultfd"}},
      {"@io_uring", {"io_uring_setup", "io_uring_enter", "io_uring_register"}},
      {"@cpu-emulation", {"modify_ldt", "vm86"}},
      {"@obsolete", {"uselib", "_sysctl", "sysfs", "ustat", "create_module", "nfsservctl"}},
  };
  for (const Row& r : rows) {
    CAPTURE(r.group);
    const auto members = expand_syscall_group(r.group);
    REQUIRE_FALSE(members.empty());
    for (const char* m : r.members) {
      CAPTURE(m);
      CHECK(contains(members, m));
    }
  }
}

TEST_CASE("the default allowlist covers what shells, git, python and node call") {
  const auto allowed = expand_syscall_group("@default");
  for (const char* m : {"execve",
                        "exit_group",
                        "brk",
                        "mmap",
                        "read",
                        "write",
                        "openat",
                        "newfstatat",
                        "statx",
                        "faccessat2",
                        "getdents64",
                        "clone",
                        "clone3",
                        "wait4",
                        "rt_sigaction",
                        "pipe2",
                        "dup2",
                        "ioctl",
                        "socket",
                        "connect",
                        "epoll_pwait",
                        "futex",
                        "rseq",
                        "getrandom",
                        "prlimit64",
                        "set_robust_list",
                        "sched_getaffinity",
                        "utimensat",
                        "fsync",
                        "rename",
                        "unlink",
                        "symlink",
                        "chmod",
                        "umask",
                        "getuid",
                        "uname",
                        "sysinfo",
                        "clock_nanosleep"}) {
    CAPTURE(m);
    CHECK(contains(allowed, m));
  }
}

TEST_CASE("no allow group lets through a syscall that a deny group names") {
  std::set<std::string_view> denied;
  for (const SyscallGroup& g : syscall_groups()) {
    if (g.for_allowlist) continue;
    for (std::string_view s : expand_syscall_group(g.name)) denied.insert(s);
  }
  for (const SyscallGroup& g : syscall_groups()) {
    if (!g.for_allowlist) continue;
    for (std::string_view s : expand_syscall_group(g.name)) {
      CAPTURE(g.name);
      CAPTURE(s);
      CHECK_FALSE(denied.contains(s));
    }
  }
}

TEST_CASE("group names are unique, start with @, and nested groups exist") {
  std::set<std::string_view> names;
  for (const SyscallGroup& g : syscall_groups()) {
    CAPTURE(g.name);
    CHECK(g.name.starts_with('@'));
    CHECK(names.insert(g.name).second);
    CHECK_FALSE(g.description.empty());
    CHECK_FALSE(g.syscalls.empty());
    for (std::string_view s : g.syscalls) {
      CAPTURE(s);
      if (s.starts_with('@')) {
        REQUIRE(find_syscall_group(s) != nullptr);
        CHECK(s != g.name);
        // A nested group is an allow group exactly when its parent is.
        CHECK(find_syscall_group(s)->for_allowlist == g.for_allowlist);
      }
    }
  }
}

TEST_CASE("every group member is a syscall name libseccomp or our newer-syscall table knows") {
  for (const SyscallGroup& g : syscall_groups()) {
    for (std::string_view s : expand_syscall_group(g.name)) {
      CAPTURE(g.name);
      CAPTURE(s);
      CHECK(seccomp_name_is_known(s));
    }
  }
}

TEST_CASE("names are known when they are groups or syscalls, on any architecture") {
  struct Row {
    const char* name;
    bool known;
  };
  const Row rows[] = {
      {"read", true},         {"mount", true},    {"open_tree_attr", true},
      {"file_setattr", true}, {"stime", true},  // i386 only, still a name
      {"@mount", true},       {"@default", true}, {"@nosuch", false},
      {"nosuchcall", false},  {"", false},        {"@", false},
      {"mount ", false},      {"MOUNT", false},   {"mount,umount", false},
  };
  for (const Row& r : rows) {
    CAPTURE(r.name);
    CHECK(seccomp_name_is_known(r.name) == r.known);
  }
}

TEST_CASE("syscall numbers and names resolve on the native architecture") {
  CHECK(seccomp_syscall_number("getpid") == SYS_getpid);
  CHECK(seccomp_syscall_number("mount") == SYS_mount);
  CHECK(seccomp_syscall_number("nosuchcall") == std::nullopt);
  CHECK(seccomp_syscall_number("@mount") == std::nullopt);
#if defined(__x86_64__)
  CHECK(seccomp_syscall_number("stime").value_or(0) < 0);  // not on x86_64
  CHECK(seccomp_syscall_number("open_tree_attr") == 467);
  CHECK(seccomp_syscall_name(467) == "open_tree_attr");
  CHECK(seccomp_highest_known_syscall() >= 469);
#endif
  CHECK(seccomp_syscall_name(SYS_getpid) == "getpid");
  CHECK(seccomp_syscall_name(100000) == "syscall 100000");
}

}  // namespace
}  // namespace aj
