// Installing a compiled seccomp filter (seccomp/filter.h) in the child, just
// before execve. Runs after clone: no allocation, async-signal-safe.
#pragma once

#include <cstddef>

#include "seccomp/filter.h"

namespace aj {

// seccomp(SECCOMP_SET_MODE_FILTER, 0, prog) on the calling thread. The caller
// has set PR_SET_NO_NEW_PRIVS (without it an unprivileged caller gets EACCES).
// Returns 0 or the errno.
int install_seccomp_filter(const BpfInsn* insns, std::size_t count) noexcept;

// The same with SECCOMP_FILTER_FLAG_NEW_LISTENER: *listener receives the
// notification fd (close-on-exec), to be passed to the supervisor.
int install_seccomp_listener(const BpfInsn* insns, std::size_t count, int* listener) noexcept;

}  // namespace aj
