#include "seccomp/notify_program.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>

#include <cstddef>

#include "seccomp/bpf_eval.h"
#include "seccomp/lookup_prefix.h"
#include "seccomp/names.h"

namespace aj {

bool is_journaled_refusal(std::uint32_t action) {
  return (action & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO &&
         (action & SECCOMP_RET_DATA) != ENOSYS;
}

BpfProgram make_notifying_program(const BpfProgram& enforcing, const NotifyOptions& o) {
  // The notified calls first, as a lookup on the number (lookup_prefix.h):
  // it runs on every syscall the command makes.
  LookupTable notified;
  notified.native_arch = seccomp_native_arch();
  if (o.exec) {
    notified.answers[SYS_execve] = SECCOMP_RET_USER_NOTIF;
    notified.answers[SYS_execveat] = SECCOMP_RET_USER_NOTIF;
  }
  for (int nr : o.extra) notified.answers[static_cast<std::uint32_t>(nr)] = SECCOMP_RET_USER_NOTIF;
  BpfProgram out;
  if (!notified.answers.empty()) out = lookup_prefix(notified);
  for (BpfInsn insn : enforcing.insns) {
    if (o.denials && insn.code == (BPF_RET | BPF_K) && is_journaled_refusal(insn.k))
      insn.k = SECCOMP_RET_USER_NOTIF;
    out.insns.push_back(insn);
  }
  return out;
}

}  // namespace aj
