#include "supervise/mode_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>

namespace aj {
namespace {

constexpr int kFchmodat2 = 452;  // Linux 6.6; not in every libc's headers

std::string fd_path(int fd) {
  char link[64];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  char buf[4096];
  const ssize_t n = ::readlink(link, buf, sizeof buf);
  return n <= 0 || static_cast<std::size_t>(n) >= sizeof buf ? std::string() : std::string(buf, n);
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

}  // namespace

std::vector<int> ModeGuard::syscalls() {
  return {
#ifdef SYS_chmod
      SYS_chmod,
#endif
      SYS_fchmod, SYS_fchmodat, kFchmodat2};
}

int ModeGuard::path_arg(int nr) {
#ifdef SYS_chmod
  if (nr == SYS_chmod) return 0;
#endif
  return nr == SYS_fchmodat || nr == kFchmodat2 ? 1 : -1;
}

ModeGuard::ModeGuard(const std::vector<std::string>& writable, uid_t owner) : owner_(owner) {
  for (const std::string& p : writable) {
    UniqueFd fd(::open(p.c_str(), O_PATH | O_CLOEXEC));
    if (!fd) continue;  // an optional grant that is missing
    std::string canonical = fd_path(fd.get());
    if (canonical.empty() || canonical[0] != '/') continue;
    grants_.push_back({std::move(canonical), std::move(fd)});
  }
}

bool ModeGuard::in_writable_grant(int object, std::string* where) const {
  *where = fd_path(object);
  // Pipes, sockets and anonymous inodes are the process's own, and so is a
  // file no directory links to (memfd, O_TMPFILE, deleted): no one else can
  // open it by name.
  struct stat st;
  if (!where->empty() && (*where)[0] != '/') return true;
  if (::fstat(object, &st) == 0 && st.st_nlink == 0) return true;
  for (const Grant& g : grants_) {
    std::string rel;
    if (*where == g.path) {
      rel = ".";
    } else if (where->size() > g.path.size() && where->starts_with(g.path) &&
               ((*where)[g.path.size()] == '/' || g.path == "/")) {
      rel = where->substr(g.path == "/" ? 1 : g.path.size() + 1);
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

ModeCall ModeGuard::perform(int proc_fd, int pid, int nr, const std::uint64_t args[6],
                            const std::string& path) const {
  ModeCall out;
  const int parg = path_arg(nr);
  const auto mode = static_cast<mode_t>(args[parg < 0 ? 1 : parg + 1] & 07777);
  char rel[64];
  UniqueFd object;
  if (parg < 0) {  // fchmod(fd): the process's descriptor itself
    std::snprintf(rel, sizeof rel, "%d/fd/%d", pid, static_cast<int>(args[0]));
    object.reset(::openat(proc_fd, rel, O_PATH | O_CLOEXEC));
    if (!object) out.err = errno == ENOENT ? EBADF : errno;
  } else {
    const int dirfd = parg == 0 ? AT_FDCWD : static_cast<int>(args[0]);
    if (dirfd == AT_FDCWD)
      std::snprintf(rel, sizeof rel, "%d/cwd", pid);
    else
      std::snprintf(rel, sizeof rel, "%d/fd/%d", pid, dirfd);
    const bool empty_ok = nr == kFchmodat2 && (args[3] & AT_EMPTY_PATH) != 0;
    const bool nofollow = nr == kFchmodat2 && (args[3] & AT_SYMLINK_NOFOLLOW) != 0;
    UniqueFd dir(::openat(proc_fd, rel, O_PATH | O_CLOEXEC));
    if (!dir) {
      out.err = errno == ENOENT ? EBADF : errno;
    } else if (path.empty()) {
      if (empty_ok)
        object = std::move(dir);
      else
        out.err = ENOENT;
    } else {
      // As the kernel would resolve it, except through /proc's magic links
      // (which would name the supervisor's own descriptors here).
      object.reset(
          open_how(dir.get(), path.c_str(), nofollow ? O_NOFOLLOW : 0, RESOLVE_NO_MAGICLINKS));
      if (!object) out.err = errno;
    }
  }
  if (out.err != 0) return out;

  if (!in_writable_grant(object.get(), &out.path)) {
    out.err = EACCES;
    out.refused = true;
    out.reason = "not in a writable path (no mount namespace: the supervisor changes modes)";
    return out;
  }
  struct stat st;
  if (::fstat(object.get(), &st) != 0) {
    out.err = errno;
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
  out.err = ::fchmodat(AT_FDCWD, self, mode, 0) == 0 ? 0 : errno;
  return out;
}

}  // namespace aj
