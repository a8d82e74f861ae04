// What plan/ needs to know about the host, as plain values, so that plans can
// be built and tested with fake facts (sys/host_probe.h gathers the real ones).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace aj {

struct HostFacts {
  std::uint32_t uid = 0;
  std::uint32_t gid = 0;
  std::string home;                  // the caller's home directory
  std::string cwd;                   // where agentjail was started
  std::string tmpdir;                // $TMPDIR or /tmp
  std::string state_dir;             // $XDG_STATE_HOME/agentjail
  std::string session_id;            // fresh per run
  std::vector<std::string> environ;  // "NAME=VALUE", the caller's environment
  int landlock_abi = 0;              // 0: Landlock unavailable
  std::string kernel_release;
  std::string terminal;  // the caller's terminal device (ttyname), if any
  // The caller has a controlling terminal (/dev/tty opens): the jail stays in
  // its terminal job. Without one it gets a session of its own.
  bool controlling_terminal = true;
  // Per-user kernel limits the jail shares with the caller's other programs,
  // as /proc/sys/user names them ("max_inotify_instances" -> 128): those
  // this kernel has.
  std::vector<std::pair<std::string, long>> user_limits;
};

enum class FileKind { kMissing, kDirectory, kFile, kSymlink, kOther };

// The filesystem as plan/ may see it: lstat and realpath, nothing else.
class Disk {
 public:
  virtual ~Disk() = default;
  virtual FileKind kind(const std::string& path) const = 0;  // does not follow a final symlink
  virtual std::optional<std::string> read_link(const std::string& path) const = 0;
  virtual std::optional<std::string> real_path(const std::string& path) const = 0;
  // How many names the file at path has (lstat's st_nlink); 1 when unknown.
  virtual std::uint64_t link_count(const std::string& /*path*/) const { return 1; }
  // The names in a directory (not . and ..); empty when it cannot be read.
  virtual std::vector<std::string> list_dir(const std::string& /*path*/) const { return {}; }
  // The start of a regular file (at most max bytes; a final symlink is not
  // followed); nullopt when it cannot be read.
  virtual std::optional<std::string> read_text(const std::string& /*path*/,
                                               std::size_t /*max*/) const {
    return std::nullopt;
  }
};

}  // namespace aj
