// Thin, allocation-free wrappers for the mount API and friends, callable
// after clone in the child. Each returns the raw syscall result (-1 + errno).
// <linux/mount.h> is used instead of <sys/mount.h>: glibc 2.36's two headers
// conflict, and we need the new API's constants.
#pragma once

#include <fcntl.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

namespace aj::sys {

#ifndef MNT_DETACH
inline constexpr int kMntDetach = 2;
#else
inline constexpr int kMntDetach = MNT_DETACH;
#endif

inline int open_tree(int dirfd, const char* path, unsigned flags) noexcept {
  return static_cast<int>(::syscall(SYS_open_tree, dirfd, path, flags));
}
inline int move_mount(int from_dirfd, const char* from_path, int to_dirfd, const char* to_path,
                      unsigned flags) noexcept {
  return static_cast<int>(
      ::syscall(SYS_move_mount, from_dirfd, from_path, to_dirfd, to_path, flags));
}
inline int fsopen(const char* fsname, unsigned flags) noexcept {
  return static_cast<int>(::syscall(SYS_fsopen, fsname, flags));
}
inline int fsconfig(int fd, unsigned cmd, const char* key, const void* value, int aux) noexcept {
  return static_cast<int>(::syscall(SYS_fsconfig, fd, cmd, key, value, aux));
}
inline int fsmount(int fd, unsigned flags, unsigned attr_flags) noexcept {
  return static_cast<int>(::syscall(SYS_fsmount, fd, flags, attr_flags));
}
inline int mount_setattr(int dirfd, const char* path, unsigned flags, std::uint64_t attr_set,
                         std::uint64_t attr_clr) noexcept {
  struct mount_attr attr = {};
  attr.attr_set = attr_set;
  attr.attr_clr = attr_clr;
  return static_cast<int>(::syscall(SYS_mount_setattr, dirfd, path, flags, &attr, sizeof attr));
}
inline int openat2(int dirfd, const char* path, std::uint64_t flags,
                   std::uint64_t resolve) noexcept {
  struct open_how how = {};
  how.flags = flags;
  how.resolve = resolve;
  return static_cast<int>(::syscall(SYS_openat2, dirfd, path, &how, sizeof how));
}
inline int mount(const char* source, const char* target, const char* fstype, unsigned long flags,
                 const void* data) noexcept {
  return static_cast<int>(::syscall(SYS_mount, source, target, fstype, flags, data));
}
inline int umount2(const char* target, int flags) noexcept {
  return static_cast<int>(::syscall(SYS_umount2, target, flags));
}
inline int pivot_root(const char* new_root, const char* put_old) noexcept {
  return static_cast<int>(::syscall(SYS_pivot_root, new_root, put_old));
}

}  // namespace aj::sys
