// Everything the child needs after clone, flattened into pointers and counts
// built by the parent beforehand, so the child never allocates.
#pragma once

#include <sched.h>
#include <signal.h>

#include <cstddef>
#include <cstdint>

#include "plan/mount_plan.h"
#include "seccomp/filter.h"

namespace aj {

struct ChildMount {
  MountKind kind;
  const char* source;  // host path (bind) or link text (symlink); may be null
  const char* target;  // absolute path inside the jail
  unsigned mode;
  bool optional;
  bool noexec;
};

// Stages the child reports failures for; the parent renders them.
enum class ChildStage : std::int32_t {
  kSync = 1,
  kSetup,       // prctl / hostname / mount propagation
  kOpenSource,  // open_tree of a bind source (index = mount)
  kStaging,     // the staging tmpfs and the new root
  kMount,       // one mount op (index = mount)
  kPivot,
  kLoopback,
  kChdir,
  kFork,
  kRlimits,  // index = rlimit setting
  kCloseFds,
  kCapabilities,
  kNoNewPrivs,
  kLandlock,  // index = landlock rule
  kSeccomp,
  kExec,
  kCgroup,  // joining the session's v1 cgroups (index = group)
};

// kListener carries the seccomp notification fd (SCM_RIGHTS). kStopped: the
// command was stopped (^Z on the jail's own terminal).
enum class ReportType : std::int32_t { kError = 1, kExited = 2, kListener = 3, kStopped = 4 };

// One fixed-size record on the status socket.
struct ChildReport {
  ReportType type;
  ChildStage stage;
  std::int32_t index;
  std::int32_t err;
  std::int32_t wait_status;  // kExited: the command's wait status
};

// Layers applied to the command just before exec, in this order. Each hook
// returns 0 or an errno and sets *index to the failing item; null = not used.
struct ChildHooks {
  int (*apply_rlimits)(const void* ctx, int* index) noexcept = nullptr;
  const void* rlimits_ctx = nullptr;
  int (*apply_landlock)(const void* ctx, int* index) noexcept = nullptr;
  const void* landlock_ctx = nullptr;
};

// The seccomp filter, sent by the supervisor once compiled (the compile
// overlaps the child's mount work): one message on the status socket, a
// SeccompHandoffHeader followed by `count` instructions. The command's process
// receives it after Landlock and installs it last.
struct SeccompHandoff {
  const BpfInsn* insns = nullptr;
  std::size_t count = 0;
  bool listener = false;  // install with a notification listener
};
struct SeccompHandoffHeader {
  std::uint32_t magic;  // kSeccompHandoffMagic
  std::uint32_t count;
  std::uint32_t listener;
};
constexpr std::uint32_t kSeccompHandoffMagic = 0x616a7366;  // "ajsf"
constexpr std::size_t kMaxSeccompInsns = 4096;              // BPF_MAXINSNS

// Where a command without a slash is looked for when the environment has no
// PATH (as execvp does).
inline constexpr const char* kDefaultSearchPath = "/usr/local/bin:/usr/bin:/bin";

struct ChildSpec {
  // Sockets and flags.
  int status_fd = -1;      // our end of the socketpair to the supervisor
  int supervisor_fd = -1;  // the supervisor's end: closed first thing in the child
  bool user_namespace = true;
  bool new_netns = true;
  bool new_session = false;  // setsid() before the command is forked
  // The jail's own terminal (supervise/terminal_relay.h): the slave of a
  // pseudo-terminal, made the session's controlling terminal and put on the
  // descriptors 0-2 whose bit is set in terminal_stdio (those that were the
  // user's terminal). -1: none, and 0-2 that are terminals are reopened.
  int terminal_slave = -1;
  unsigned terminal_stdio = 0;

  // The user namespace's own limits (Plan::namespace_limits): files under
  // /proc/sys/user and the values to write there, before anything else.
  const char* const* user_limit_files = nullptr;
  const char* const* user_limit_values = nullptr;
  std::size_t user_limit_count = 0;

  // Filesystem view.
  const ChildMount* mounts = nullptr;
  std::size_t mount_count = 0;
  const char* hostname = "agentjail";
  const char* cwd = "/";

  // The command.
  char* const* argv = nullptr;
  char* const* envp = nullptr;
  const char* path_search = nullptr;  // the PATH used to find argv[0]
  const int* pass_fds = nullptr;      // kept open across exec
  std::size_t pass_fd_count = 0;
  sigset_t command_sigmask;  // the signal mask the command starts with

  // v1 cgroups' `tasks` files to write "0" to before anything is forked.
  const int* cgroup_task_fds = nullptr;
  std::size_t cgroup_task_fd_count = 0;

  ChildHooks hooks;
  bool receive_seccomp = true;  // wait for the SeccompHandoff before exec

  // The CPUs the child may run on, given back to it after the go: the
  // supervisor may first move it to another CPU (see launcher.cc).
  const cpu_set_t* cpu_affinity = nullptr;
};

// Runs in the child after clone: becomes the jail's init (PID 1), builds the
// filesystem view, forks the command and reports its exit. Never returns.
[[noreturn]] void run_child(const ChildSpec& spec) noexcept;

}  // namespace aj
