// Runs after clone: async-signal-safe calls and raw syscalls only.
//
// Order: make every mount private; open every bind source as a detached tree
// (open_tree) while the host's paths are still reachable; mount a staging
// tmpfs over /tmp holding the new root, an empty file and an empty directory
// for hiding, and the jail's private writable directories (one tmpfs in all);
// execute the ops into the new root, resolving every target with
// RESOLVE_IN_ROOT so a symlink can never point a mount (or a mkdir) at the
// host; make the root itself read-only; pivot_root and detach the old root.
#include "launch/child_mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstring>

#include "base/digits.h"
#include "sys/mount_api.h"

namespace aj {
namespace {

constexpr std::size_t kMaxMounts = 512;
constexpr const char* kStaging = "/tmp";
constexpr std::uint64_t kResolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;

struct Fd {
  int fd = -1;
  Fd() = default;
  explicit Fd(int f) : fd(f) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
  void reset(int f) {
    if (fd >= 0) ::close(fd);
    fd = f;
  }
};

// A new detached tmpfs mount; returns its fd or -1.
int make_tmpfs(unsigned mode, unsigned attrs) noexcept {
  Fd ctx(sys::fsopen("tmpfs", FSOPEN_CLOEXEC));
  if (ctx.fd < 0) return -1;
  char m[24];
  write_unsigned(m, mode, 8);
  if (sys::fsconfig(ctx.fd, FSCONFIG_SET_STRING, "mode", m, 0) < 0) return -1;
  if (sys::fsconfig(ctx.fd, FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) < 0) return -1;
  return sys::fsmount(ctx.fd, FSMOUNT_CLOEXEC, attrs);
}

int make_simple_fs(const char* type, unsigned attrs, const char* k1, const char* v1, const char* k2,
                   const char* v2) noexcept {
  Fd ctx(sys::fsopen(type, FSOPEN_CLOEXEC));
  if (ctx.fd < 0) return -1;
  if (k1 && sys::fsconfig(ctx.fd, FSCONFIG_SET_STRING, k1, v1, 0) < 0) return -1;
  if (k2 && sys::fsconfig(ctx.fd, FSCONFIG_SET_STRING, k2, v2, 0) < 0) return -1;
  if (sys::fsconfig(ctx.fd, FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) < 0) return -1;
  return sys::fsmount(ctx.fd, FSMOUNT_CLOEXEC, attrs);
}

// Splits "/a/b/c" into a parent "a/b" and a name "c" inside buf.
bool split_target(const char* target, char* buf, const char** parent, const char** name) {
  while (*target == '/') ++target;
  std::size_t len = std::strlen(target);
  if (len == 0 || len >= PATH_MAX) return false;
  std::memcpy(buf, target, len + 1);
  char* slash = std::strrchr(buf, '/');
  if (slash) {
    *slash = '\0';
    *parent = buf;
    *name = slash + 1;
  } else {
    *parent = ".";
    *name = buf;
  }
  return true;
}

// mkdir -p of `rel` below root, each step resolved inside the root. Returns a
// new fd, or rootfd itself for "." (the caller must not close that one).
int open_dirs_in_root(int rootfd, const char* rel) noexcept {
  if (std::strcmp(rel, ".") == 0) return rootfd;
  char prefix[PATH_MAX];
  std::size_t len = std::strlen(rel);
  if (len >= sizeof prefix) {
    errno = ENAMETOOLONG;
    return -1;
  }
  int dirfd = rootfd;  // owned from the first openat2 on
  auto drop = [rootfd](int fd) {
    if (fd != rootfd) {
      int e = errno;
      ::close(fd);
      errno = e;
    }
  };
  std::size_t start = 0;
  while (start < len && dirfd >= 0) {
    std::size_t end = start;
    while (end < len && rel[end] != '/') ++end;
    char name[NAME_MAX + 1];
    std::size_t nlen = end - start;
    if (nlen > NAME_MAX) {
      drop(dirfd);
      errno = ENAMETOOLONG;
      return -1;
    }
    std::memcpy(name, rel + start, nlen);
    name[nlen] = '\0';
    if (nlen > 0) {
      if (::mkdirat(dirfd, name, 0755) < 0 && errno != EEXIST) {
        drop(dirfd);
        return -1;
      }
      std::memcpy(prefix, rel, end);
      prefix[end] = '\0';
      int next = sys::openat2(rootfd, prefix, O_PATH | O_DIRECTORY | O_CLOEXEC, kResolve);
      drop(dirfd);
      dirfd = next;
    }
    start = end + 1;
  }
  return dirfd;
}

// An fd from open_dirs_in_root, closed unless it is the root's own.
struct DirInRoot {
  int fd;
  int rootfd;
  DirInRoot(int root, const char* rel) : fd(open_dirs_in_root(root, rel)), rootfd(root) {}
  DirInRoot(const DirInRoot&) = delete;
  DirInRoot& operator=(const DirInRoot&) = delete;
  ~DirInRoot() {
    if (fd >= 0 && fd != rootfd) ::close(fd);
  }
};

enum class NodeType { kDir, kFile, kNone };

// Creates the mountpoint (dir or empty file) and returns an O_PATH fd to it.
int prepare_target(int rootfd, const char* target, NodeType type) noexcept {
  char buf[PATH_MAX];
  const char* parent = nullptr;
  const char* name = nullptr;
  if (!split_target(target, buf, &parent, &name)) {
    errno = EINVAL;
    return -1;
  }
  DirInRoot dir(rootfd, parent);
  if (dir.fd < 0) return -1;
  if (type == NodeType::kDir) {
    if (::mkdirat(dir.fd, name, 0755) < 0 && errno != EEXIST) return -1;
  } else if (type == NodeType::kFile) {
    // O_EXCL: never follow an existing symlink out of the root.
    int f = ::openat(dir.fd, name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0444);
    if (f >= 0)
      ::close(f);
    else if (errno != EEXIST)
      return -1;
  }
  while (*target == '/') ++target;
  return sys::openat2(rootfd, target, O_PATH | O_CLOEXEC, kResolve);
}

bool is_dir_fd(int fd) {
  struct stat st;
  return ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
}

int attach(int mntfd, int targetfd) noexcept {
  return sys::move_mount(mntfd, "", targetfd, "",
                         MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
}

constexpr unsigned kSafe = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV;

// ENOENT when an optional non-bind op's target is missing from the new root
// (the built-in /proc masks vary by kernel): checked before a mount is made,
// because closing a mount that was never attached costs an RCU grace period.
int optional_target_missing(const ChildMount& m, int rootfd) noexcept {
  if (!m.optional || m.kind == MountKind::kSymlink) return 0;
  const char* rel = m.target;
  while (*rel == '/') ++rel;
  int fd = sys::openat2(rootfd, rel, O_PATH | O_CLOEXEC, kResolve);
  if (fd >= 0) {
    ::close(fd);
    return 0;
  }
  return errno == ENOENT ? ENOENT : 0;
}

// A private directory for tmpfs op `index`: a fresh directory in the staging
// tmpfs, cloned as a detached mount. Every private tmpfs of the jail (/tmp,
// home, /run, /dev/shm, ...) is such a directory of one tmpfs, so together
// they hold at most one tmpfs's size (half of RAM by default) instead of
// half of RAM each. The jail never sees the staging tmpfs itself, and a
// rename between two of them fails (EXDEV), so none reaches another.
int private_dir_mount(int staging_fd, std::size_t index, unsigned mode) noexcept {
  char name[24] = "t";
  write_unsigned(name + 1, index);
  if (::mkdirat(staging_fd, name, 0700) < 0) return -1;
  // mkdirat applies the umask: set the mode exactly (sticky /tmp: 01777).
  if (::fchmodat(staging_fd, name, mode, 0) < 0) return -1;
  return sys::open_tree(staging_fd, name, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
}

// Executes op `index`; returns 0 or an errno.
int run_op(const ChildMount& m, std::size_t index, int rootfd, int source_fd,
           int staging_fd) noexcept {
  if (source_fd < 0 && optional_target_missing(m, rootfd)) return ENOENT;
  Fd mnt;
  NodeType node = NodeType::kDir;
  switch (m.kind) {
    case MountKind::kBindReadOnly:
    case MountKind::kBindReadWrite:
    case MountKind::kBindDevice: {
      std::uint64_t set = MOUNT_ATTR_NOSUID;
      if (m.kind != MountKind::kBindDevice) set |= MOUNT_ATTR_NODEV;
      // Device nodes too: a read-only mount still lets a device be opened
      // for writing (it is not a regular file), but not have its mode,
      // owner or times changed; started by root, the jail owns the host's
      // /dev/null, /dev/tty and the terminal bound at /dev/console.
      if (m.kind != MountKind::kBindReadWrite) set |= MOUNT_ATTR_RDONLY;
      if (m.noexec) set |= MOUNT_ATTR_NOEXEC;
      // AT_RECURSIVE: submounts of a read-only bind become read-only too.
      if (sys::mount_setattr(source_fd, "", AT_EMPTY_PATH | AT_RECURSIVE, set, 0) < 0) return errno;
      node = is_dir_fd(source_fd) ? NodeType::kDir : NodeType::kFile;
      Fd target(prepare_target(rootfd, m.target, node));
      if (target.fd < 0) return errno;
      return attach(source_fd, target.fd) < 0 ? errno : 0;
    }
    case MountKind::kTmpfs:
      mnt.reset(private_dir_mount(staging_fd, index, m.mode));
      if (mnt.fd >= 0 && m.noexec &&
          sys::mount_setattr(mnt.fd, "", AT_EMPTY_PATH, MOUNT_ATTR_NOEXEC, 0) < 0)
        return errno;
      break;
    case MountKind::kHideDir:
    case MountKind::kHideFile:
      // A read-only view of the staging tmpfs's empty directory or file: no
      // tmpfs of its own to create, and to tear down at the end.
      if (m.kind == MountKind::kHideFile) node = NodeType::kFile;
      mnt.reset(sys::open_tree(staging_fd, node == NodeType::kFile ? "empty" : "empty.d",
                               OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC));
      if (mnt.fd >= 0 && sys::mount_setattr(mnt.fd, "", AT_EMPTY_PATH,
                                            kSafe | MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOEXEC, 0) < 0)
        return errno;
      break;
    case MountKind::kProc:
      mnt.reset(
          make_simple_fs("proc", kSafe | MOUNT_ATTR_NOEXEC, nullptr, nullptr, nullptr, nullptr));
      break;
    case MountKind::kDevpts:
      mnt.reset(make_simple_fs("devpts", MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC, "ptmxmode", "0666",
                               "mode", "0620"));
      break;
    case MountKind::kSymlink: {
      char buf[PATH_MAX];
      const char* parent = nullptr;
      const char* name = nullptr;
      if (!split_target(m.target, buf, &parent, &name)) return EINVAL;
      DirInRoot dir(rootfd, parent);
      if (dir.fd < 0) return errno;
      if (::symlinkat(m.source, dir.fd, name) < 0 && errno != EEXIST) return errno;
      return 0;
    }
    case MountKind::kRemountReadOnly: {
      const char* rel = m.target;
      while (*rel == '/') ++rel;
      Fd target(sys::openat2(rootfd, rel, O_PATH | O_CLOEXEC, kResolve));
      if (target.fd < 0) return errno;
      mnt.reset(sys::open_tree(target.fd, "",
                               OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE));
      if (mnt.fd < 0) return errno;
      if (sys::mount_setattr(mnt.fd, "", AT_EMPTY_PATH | AT_RECURSIVE, MOUNT_ATTR_RDONLY, 0) < 0)
        return errno;
      return attach(mnt.fd, target.fd) < 0 ? errno : 0;
    }
  }
  if (mnt.fd < 0) return errno;
  Fd target(prepare_target(rootfd, m.target, node));
  if (target.fd < 0) return errno;
  return attach(mnt.fd, target.fd) < 0 ? errno : 0;
}

bool fail(ChildFailure* f, ChildStage stage, int index, int err) {
  f->stage = stage;
  f->index = index;
  f->err = err;
  return false;
}

}  // namespace

bool build_filesystem(const ChildSpec& spec, ChildFailure* failure) noexcept {
  if (spec.mount_count > kMaxMounts) return fail(failure, ChildStage::kStaging, -1, E2BIG);
  if (sys::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) < 0)
    return fail(failure, ChildStage::kSetup, -1, errno);

  // 1. Detach a copy of every bind source while host paths are reachable.
  int source_fds[kMaxMounts];
  for (std::size_t i = 0; i < spec.mount_count; ++i) {
    source_fds[i] = -1;
    const ChildMount& m = spec.mounts[i];
    bool bind = m.kind == MountKind::kBindReadOnly || m.kind == MountKind::kBindReadWrite ||
                m.kind == MountKind::kBindDevice;
    if (!bind) continue;
    // Sources are real paths (the plan resolved them): a symbolic link met
    // now was swapped in since, by another session writing the same
    // workspace, to pull a host path into this jail. Refused (ELOOP).
    Fd source(sys::openat2(AT_FDCWD, m.source, O_PATH | O_CLOEXEC, RESOLVE_NO_SYMLINKS));
    if (source.fd >= 0)
      source_fds[i] = sys::open_tree(
          source.fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE | AT_EMPTY_PATH);
    if (source_fds[i] < 0 && !(m.optional && errno == ENOENT))
      return fail(failure, ChildStage::kOpenSource, static_cast<int>(i), errno);
  }

  // 2. Staging tmpfs with the new root, an empty file and an empty directory.
  Fd staging(make_tmpfs(0700, kSafe));
  if (staging.fd < 0) return fail(failure, ChildStage::kStaging, -1, errno);
  if (sys::move_mount(staging.fd, "", AT_FDCWD, kStaging, MOVE_MOUNT_F_EMPTY_PATH) < 0)
    return fail(failure, ChildStage::kStaging, -1, errno);
  Fd staging_dir(::open(kStaging, O_PATH | O_DIRECTORY | O_CLOEXEC));
  int empty = ::openat(staging_dir.fd, "empty", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0444);
  if (empty < 0) return fail(failure, ChildStage::kStaging, -1, errno);
  ::close(empty);
  if (::mkdirat(staging_dir.fd, "empty.d", 0555) < 0 ||
      ::fchmodat(staging_dir.fd, "empty.d", 0555, 0) < 0)
    return fail(failure, ChildStage::kStaging, -1, errno);
  // The new root is a directory of the staging tmpfs too, bound onto itself
  // (pivot_root needs a mount point): one tmpfs holds the whole jail.
  if (::mkdirat(staging_dir.fd, "root", 0755) < 0 ||
      ::fchmodat(staging_dir.fd, "root", 0755, 0) < 0)
    return fail(failure, ChildStage::kStaging, -1, errno);
  Fd root_mnt(sys::open_tree(staging_dir.fd, "root", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC));
  Fd root_dir(::openat(staging_dir.fd, "root", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (root_mnt.fd < 0 || root_dir.fd < 0 || attach(root_mnt.fd, root_dir.fd) < 0)
    return fail(failure, ChildStage::kStaging, -1, errno);
  Fd rootfd(::openat(staging_dir.fd, "root", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (rootfd.fd < 0) return fail(failure, ChildStage::kStaging, -1, errno);

  // 3. The ops, in plan order (shallowest first).
  for (std::size_t i = 0; i < spec.mount_count; ++i) {
    const ChildMount& m = spec.mounts[i];
    bool is_bind = source_fds[i] >= 0;
    bool skipped_bind =
        !is_bind && (m.kind == MountKind::kBindReadOnly || m.kind == MountKind::kBindReadWrite ||
                     m.kind == MountKind::kBindDevice);
    if (skipped_bind) continue;  // optional and missing
    int err = run_op(m, i, rootfd.fd, source_fds[i], staging_dir.fd);
    if (is_bind) ::close(source_fds[i]);
    if (err != 0 && !(m.optional && err == ENOENT))
      return fail(failure, ChildStage::kMount, static_cast<int>(i), err);
  }

  // 4. The root itself read-only: the command may not litter '/'.
  if (sys::mount_setattr(rootfd.fd, "", AT_EMPTY_PATH, MOUNT_ATTR_RDONLY, 0) < 0)
    return fail(failure, ChildStage::kPivot, -1, errno);

  // 5. pivot_root(".", ".") stacks the old root under the new one; detach it.
  if (::fchdir(rootfd.fd) < 0 || sys::pivot_root(".", ".") < 0 ||
      sys::umount2(".", sys::kMntDetach) < 0 || ::chdir("/") < 0)
    return fail(failure, ChildStage::kPivot, -1, errno);
  return true;
}

}  // namespace aj
