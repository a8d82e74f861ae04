// The filesystem view as data: an ordered list of mount operations that
// launch/child executes inside the new mount namespace, before pivot_root.
#pragma once

#include <string>
#include <vector>

#include "plan/host_facts.h"
#include "policy/policy.h"

namespace aj {

enum class MountKind {
  kBindReadOnly,     // host source -> target, recursively read-only
  kBindReadWrite,    // host source -> target
  kBindDevice,       // host device node -> target (keeps device access)
  kTmpfs,            // fresh private tmpfs (mode in `mode`)
  kHideDir,          // empty read-only tmpfs over a directory
  kHideFile,         // empty read-only file over a file
  kSymlink,          // symlink at target pointing to `source`
  kProc,             // fresh procfs for the new PID namespace
  kDevpts,           // fresh devpts instance (+ /dev/ptmx symlink)
  kRemountReadOnly,  // an in-jail path re-bound read-only (e.g. /proc/sys)
};

struct MountOp {
  MountKind kind;
  std::string source;     // host path (binds), link text (symlinks), empty otherwise
  std::string target;     // absolute path inside the jail
  SourceLoc where;        // the profile item that asked for it; empty when built in
  unsigned mode = 0755;   // tmpfs root mode
  bool optional = false;  // the child skips it when the path is missing
  // A writable bind or tmpfs where nothing may be executed: mounted noexec, so that
  // not even the dynamic loader (ld.so ./prog) or dlopen can map code from
  // it, which Landlock's execute right (execve only) does not stop.
  bool noexec = false;

  bool is_bind() const {
    return kind == MountKind::kBindReadOnly || kind == MountKind::kBindReadWrite ||
           kind == MountKind::kBindDevice;
  }
  // "ro-bind '/usr'", "tmpfs '/tmp'", "hide '/root/.ssh'" ...
  std::string describe() const;
};

struct ExpandedPath {
  std::string path;  // expanded and normalized
  SourceLoc where;
};

// A path whose changes are reported (Plan::watched).
struct WatchedPath {
  std::string path;
  SourceLoc where;  // the profile item that asked for it
  std::string why;  // why the jail cannot keep it read-only, and what it matters for
};

// Input after variable expansion: plan/plan.cc expands, this file orders.
struct FilesystemRequest {
  std::vector<ExpandedPath> read_only, read_write, hide, tmpfs, optional;
  std::string workspace;  // empty when none
  SourceLoc workspace_where;
  std::string terminal;  // the caller's tty, shown inside as /dev/console
};

struct MountPlan {
  std::vector<MountOp> ops;
  std::vector<std::string> errors;  // "FILE:LINE:COL: message"
  // Read-only paths inside a writable bind that do not exist yet (optional):
  // nothing can be bound there, so the command may create them (a .git/hooks
  // in a workspace that had no repository).
  std::vector<ExpandedPath> unguarded;
  // Symbolic links on the way to a read-only path (.claude -> cfg, a .git or
  // .git/hooks that is a link): the bind lands where they lead, and a link
  // inside a writable bind can be pointed elsewhere.
  std::vector<ExpandedPath> links;
};

// The op whose mount a path lies on in the finished view (the deepest one
// containing it), or nullptr when only the empty root holds it.
const MountOp* mount_covering(const MountPlan& plan, const std::string& path);

// Is `path` inside something this plan mounts from the host (a bind), as
// opposed to only the empty root or a tmpfs?
bool visible_from_host(const MountPlan& plan, const std::string& path);

// Orders and checks the requested mounts against the host's filesystem:
// built-in /proc and /dev first, then every path shallowest first so nested
// mounts land on top of their parents; on the same path the most restrictive
// request wins (hide > read-only > read-write > tmpfs).
MountPlan build_mount_plan(const FilesystemRequest& req, const Disk& disk);

}  // namespace aj
