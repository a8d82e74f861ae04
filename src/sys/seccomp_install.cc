#include "sys/seccomp_install.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace aj {

int install_seccomp_filter(const BpfInsn* insns, std::size_t count) noexcept {
  if (insns == nullptr || count == 0 || count > BPF_MAXINSNS) return EINVAL;
  sock_fprog prog{};
  prog.len = static_cast<unsigned short>(count);
  // BpfInsn has sock_filter's layout (static_assert in seccomp/filter.cc); the
  // kernel only reads the program.
  prog.filter = reinterpret_cast<sock_filter*>(const_cast<BpfInsn*>(insns));
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) return errno;
  return 0;
}

}  // namespace aj
