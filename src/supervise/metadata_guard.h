// Landlock does not govern file modes or owners, so chmod and chown need a
// guard of their own:
//  - without a mount namespace (--no-userns) nothing else stops chmod outside
//    the writable paths, and the command owns the user's files (root's, when
//    root started it);
//  - with one, the read-only mounts stop it, except for what lies outside
//    the jail's mounts: the descriptors it inherits (the caller's terminal, a
//    file its output is redirected to), reachable by fchmod or by a path
//    through /proc's magic links (/dev/stdin).
// So the chmod and chown families are notified and the supervisor performs
// them itself, on the very object it resolved, once it has checked that the
// object may be changed: beneath a writable grant (no mount namespace), or on
// one of the jail's own mounts (whose read-only flags the kernel then
// applies); and that the command's user, holding no capability, may make the
// change (owner; chown only to its own uid, chgrp only to one of its groups).
// Performing the call (never CONTINUE) leaves no gap between check and use.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/unique_fd.h"

namespace aj {

struct MetadataCall {
  int err = 0;           // the call's answer: 0 or an errno
  bool refused = false;  // refused by the guard (not by the kernel)
  std::string path;      // what the call named, resolved (for the journal)
  std::string reason;
};

class MetadataGuard {
 public:
  // mount_namespace: whether the jail has one (then `writable` is unused);
  // writable: the read-write grants (directories or files); owner: the
  // command's uid (it holds no capability).
  MetadataGuard(bool mount_namespace, const std::vector<std::string>& writable, uid_t owner);

  // Performs call nr (args as the kernel got them; path already read from the
  // process) for process pid. proc_fd: /proc. still_waiting (when given) is
  // asked once the object is found and judged, before the change: false (the
  // caller died, and its pid may name another process now) refuses it.
  MetadataCall perform(int proc_fd, int pid, int nr, const std::uint64_t args[6],
                       const std::string& path,
                       const std::function<bool()>& still_waiting = {}) const;

  // The syscall numbers the guard handles.
  static std::vector<int> syscalls();
  static bool handles(int nr);
  // Index of the path argument of nr, or -1 (fchmod, fchown).
  static int path_arg(int nr);
  // "chmod" or "chown": what call nr changes, for the journal.
  static const char* access_of(int nr);

 private:
  static bool on_kernel_filesystem(int fd);

  struct Grant {
    std::string path;  // canonical
    UniqueFd fd;       // O_PATH
  };
  bool mount_namespace_;
  std::vector<Grant> grants_;
  uid_t owner_;
  // The jail's mount IDs, read once (the jail cannot mount).
  mutable std::vector<std::uint64_t> jail_mounts_;

  // Whether object (an O_PATH fd) is reachable beneath a writable grant.
  bool in_writable_grant(int object, const std::string& where) const;
  // Whether object lies on one of the jail's mounts (those of pid's /proc
  // entry).
  bool on_jail_mount(int pid, int object) const;
  // The object a call names, as an O_PATH fd; -1 with *err set.
  int resolve(int proc_fd, int pid, int nr, const std::uint64_t args[6], const std::string& path,
              int* err) const;
  // Whether process pid may make chown(uid, gid) on a file of st_uid:st_gid
  // (-1: unchanged), as the kernel decides without CAP_CHOWN.
  bool may_chown(int pid, uid_t st_uid, gid_t st_gid, uid_t uid, gid_t gid) const;
};

}  // namespace aj
