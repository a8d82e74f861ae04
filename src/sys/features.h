// What this kernel offers the sandbox (`agentjail features`). Every feature
// that can be tried is tried, in a forked child that then exits, rather than
// guessed from version numbers: a distribution knob, an LSM or a container's
// seccomp filter can take away what the kernel version promises.
//
// The value types are plain (no system headers) so that the formatter
// (features_format.h) and its tests stay pure; probe_features() does the work.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace aj {

// One attempt made in a forked child: the step that failed and its errno.
struct FeatureAttempt {
  bool works = false;
  unsigned uid = 0;    // the identity the attempt ran as
  std::string stage;   // the failed step ("unshare", "uid_map", ...); "" when it works
  int err = 0;         // errno of that step (0 when the child died instead)
  std::string detail;  // what it took to work, e.g. "userxattr" for overlay
};

// uid/gid an ordinary user gets when the caller is root and we try "as them".
inline constexpr unsigned kFeatureNobodyId = 65534;

struct UsernsFeature {
  FeatureAttempt caller;  // unshare(CLONE_NEWUSER) + setgroups deny + uid_map + gid_map
  // When invoked as root (who is exempt from the knobs below): the same,
  // tried after dropping to uid/gid kFeatureNobodyId.
  std::optional<FeatureAttempt> unprivileged;
  // The sysctls that can explain a failure; nullopt when the file is absent.
  std::optional<long> unprivileged_userns_clone;  // kernel.unprivileged_userns_clone (Debian)
  std::optional<long> max_user_namespaces;        // user.max_user_namespaces
  std::optional<long> apparmor_restrict;  // kernel.apparmor_restrict_unprivileged_userns (Ubuntu)
};

struct SeccompFeature {
  bool filter = false;  // seccomp(SECCOMP_GET_ACTION_AVAIL, ALLOW) answered: filter mode exists
  int filter_err = 0;
  int current_mode = -1;  // prctl(PR_GET_SECCOMP): 0 none, 2 already filtered, -1 unknown
  std::vector<std::string> actions;  // available return actions ("kill_process", ..., "allow")
  bool user_notif = false;           // seccomp(SECCOMP_GET_NOTIF_SIZES) succeeded
  int user_notif_err = 0;
  // A real listener (SECCOMP_FILTER_FLAG_NEW_LISTENER) accepting
  // SECCOMP_IOCTL_NOTIF_SET_FLAGS(SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP), Linux >= 6.6.
  FeatureAttempt sync_wake_up;
};

struct CgroupFeature {
  std::string kind = "none";  // "v2", "v1", "none"
  std::string base;           // v2: where session groups go; v1: the first usable base
  bool memory = false;
  bool pids = false;
  bool cpu = false;
  std::string reason;  // why a controller (or all) is unavailable
  // v1: each controller's own base ("" when not usable); empty on v2.
  std::string v1_memory_base, v1_pids_base, v1_cpu_base;
};

struct OverlayFeature {
  // unshare(NEWUSER|NEWNS), maps, a private tmpfs with lower/upper/work
  // inside, mount("overlay"), then a write through it.
  FeatureAttempt caller;
  std::optional<FeatureAttempt> unprivileged;  // when root: as kFeatureNobodyId
};

struct Features {
  std::string kernel;  // uname release
  UsernsFeature userns;
  int landlock_abi = 0;  // 0: unavailable
  SeccompFeature seccomp;
  CgroupFeature cgroup;
  OverlayFeature overlay;
  // dev.tty.legacy_tiocsti: 0 = the kernel refuses TIOCSTI to unprivileged
  // callers; 1 = allowed; nullopt = no such knob (kernel < 6.2, allowed).
  std::optional<long> legacy_tiocsti;
  unsigned euid = 0;
};

// Probes this host. Forks short-lived children; creates and removes a probe
// cgroup (detect_cgroups). Never fails: what cannot be tried is reported.
Features probe_features();

}  // namespace aj
