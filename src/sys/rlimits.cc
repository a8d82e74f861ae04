#include "sys/rlimits.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace aj {
namespace {

// The kernel's struct for prlimit64, spelled out so no glibc
// _LARGEFILE64_SOURCE dance is needed.
struct KernelRlimit64 {
  std::uint64_t cur;
  std::uint64_t max;
};

int get_limit(int resource, KernelRlimit64* out) noexcept {
  if (syscall(SYS_prlimit64, 0, resource, nullptr, out) != 0) return errno;
  return 0;
}

}  // namespace

int rlimit_resource(RlimitKind kind) noexcept {
  switch (kind) {
    case RlimitKind::kAddressSpace: return RLIMIT_AS;
    case RlimitKind::kProcesses: return RLIMIT_NPROC;
    case RlimitKind::kOpenFiles: return RLIMIT_NOFILE;
    case RlimitKind::kFileSize: return RLIMIT_FSIZE;
    case RlimitKind::kCpuTime: return RLIMIT_CPU;
    case RlimitKind::kCore: return RLIMIT_CORE;
    case RlimitKind::kPendingSignals: return RLIMIT_SIGPENDING;
  }
  return -1;
}

int apply_rlimits(const RlimitSetting* settings, std::size_t n,
                  std::size_t* failed_index) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    const int resource = rlimit_resource(settings[i].kind);
    KernelRlimit64 current{};
    int err = resource < 0 ? EINVAL : get_limit(resource, &current);
    if (err == 0) {
      KernelRlimit64 wanted{};
      wanted.max = settings[i].hard < current.max ? settings[i].hard : current.max;
      wanted.cur = settings[i].soft < wanted.max ? settings[i].soft : wanted.max;
      if (syscall(SYS_prlimit64, 0, resource, &wanted, nullptr) != 0) err = errno;
    }
    if (err != 0) {
      if (failed_index != nullptr) *failed_index = i;
      return err;
    }
  }
  return 0;
}

std::map<RlimitKind, std::uint64_t> read_hard_limits() {
  std::map<RlimitKind, std::uint64_t> out;
  for (RlimitKind kind : {RlimitKind::kAddressSpace, RlimitKind::kProcesses, RlimitKind::kOpenFiles,
                          RlimitKind::kFileSize, RlimitKind::kCpuTime, RlimitKind::kCore,
                          RlimitKind::kPendingSignals}) {
    KernelRlimit64 current{};
    if (get_limit(rlimit_resource(kind), &current) == 0) out[kind] = current.max;
  }
  return out;
}

}  // namespace aj
