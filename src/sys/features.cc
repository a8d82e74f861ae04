#include "sys/features.h"

#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "base/digits.h"
#include "sys/cgroup.h"
#include "sys/landlock.h"
#include "sys/mount_api.h"
#include "sys/read_file.h"
#include "sys/seccomp_uapi.h"

namespace aj {
namespace {

// ---- child side: allocation-free, raw syscalls, leaves with _exit ----

enum class Stage : int {
  kNone = 0,
  kDrop,
  kUnshare,
  kSetgroups,
  kUidMap,
  kGidMap,
  kPrivate,
  kTmpfs,
  kMkdir,
  kOverlay,
  kWrite,
  kNoNewPrivs,
  kListener,
  kSetFlags,
  kChild,  // the child died or said nothing
};

const char* stage_name(Stage s) {
  switch (s) {
    case Stage::kNone: return "";
    case Stage::kDrop: return "drop to uid 65534";
    case Stage::kUnshare: return "unshare";
    case Stage::kSetgroups: return "setgroups";
    case Stage::kUidMap: return "uid_map";
    case Stage::kGidMap: return "gid_map";
    case Stage::kPrivate: return "make / private";
    case Stage::kTmpfs: return "mount tmpfs";
    case Stage::kMkdir: return "mkdir";
    case Stage::kOverlay: return "mount overlay";
    case Stage::kWrite: return "write through overlay";
    case Stage::kNoNewPrivs: return "no_new_privs";
    case Stage::kListener: return "new listener";
    case Stage::kSetFlags: return "SECCOMP_IOCTL_NOTIF_SET_FLAGS";
    case Stage::kChild: return "child";
  }
  return "?";
}

// What the child writes to the pipe before _exit.
struct ChildRecord {
  Stage stage = Stage::kNone;
  int err = 0;
  int flags = 0;  // overlay: 1 when it needed "userxattr"
};

constexpr int kOverlayNeededUserxattr = 1;

// "<n> <n> 1\n" into buf (at least 32 bytes), no allocation.
void id_map_line(unsigned id, char* buf) {
  char* p = write_unsigned(buf, id);
  *p++ = ' ';
  p = write_unsigned(p, id);
  *p++ = ' ';
  *p++ = '1';
  *p++ = '\n';
  *p = '\0';
}

int write_text(const char* path, const char* text) {
  int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  std::size_t len = 0;
  while (text[len] != '\0') ++len;
  ssize_t w = ::write(fd, text, len);
  int err = w == static_cast<ssize_t>(len) ? 0 : (w < 0 ? errno : EIO);
  ::close(fd);
  return err;
}

// Becomes what an ordinary user is: uid/gid 65534, no supplementary groups,
// dumpable (a set*id call clears it, and a non-dumpable process cannot write
// its own /proc/self/uid_map once inside the new namespace).
int drop_to_nobody() {
  if (::syscall(SYS_setgroups, 0, nullptr) != 0) return errno;
  if (::syscall(SYS_setresgid, kFeatureNobodyId, kFeatureNobodyId, kFeatureNobodyId) != 0)
    return errno;
  if (::syscall(SYS_setresuid, kFeatureNobodyId, kFeatureNobodyId, kFeatureNobodyId) != 0)
    return errno;
  if (::prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0) return errno;
  return 0;
}

// unshare + the caller's ids mapped to themselves, as the launcher does.
ChildRecord enter_userns(bool drop, int extra_flags) {
  if (drop) {
    if (int e = drop_to_nobody()) return {Stage::kDrop, e};
  }
  unsigned uid = static_cast<unsigned>(::geteuid());
  unsigned gid = static_cast<unsigned>(::getegid());
  if (::unshare(CLONE_NEWUSER | extra_flags) != 0) return {Stage::kUnshare, errno};
  char line[32];
  if (int e = write_text("/proc/self/setgroups", "deny")) return {Stage::kSetgroups, e};
  id_map_line(uid, line);
  if (int e = write_text("/proc/self/uid_map", line)) return {Stage::kUidMap, e};
  id_map_line(gid, line);
  if (int e = write_text("/proc/self/gid_map", line)) return {Stage::kGidMap, e};
  return {};
}

ChildRecord try_userns(bool drop) { return enter_userns(drop, 0); }

// A private tmpfs over /tmp (in this mount namespace only) holding the layers.
ChildRecord try_overlay(bool drop) {
  ChildRecord r = enter_userns(drop, CLONE_NEWNS);
  if (r.stage != Stage::kNone) return r;
  if (sys::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
    return {Stage::kPrivate, errno};
  if (sys::mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0700") != 0)
    return {Stage::kTmpfs, errno};
  for (const char* d : {"/tmp/l", "/tmp/u", "/tmp/w", "/tmp/m"}) {
    if (::mkdir(d, 0700) != 0) return {Stage::kMkdir, errno};
  }
  const char* opts = "lowerdir=/tmp/l,upperdir=/tmp/u,workdir=/tmp/w";
  if (sys::mount("overlay", "/tmp/m", "overlay", 0, opts) != 0) {
    // Some kernels want user.* instead of trusted.* xattrs in a user namespace.
    int first = errno;
    if (sys::mount("overlay", "/tmp/m", "overlay", 0,
                   "lowerdir=/tmp/l,upperdir=/tmp/u,workdir=/tmp/w,userxattr") != 0)
      return {Stage::kOverlay, first};
    r.flags = kOverlayNeededUserxattr;
  }
  int fd = ::open("/tmp/m/probe", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return {Stage::kWrite, errno};
  ::close(fd);
  struct stat st;
  if (::stat("/tmp/u/probe", &st) != 0) return {Stage::kWrite, errno};
  return r;
}

// A listener on an allow-everything filter, then the Linux 6.6 flag.
ChildRecord try_sync_wake_up(bool) {
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return {Stage::kNoNewPrivs, errno};
  struct sock_filter insns[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
  struct sock_fprog prog = {1, insns};
  long fd =
      ::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
  if (fd < 0) return {Stage::kListener, errno};
  if (::ioctl(static_cast<int>(fd), SECCOMP_IOCTL_NOTIF_SET_FLAGS,
              SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) != 0)
    return {Stage::kSetFlags, errno};
  return {};
}

// ---- parent side ----

// Runs fn(drop) in a forked child and turns its record into an attempt.
FeatureAttempt attempt_in_child(ChildRecord (*fn)(bool), bool drop) {
  FeatureAttempt a;
  a.uid = drop ? kFeatureNobodyId : static_cast<unsigned>(::geteuid());
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    a.stage = "pipe";
    a.err = errno;
    return a;
  }
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    ChildRecord r = fn(drop);
    ssize_t w = ::write(fds[1], &r, sizeof r);
    ::_exit(w == static_cast<ssize_t>(sizeof r) ? 0 : 1);
  }
  ::close(fds[1]);
  ChildRecord r{Stage::kChild, 0, 0};
  if (pid < 0) {
    r.err = errno;
  } else {
    ChildRecord got;
    ssize_t n;
    do n = ::read(fds[0], &got, sizeof got);
    while (n < 0 && errno == EINTR);
    if (n == static_cast<ssize_t>(sizeof got)) r = got;
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  ::close(fds[0]);
  a.works = r.stage == Stage::kNone;
  if (!a.works) {
    a.stage = stage_name(r.stage);
    a.err = r.err;
  }
  if (r.flags & kOverlayNeededUserxattr) a.detail = "userxattr";
  return a;
}

struct NamedAction {
  const char* name;
  unsigned value;
};
constexpr NamedAction kSeccompActions[] = {
    {"kill_process", SECCOMP_RET_KILL_PROCESS},
    {"kill_thread", SECCOMP_RET_KILL_THREAD},
    {"trap", SECCOMP_RET_TRAP},
    {"errno", SECCOMP_RET_ERRNO},
    {"user_notif", SECCOMP_RET_USER_NOTIF},
    {"trace", SECCOMP_RET_TRACE},
    {"log", SECCOMP_RET_LOG},
    {"allow", SECCOMP_RET_ALLOW},
};

SeccompFeature probe_seccomp() {
  SeccompFeature s;
  int mode = ::prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
  s.current_mode = mode < 0 ? -1 : mode;
  unsigned allow = SECCOMP_RET_ALLOW;
  s.filter = ::syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &allow) == 0;
  if (!s.filter) s.filter_err = errno;
  // The sysctl lists the actions; where /proc/sys is masked, ask one by one.
  if (auto text = read_file("/proc/sys/kernel/seccomp/actions_avail")) {
    std::istringstream words(*text);
    for (std::string w; words >> w;) s.actions.push_back(w);
  } else if (s.filter) {
    for (const auto& a : kSeccompActions) {
      unsigned v = a.value;
      if (::syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &v) == 0) s.actions.push_back(a.name);
    }
  }
  struct seccomp_notif_sizes sizes = {};
  s.user_notif = ::syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) == 0;
  if (!s.user_notif) s.user_notif_err = errno;
  if (s.user_notif)
    s.sync_wake_up = attempt_in_child(try_sync_wake_up, false);
  else
    s.sync_wake_up = {false, static_cast<unsigned>(::geteuid()), "no user notification",
                      s.user_notif_err, ""};
  return s;
}

CgroupFeature probe_cgroups() {
  CgroupSupport c = detect_cgroups();
  CgroupFeature f;
  f.kind = to_string(c.kind);
  f.base = c.base;
  f.memory = c.memory;
  f.pids = c.pids;
  f.cpu = c.cpu;
  f.reason = c.reason;
  if (c.kind == CgroupSupport::Kind::kV1) {
    f.v1_memory_base = c.v1_memory_base;
    f.v1_pids_base = c.v1_pids_base;
    f.v1_cpu_base = c.v1_cpu_base;
  }
  return f;
}

}  // namespace

Features probe_features() {
  Features f;
  f.euid = static_cast<unsigned>(::geteuid());
  struct utsname u;
  if (::uname(&u) == 0) f.kernel = u.release;

  f.userns.caller = attempt_in_child(try_userns, false);
  // Root is exempt from the knobs that stop ordinary users: try as one too.
  if (f.euid == 0) f.userns.unprivileged = attempt_in_child(try_userns, true);
  f.userns.unprivileged_userns_clone = read_sysctl("/proc/sys/kernel/unprivileged_userns_clone");
  f.userns.max_user_namespaces = read_sysctl("/proc/sys/user/max_user_namespaces");
  f.userns.apparmor_restrict =
      read_sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");

  f.landlock_abi = landlock_abi_version();
  f.seccomp = probe_seccomp();
  f.cgroup = probe_cgroups();

  f.overlay.caller = attempt_in_child(try_overlay, false);
  if (f.euid == 0) f.overlay.unprivileged = attempt_in_child(try_overlay, true);

  f.legacy_tiocsti = read_sysctl("/proc/sys/dev/tty/legacy_tiocsti");
  return f;
}

}  // namespace aj
