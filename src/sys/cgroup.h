// Kernel cgroup limits for a session: memory, pids, cpu. rlimits alone are
// not enough: RLIMIT_NPROC is not enforced for host uid 0 (a fork bomb under
// an agentjail run by root must still be bounded) and RLIMIT_AS limits
// address space, not memory.
//
// cgroup v2 is used when the group we run in offers the controllers and lets
// us create a child group; otherwise (hybrid hosts, where v2 carries no
// controllers) the writable v1 hierarchies. Nothing is assumed: mounts come
// from /proc/self/mountinfo, our groups from /proc/self/cgroup.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "base/unique_fd.h"

namespace aj {

// ---- pure parsers (text in, values out) ----

// One line of /proc/<pid>/cgroup: "4:memory:/a/b", "1:cpu,cpuacct:/", "0::/x".
struct ProcCgroupEntry {
  int hierarchy = 0;
  std::vector<std::string> controllers;  // empty for v2; "name=systemd" kept as is
  std::string path;
  bool operator==(const ProcCgroupEntry&) const = default;
};
std::vector<ProcCgroupEntry> parse_proc_cgroup(std::string_view text);

// A cgroup or cgroup2 mount from /proc/<pid>/mountinfo.
struct CgroupMount {
  std::string root;         // part of the hierarchy shown at the mount point
  std::string mount_point;  // octal escapes (\040) decoded
  bool v2 = false;
  bool read_only = false;
  std::vector<std::string> controllers;  // v1: from the super options
  bool operator==(const CgroupMount&) const = default;
};
std::vector<CgroupMount> parse_cgroup_mounts(std::string_view mountinfo);

// Where the group `own_path` of the mount's hierarchy appears in the
// filesystem, or "" when this mount does not show it.
std::string cgroup_dir_for(const CgroupMount& mount, std::string_view own_path);

// "key value" lines (memory.events, pids.events, cpu.stat, memory.oom_control).
std::map<std::string, std::uint64_t> parse_flat_keyed(std::string_view text);

// ---- detection ----

struct CgroupSupport {
  enum class Kind { kNone, kV2, kV1 };
  Kind kind = Kind::kNone;
  std::string base;  // v2: where session groups are created; v1: the first usable base
  bool memory = false;
  bool pids = false;
  bool cpu = false;
  std::string reason;  // why a controller (or all) is unavailable, for the report
  // v1: one base directory per controller ("" when that controller is not usable).
  std::string v1_memory_base, v1_pids_base, v1_cpu_base;
  // v2: controllers create_session_cgroup must enable in base/cgroup.subtree_control,
  // after moving this (single-threaded) process into a leaf group of its own
  // when base holds processes ("no internal processes" rule).
  std::vector<std::string> v2_enable;
  bool v2_move_self = false;
};

const char* to_string(CgroupSupport::Kind kind);  // "none", "v2", "v1"

// The filesystem as detection sees it; tests substitute a fake.
class CgroupFs {
 public:
  virtual ~CgroupFs() = default;
  virtual std::optional<std::string> read(const std::string& path) = 0;  // nullopt: unreadable
  // Create and remove a child directory of `dir`: 0, or the errno of the failure.
  virtual int probe_create(const std::string& dir) = 0;
  virtual pid_t self_pid() = 0;
};

CgroupSupport detect_cgroups(CgroupFs& fs);
CgroupSupport detect_cgroups();  // this host (creates and removes a probe group)

// ---- a session's groups (parent side unless noted) ----

struct CpuMax {
  std::uint64_t quota_us = 0;  // CPU time per period; 2 × period = two CPUs
  std::uint64_t period_us = 100000;
};

struct CgroupLimits {
  std::optional<std::uint64_t> memory_max;  // bytes; swap is not allowed on top
  std::optional<std::uint64_t> pids_max;
  std::optional<CpuMax> cpu_max;
};

struct SessionCgroup {
  struct Group {
    std::string controller;  // "" for the single v2 group; "memory" / "pids" / "cpu" on v1
    std::string dir;
    UniqueFd procs;  // cgroup.procs, open for writing
    // How a new process joins without migrating it (a migration of a whole
    // process takes the kernel's global threadgroup lock, which waits for an
    // RCU grace period: up to ~10 ms). v2: the directory, for clone3's
    // CLONE_INTO_CGROUP. v1: `tasks`, open for writing; a single-threaded
    // child writes "0" to it (moving only itself, no global lock).
    UniqueFd entry;
  };
  CgroupSupport::Kind kind = CgroupSupport::Kind::kNone;
  std::vector<Group> groups;  // v2: one; v1: one per hierarchy that has a limit

  // The cgroup.procs fds, for cgroup_enter_self in a child.
  std::vector<int> procs_fds() const;
  // v1: the `tasks` fds a single-threaded child gives cgroup_enter_self to
  // join without the global lock. Empty on v2.
  std::vector<int> v1_task_fds() const;
  // v2: the group's directory, for clone3's CLONE_INTO_CGROUP; -1 on v1.
  int v2_clone_into_fd() const;
};

// Creates agentjail-<session_id> group(s) and writes the limits: v2
// memory.max (+ memory.swap.max 0), pids.max, cpu.max; v1
// memory.limit_in_bytes (+ memory.memsw.limit_in_bytes), pids.max,
// cpu.cfs_period_us / cpu.cfs_quota_us. On v2 a group is created even without
// limits (it gives cgroup.kill at the end); on v1 only hierarchies with a
// limit get one. A limit whose controller is unavailable is skipped: the
// caller reports it from CgroupSupport.
Result<SessionCgroup> create_session_cgroup(const CgroupSupport& support,
                                            std::string_view session_id,
                                            const CgroupLimits& limits);

// Removes the agentjail-* groups directly below `base` that are empty and at
// least min_age_s seconds old: those of sessions whose supervisor was killed
// (SIGKILL leaves it no chance to clean up). A group is empty only for the
// moment between its creation and the jail joining it, hence the age. Called
// before each session creates its own; returns how many were removed.
int remove_stale_groups(const std::string& base, long min_age_s = 60);

// Parent side: put `pid` (and its threads) into every group. Call before the
// child is released to run anything, so nothing it forks escapes the limits.
Result<void> cgroup_add_pid(const SessionCgroup& cgroup, pid_t pid);

// Child side: allocation-free, async-signal-safe. Writes "0" to each fd,
// which the kernel reads as "the writing process" (cgroup.procs: the whole
// process; v1 `tasks`: the writing thread, which for a single-threaded
// process is the same and skips the global lock). The fds must be opened by
// the parent (kernel >= 5.16 checks the opener's
// credentials and cgroup namespace, so this works inside the new
// namespaces). Returns 0 or errno, *failed_index naming the fd.
int cgroup_enter_self(const int* procs_fds, std::size_t n, std::size_t* failed_index) noexcept;

// What the limits did, read by the supervisor at the end (limit.hit).
struct CgroupEvents {
  // v2 memory.events max / v1 memory(.memsw).failcnt. Not reliable on every
  // kernel (a v1 memcg on 6.18 left failcnt at 0 through an OOM kill): the
  // report should rest on oom_kills.
  std::uint64_t memory_max_hits = 0;
  std::uint64_t oom_kills = 0;      // v2 memory.events oom_kill / v1 memory.oom_control
  std::uint64_t pids_max_hits = 0;  // pids.events max: forks refused
  std::uint64_t cpu_throttled = 0;  // cpu.stat nr_throttled
};
CgroupEvents read_cgroup_events(const SessionCgroup& cgroup);

// Kills whatever is left in the groups (v2 cgroup.kill, else SIGKILL to each
// listed process, repeated until empty), closes the fds and removes the
// directories. The supervisor's own leaf group (v2_move_self) stays: we are in it.
Result<void> destroy_session_cgroup(SessionCgroup& cgroup);

}  // namespace aj
