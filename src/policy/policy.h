// The effective policy: every profile in the `extends` chain and the command
// line merged into one value. Pure data; paths are still unexpanded (variables
// such as ${WORKSPACE} are resolved by plan/ against HostFacts).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aj {

// Where a value came from, for "FILE:LINE:COL: message" diagnostics.
// For command-line values, file is "command line" and line/column are 0.
struct SourceLoc {
  std::string file;
  int line = 0;
  int column = 0;

  // "default.toml:14:3", "default.toml:14" or "command line (--ro)".
  std::string str() const;
  bool operator==(const SourceLoc&) const = default;
};

template <typename T>
struct Item {
  T value;
  SourceLoc where;
  bool operator==(const Item&) const = default;
};

using StringList = std::vector<Item<std::string>>;

enum class WorkspaceMode { kBind, kOverlay, kNone };
enum class NetMode { kNone, kLoopback, kProxy, kHost };
enum class SeccompDefault { kAllow, kDeny };
enum class SeccompAction { kErrno, kKill, kLog };

struct FilesystemPolicy {
  Item<WorkspaceMode> workspace{WorkspaceMode::kBind, {}};
  StringList read_only;   // bound read-only (recursively)
  StringList read_write;  // bound read-write
  StringList exec;        // where execution is allowed (Landlock, issue 3)
  StringList hide;        // replaced by an empty dir/file
  StringList tmpfs;       // fresh private tmpfs
  StringList optional;    // paths that may be missing on the host
};

struct NetworkPolicy {
  Item<NetMode> mode{NetMode::kNone, {}};
  StringList allow;  // proxy allowlist: "host", "*.suffix", "host:port"
  Item<bool> deny_private{true, {}};
  std::vector<Item<std::uint16_t>> tcp_connect;  // Landlock ports (ABI >= 4)
  std::vector<Item<std::uint16_t>> tcp_bind;
};

struct SeccompPolicy {
  std::optional<Item<SeccompDefault>> default_action;  // unset: allow
  StringList deny;                                     // groups ("@mount") and syscall names
  StringList allow;                                    // used with default = "deny"
  std::optional<Item<SeccompAction>> action;           // unset: errno
  std::optional<Item<int>> errno_value;                // unset: EPERM
};

struct LimitsPolicy {
  std::optional<Item<std::uint64_t>> memory;      // bytes
  std::optional<Item<std::uint64_t>> processes;   // count
  std::optional<Item<std::uint64_t>> open_files;  // count
  std::optional<Item<std::uint64_t>> file_size;   // bytes
  std::optional<Item<std::uint64_t>> cpu_time_ms;
  std::optional<Item<std::uint64_t>> wall_time_ms;
};

struct EnvironmentPolicy {
  StringList keep;  // names or globs ("LC_*")
  StringList pass;  // exact names, allowed even when secret-looking
  std::map<std::string, Item<std::string>> set;
};

struct JournalPolicy {
  std::optional<Item<std::string>> path;
  std::optional<Item<bool>> exec;
  std::optional<Item<bool>> denied;
  std::optional<Item<bool>> network;
  std::optional<Item<bool>> required;
  std::optional<Item<bool>> trace;
  std::optional<Item<std::uint64_t>> max_size;  // bytes one session may write
};

struct Policy {
  std::vector<std::string> chain;  // profile files, in merge order
  std::string description;
  StringList require;  // layers that must be active
  FilesystemPolicy filesystem;
  NetworkPolicy network;
  SeccompPolicy seccomp;
  LimitsPolicy limits;
  EnvironmentPolicy environment;
  JournalPolicy journal;
};

const char* to_string(WorkspaceMode m);
const char* to_string(NetMode m);
const char* to_string(SeccompDefault d);
const char* to_string(SeccompAction a);

}  // namespace aj
