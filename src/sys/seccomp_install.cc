#include "sys/seccomp_install.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace aj {

namespace {

long install(const BpfInsn* insns, std::size_t count, unsigned flags) noexcept {
  if (insns == nullptr || count == 0 || count > BPF_MAXINSNS) {
    errno = EINVAL;
    return -1;
  }
  sock_fprog prog{};
  prog.len = static_cast<unsigned short>(count);
  // BpfInsn has sock_filter's layout (static_assert in seccomp/filter.cc); the
  // kernel only reads the program.
  prog.filter = reinterpret_cast<sock_filter*>(const_cast<BpfInsn*>(insns));
  return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

}  // namespace

int install_seccomp_filter(const BpfInsn* insns, std::size_t count) noexcept {
  return install(insns, count, 0) != 0 ? errno : 0;
}

int install_seccomp_listener(const BpfInsn* insns, std::size_t count, int* listener) noexcept {
  long fd = install(insns, count, SECCOMP_FILTER_FLAG_NEW_LISTENER);
  if (fd < 0) return errno;
  *listener = static_cast<int>(fd);
  return 0;
}

}  // namespace aj
