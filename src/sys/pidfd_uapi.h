// PIDFD_GET_INFO (Linux 6.13), which Debian 12's headers (Linux 6.1) lack:
// the stable UAPI's first version of struct pidfd_info (64 bytes).
#pragma once

#include <linux/ioctl.h>
#include <linux/types.h>

namespace aj::uapi {

struct pidfd_info {
  __u64 mask;
  __u64 cgroupid;
  __u32 pid;
  __u32 tgid;
  __u32 ppid;
  __u32 ruid;
  __u32 rgid;
  __u32 euid;
  __u32 egid;
  __u32 suid;
  __u32 sgid;
  __u32 fsuid;
  __u32 fsgid;
  __u32 spare0[1];
};
static_assert(sizeof(pidfd_info) == 64, "PIDFD_INFO_SIZE_VER0");

constexpr __u64 kPidfdInfoPid = 1ULL << 0;                            // PIDFD_INFO_PID
constexpr unsigned long kPidfdGetInfo = _IOWR(0xFF, 11, pidfd_info);  // PIDFD_GET_INFO

}  // namespace aj::uapi
