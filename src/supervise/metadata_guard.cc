#include "supervise/metadata_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "supervise/jail_path.h"
#include "sys/read_file.h"

namespace aj {
namespace {

constexpr int kFchmodat2 = 452;  // Linux 6.6; not in every libc's headers

std::string fd_path(int fd) {
  return read_link("/proc/self/fd/" + std::to_string(fd)).value_or("");
}

int open_how(int dirfd, const char* path, std::uint64_t flags, std::uint64_t resolve) {
  struct open_how how = {};
  how.flags = flags | O_PATH | O_CLOEXEC;
  how.resolve = resolve;
  return static_cast<int>(::syscall(SYS_openat2, dirfd, path, &how, sizeof how));
}

bool same_inode(int a, int b) {
  struct stat sa, sb;
  return ::fstat(a, &sa) == 0 && ::fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

// How each guarded call names its object and what it changes.
struct Shape {
  int nr;
  int path_arg;   // -1: the object is the descriptor in argument 0
  int flags_arg;  // -1: none (AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH)
  bool nofollow;  // lchown: never follows a final link
  bool owner;     // chown family (else chmod)
};

constexpr Shape kShapes[] = {
#ifdef SYS_chmod
    {SYS_chmod, 0, -1, false, false},   {SYS_chown, 0, -1, false, true},
    {SYS_lchown, 0, -1, true, true},
#endif
    {SYS_fchmod, -1, -1, false, false}, {SYS_fchmodat, 1, -1, false, false},
    {kFchmodat2, 1, 3, false, false},   {SYS_fchown, -1, -1, false, true},
    {SYS_fchownat, 1, 4, false, true},
};

const Shape* shape_of(int nr) {
  for (const Shape& s : kShapes)
    if (s.nr == nr) return &s;
  return nullptr;
}

}  // namespace

std::vector<int> MetadataGuard::syscalls() {
  std::vector<int> out;
  for (const Shape& s : kShapes) out.push_back(s.nr);
  return out;
}

bool MetadataGuard::handles(int nr) { return shape_of(nr) != nullptr; }

int MetadataGuard::path_arg(int nr) {
  const Shape* s = shape_of(nr);
  return s ? s->path_arg : -1;
}

const char* MetadataGuard::access_of(int nr) {
  const Shape* s = shape_of(nr);
  return s && s->owner ? "chown" : "chmod";
}

MetadataGuard::MetadataGuard(bool mount_namespace, const std::vector<std::string>& writable,
                             uid_t owner)
    : mount_namespace_(mount_namespace), owner_(owner) {
  if (mount_namespace_) return;
  for (const std::string& p : writable) {
    UniqueFd fd(::open(p.c_str(), O_PATH | O_CLOEXEC));
    if (!fd) continue;  // an optional grant that is missing
    std::string canonical = fd_path(fd.get());
    if (canonical.empty() || canonical[0] != '/') continue;
    grants_.push_back({std::move(canonical), std::move(fd)});
  }
}

bool MetadataGuard::in_writable_grant(int object, const std::string& where) const {
  for (const Grant& g : grants_) {
    std::string rel;
    if (where == g.path) {
      rel = ".";
    } else if (where.size() > g.path.size() && where.starts_with(g.path) &&
               (where[g.path.size()] == '/' || g.path == "/")) {
      rel = where.substr(g.path == "/" ? 1 : g.path.size() + 1);
    } else {
      continue;
    }
    // The name may have changed since readlink: resolving it again beneath
    // the grant and finding the same inode is the proof.
    UniqueFd again(rel == "." ? ::dup(g.fd.get())
                              : open_how(g.fd.get(), rel.c_str(), O_NOFOLLOW,
                                         RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS));
    if (again && same_inode(again.get(), object)) return true;
  }
  return false;
}

bool MetadataGuard::on_jail_mount(int pid, int object) const {
  if (jail_mounts_.empty()) {
    const std::string text = read_file("/proc/" + std::to_string(pid) + "/mountinfo").value_or("");
    // Each line starts with the mount ID.
    for (std::size_t at = 0; at < text.size();) {
      jail_mounts_.push_back(std::strtoull(text.c_str() + at, nullptr, 10));
      const std::size_t nl = text.find('\n', at);
      if (nl == std::string::npos) break;
      at = nl + 1;
    }
  }
  struct statx sx = {};
  if (::statx(object, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx) != 0 || !(sx.stx_mask & STATX_MNT_ID))
    return false;
  return std::find(jail_mounts_.begin(), jail_mounts_.end(), sx.stx_mnt_id) != jail_mounts_.end();
}

int MetadataGuard::resolve(int proc_fd, int pid, int nr, const std::uint64_t args[6],
                           const std::string& path, int* err) const {
  const Shape& shape = *shape_of(nr);
  const int parg = shape.path_arg;
  char rel[64];
  UniqueFd object;
  if (parg < 0) {  // fchmod(fd), fchown(fd): the process's descriptor itself
    std::snprintf(rel, sizeof rel, "%d/fd/%d", pid, static_cast<int>(args[0]));
    object.reset(::openat(proc_fd, rel, O_PATH | O_CLOEXEC));
    if (!object) *err = errno == ENOENT ? EBADF : errno;
    return object.release();
  }
  const int dirfd = parg == 0 ? AT_FDCWD : static_cast<int>(args[0]);
  const std::uint64_t flags = shape.flags_arg < 0 ? 0 : args[shape.flags_arg];
  const bool empty_ok = (flags & AT_EMPTY_PATH) != 0;
  const bool nofollow = shape.nofollow || (flags & AT_SYMLINK_NOFOLLOW) != 0;
  // /proc's magic links are not followed: here they would name the
  // supervisor's own descriptors. The path is looked up in the jail's root,
  // made absolute first (from the working directory or dirfd), so that an
  // absolute link on the way is the jail's, as for the kernel.
  std::uint64_t resolve = RESOLVE_NO_MAGICLINKS;
  std::string lookup = path;
  if (!path.empty() && path[0] != '/') {
    std::string absolute = absolute_in_jail(pid, dirfd, path);
    if (!absolute.empty()) lookup = std::move(absolute);
  }
  if (!lookup.empty() && lookup[0] == '/') {
    std::snprintf(rel, sizeof rel, "%d/root", pid);
    resolve |= RESOLVE_IN_ROOT;
  } else if (dirfd == AT_FDCWD) {
    std::snprintf(rel, sizeof rel, "%d/cwd", pid);
  } else {
    std::snprintf(rel, sizeof rel, "%d/fd/%d", pid, dirfd);
  }
  UniqueFd dir(::openat(proc_fd, rel, O_PATH | O_CLOEXEC));
  if (!dir) {
    *err = errno == ENOENT ? EBADF : errno;
  } else if (path.empty()) {
    if (empty_ok)
      object = std::move(dir);
    else
      *err = ENOENT;
  } else {
    object.reset(open_how(dir.get(), lookup.c_str(), nofollow ? O_NOFOLLOW : 0, resolve));
    if (!object) *err = errno;
  }
  return object.release();
}

// The jail's /proc is its own mount, but most of what it holds (/proc/meminfo,
// /proc/slabinfo, /proc/sysvipc) is one object for the whole host, owned by
// root: a root-started jail would change it for everyone. The same goes for
// every other filesystem the kernel serves.
bool MetadataGuard::on_kernel_filesystem(int fd) {
  static constexpr unsigned long kKernelFs[] = {
      0x9fa0,      // procfs
      0x62656572,  // sysfs
      0x27e0eb,    // cgroup
      0x63677270,  // cgroup2
      0x64626720,  // debugfs
      0x74726163,  // tracefs
      0x73636673,  // securityfs
      0xcafe4a11,  // bpf
      0x62656570,  // configfs
      0x6165676c,  // pstore
      0xde5e81e4,  // efivarfs
      0xf97cff8c,  // selinuxfs
      0x43415d53,  // smackfs
      0x42494e4d,  // binfmt_misc
      // One inode behind every eventfd, signalfd, timerfd, epoll fd...:
      // "the process's own" only by its descriptor. Kernels from 2025 refuse
      // to change it; older ones would, for the whole system.
      0x09041934,  // anon_inodefs
  };
  struct statfs fs;
  if (::fstatfs(fd, &fs) != 0) return true;  // cannot tell: refuse
  const auto type = static_cast<unsigned long>(fs.f_type);
  return std::find(std::begin(kKernelFs), std::end(kKernelFs), type) != std::end(kKernelFs);
}

bool MetadataGuard::may_chown(int pid, uid_t st_uid, gid_t st_gid, uid_t uid, gid_t gid) const {
  if (st_uid != owner_) return false;                                // only the owner
  if (uid != static_cast<uid_t>(-1) && uid != st_uid) return false;  // to itself only
  if (gid == static_cast<gid_t>(-1) || gid == st_gid) return true;
  // chgrp: to the fs group or a supplementary group of the process.
  const std::string text = read_file("/proc/" + std::to_string(pid) + "/status").value_or("");
  auto ids_of = [&text](const char* key) {
    std::vector<unsigned long> ids;
    const std::size_t at = text.find(key);
    if (at == std::string::npos) return ids;
    const char* p = text.c_str() + at + std::strlen(key);
    for (char* end = nullptr;; p = end) {
      const unsigned long v = std::strtoul(p, &end, 10);
      if (end == p || *p == '\n') break;
      ids.push_back(v);
    }
    return ids;
  };
  const auto gids = ids_of("\nGid:");  // real, effective, saved, fs
  const auto groups = ids_of("\nGroups:");
  if (gids.size() == 4 && gids[3] == gid) return true;
  return std::find(groups.begin(), groups.end(), gid) != groups.end();
}

MetadataCall MetadataGuard::perform(int proc_fd, int pid, int nr, const std::uint64_t args[6],
                                    const std::string& path,
                                    const std::function<bool()>& still_waiting) const {
  MetadataCall out;
  const Shape& shape = *shape_of(nr);
  const int value_arg = shape.path_arg < 0 ? 1 : shape.path_arg + 1;
  UniqueFd object(resolve(proc_fd, pid, nr, args, path, &out.err));
  if (!object) return out;

  struct stat st;
  if (::fstat(object.get(), &st) != 0) {
    out.err = errno;
    return out;
  }
  out.path = fd_path(object.get());
  // Pipes, sockets and anonymous inodes are the process's own, and so is a
  // file no directory links to (memfd, O_TMPFILE, deleted): no one else can
  // open it by name.
  const bool own = (!out.path.empty() && out.path[0] != '/') || st.st_nlink == 0;
  if (on_kernel_filesystem(object.get())) {
    out.reason = "a kernel object shared by the whole host (procfs, sysfs, cgroupfs, ...)";
  } else if (!own) {
    if (mount_namespace_ && !on_jail_mount(pid, object.get()))
      out.reason = "not on the jail's mounts (a descriptor or link from outside)";
    if (!mount_namespace_ && !in_writable_grant(object.get(), out.path))
      out.reason = "not in a writable path (no mount namespace: the supervisor makes the change)";
  }
  if (!out.reason.empty()) {
    out.err = EACCES;
    out.refused = true;
    return out;
  }
  if (still_waiting && !still_waiting()) {
    out.err = ESRCH;
    return out;
  }
  // On the jail's mounts the kernel applies their read-only flags below.
  if (shape.owner) {
    const auto uid = static_cast<uid_t>(args[value_arg]);
    const auto gid = static_cast<gid_t>(args[value_arg + 1]);
    if (!may_chown(pid, st.st_uid, st.st_gid, uid, gid)) {
      out.err = EPERM;
      return out;
    }
    out.err = ::fchownat(object.get(), "", uid, gid, AT_EMPTY_PATH) == 0 ? 0 : errno;
    return out;
  }
  if (st.st_uid != owner_) {  // the command holds no CAP_FOWNER
    out.err = EPERM;
    return out;
  }
  if (S_ISLNK(st.st_mode)) {  // fchmodat2(AT_SYMLINK_NOFOLLOW) on a link
    out.err = EOPNOTSUPP;
    return out;
  }
  char self[64];
  std::snprintf(self, sizeof self, "/proc/self/fd/%d", object.get());
  const auto mode = static_cast<mode_t>(args[value_arg] & 07777);
  out.err = ::fchmodat(AT_FDCWD, self, mode, 0) == 0 ? 0 : errno;
  return out;
}

}  // namespace aj
