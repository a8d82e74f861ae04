#include "seccomp/notify_program.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/syscall.h>

#include <cstddef>

#include "seccomp/bpf_eval.h"

namespace aj {

bool is_journaled_refusal(std::uint32_t action) {
  return (action & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO &&
         (action & SECCOMP_RET_DATA) != ENOSYS;
}

BpfProgram make_notifying_program(const BpfProgram& enforcing, const NotifyOptions& o) {
  std::vector<std::uint32_t> nrs;
  if (o.exec) {
    nrs.push_back(SYS_execve);
    nrs.push_back(SYS_execveat);
  }
  for (int nr : o.extra) nrs.push_back(static_cast<std::uint32_t>(nr));
  const auto k = static_cast<std::uint8_t>(nrs.size());

  BpfProgram out;
  auto emit = [&out](std::uint16_t code, std::uint8_t jt, std::uint8_t jf, std::uint32_t kv) {
    out.insns.push_back({code, jt, jf, kv});
  };
  if (k > 0) {
    // [0] ld arch; [1] native? else skip the prefix; [2] ld nr;
    // [3 .. 3+k) jeq nr_i -> notify; [3+k] ja over; [4+k] ret notify.
    emit(BPF_LD | BPF_W | BPF_ABS, 0, 0, offsetof(SeccompData, arch));
    emit(BPF_JMP | BPF_JEQ | BPF_K, 0, static_cast<std::uint8_t>(3 + k), AUDIT_ARCH_X86_64);
    emit(BPF_LD | BPF_W | BPF_ABS, 0, 0, offsetof(SeccompData, nr));
    for (std::uint8_t i = 0; i < k; ++i)
      emit(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint8_t>(k - i), 0, nrs[i]);
    emit(BPF_JMP | BPF_JA, 0, 0, 1);
    emit(BPF_RET | BPF_K, 0, 0, SECCOMP_RET_USER_NOTIF);
  }
  for (BpfInsn insn : enforcing.insns) {
    if (o.denials && insn.code == (BPF_RET | BPF_K) && is_journaled_refusal(insn.k))
      insn.k = SECCOMP_RET_USER_NOTIF;
    out.insns.push_back(insn);
  }
  return out;
}

}  // namespace aj
