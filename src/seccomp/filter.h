// Compiles the [seccomp] part of a policy into a classic BPF program, in the
// parent: libseccomp names the syscalls (names.h); the program is written
// directly (lookup_prefix.h: whole syscalls; arg_program.h: the rules on
// arguments), because libseccomp's generator took ~0.5 ms of every start.
// The child only installs the bytes (sys/seccomp_install.h).
#pragma once

#include <cstdint>
#include <vector>

#include "base/error.h"
#include "policy/policy.h"
#include "seccomp/arg_rules.h"

namespace aj {

// Same layout as the kernel's struct sock_filter.
struct BpfInsn {
  std::uint16_t code;
  std::uint8_t jt;
  std::uint8_t jf;
  std::uint32_t k;
};

struct BpfProgram {
  std::vector<BpfInsn> insns;
};

// The filter for `policy`:
//  - `deny` names and groups get the profile action (errno: EPERM or the
//    configured errno_value; kill: the whole process; log: allowed, logged);
//  - with default = "deny", everything else gets that action except `allow`
//    names and groups; syscall numbers above the newest one we can name
//    (names.h) get ENOSYS, so a newer libc falls back to older calls;
//  - when both lists reach a syscall, the one naming it directly beats the
//    one reaching it through a group; a tie goes to deny;
//  - the built-in rules of arg_rules.h apply on top whatever the profile says;
//    execve is always allowed (a profile that denies it is an error);
//  - other architectures' syscalls (i386 int 0x80, x32) kill the process.
// Fails with FILE:LINE:COL and the name for an unknown syscall or group.
Result<BpfProgram> compile_seccomp(const SeccompPolicy& policy, const SeccompOptions& options);

// The checks compile_seccomp makes of the policy (names, groups, errno, a
// denied execve) without building the filter: cheap, so a profile error is
// reported before anything starts even though the filter itself is compiled
// while the jail is being built.
Result<void> check_seccomp_policy(const SeccompPolicy& policy);

}  // namespace aj
