// Syscall and group names as the profile writes them, resolved on the native
// architecture. With filter.cc, the only users of <seccomp.h>.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace aj {

// True for "@group" names of groups.h and for syscall names libseccomp (or our
// table of syscalls newer than it) knows, on any architecture. Profile
// validation calls this.
bool seccomp_name_is_known(std::string_view name);

// The native syscall number of `name`. Negative for a syscall libseccomp knows
// but the native architecture lacks (e.g. "stime" on x86_64); nullopt when the
// name is unknown.
std::optional<int> seccomp_syscall_number(std::string_view name);

// The name of native syscall `nr`, or "syscall <nr>" when unknown (for the
// journal and diagnostics).
std::string seccomp_syscall_name(int nr);

// The highest native syscall number that has a name.
int seccomp_highest_known_syscall();

// The native ABI as seccomp_data.arch names it (AUDIT_ARCH_*).
std::uint32_t seccomp_native_arch();

}  // namespace aj
