#include "seccomp/names.h"

#include <seccomp.h>

#include <cstdlib>
#include <string>

#include "seccomp/groups.h"

namespace aj {
namespace {

struct NewerSyscall {
  std::string_view name;
  int nr;
};

// Syscalls added to Linux after libseccomp 2.5.4's table (which stops at
// futex_requeue, 456). Since 5.1 new syscalls get the same number on every
// architecture but alpha (and mips, ia64 with offsets), so the table is used
// only on x86_64 and aarch64. Source: the kernel's scripts/syscall.tbl.
constexpr NewerSyscall kNewerSyscalls[] = {
    {"statmount", 457},         {"listmount", 458},        {"lsm_get_self_attr", 459},
    {"lsm_set_self_attr", 460}, {"lsm_list_modules", 461}, {"mseal", 462},
    {"setxattrat", 463},        {"getxattrat", 464},       {"listxattrat", 465},
    {"removexattrat", 466},     {"open_tree_attr", 467},   {"file_getattr", 468},
    {"file_setattr", 469},
};

bool native_uses_unified_numbers() {
  const uint32_t arch = seccomp_arch_native();
  return arch == SCMP_ARCH_X86_64 || arch == SCMP_ARCH_AARCH64;
}

}  // namespace

std::optional<int> seccomp_syscall_number(std::string_view name) {
  if (name.empty() || name.starts_with('@')) return std::nullopt;
  const std::string s(name);
  const int nr = seccomp_syscall_resolve_name(s.c_str());
  if (nr != __NR_SCMP_ERROR) return nr;
  for (const NewerSyscall& n : kNewerSyscalls) {
    if (n.name == name) {
      // Known by name; "not on this architecture" is a negative number, as
      // libseccomp reports it. -1 is never a libseccomp pseudo number.
      return native_uses_unified_numbers() ? n.nr : -1;
    }
  }
  return std::nullopt;
}

bool seccomp_name_is_known(std::string_view name) {
  if (name.starts_with('@')) return find_syscall_group(name) != nullptr;
  return seccomp_syscall_number(name).has_value();
}

std::string seccomp_syscall_name(int nr) {
  if (char* s = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr)) {
    std::string out(s);
    std::free(s);
    return out;
  }
  if (native_uses_unified_numbers()) {
    for (const NewerSyscall& n : kNewerSyscalls) {
      if (n.nr == nr) return std::string(n.name);
    }
  }
  return "syscall " + std::to_string(nr);
}

int seccomp_highest_known_syscall() {
  static const int highest = [] {
    int best = native_uses_unified_numbers() ? kNewerSyscalls[std::size(kNewerSyscalls) - 1].nr : 0;
    // Native numbers stay below 1024 on x86_64 and aarch64.
    for (int nr = 0; nr < 1024; ++nr) {
      if (char* s = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr)) {
        std::free(s);
        if (nr > best) best = nr;
      }
    }
    return best;
  }();
  return highest;
}

std::uint32_t seccomp_native_arch() { return seccomp_arch_native(); }

}  // namespace aj
