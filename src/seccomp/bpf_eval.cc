#include "seccomp/bpf_eval.h"

#include <linux/filter.h>

#include <cstring>

namespace aj {

static_assert(sizeof(SeccompData) == 64, "struct seccomp_data is 64 bytes");

std::optional<std::uint32_t> bpf_evaluate(const BpfProgram& p, const SeccompData& d) {
  std::uint32_t a = 0, x = 0;
  std::uint32_t mem[BPF_MEMWORDS] = {};
  const std::size_t n = p.insns.size();
  for (std::size_t pc = 0; pc < n; ++pc) {
    const BpfInsn& i = p.insns[pc];
    const std::uint32_t src = BPF_SRC(i.code) == BPF_X ? x : i.k;
    switch (BPF_CLASS(i.code)) {
      case BPF_LD:
        if (i.code == (BPF_LD | BPF_W | BPF_ABS) && i.k + 4 <= sizeof d && i.k % 4 == 0)
          std::memcpy(&a, reinterpret_cast<const char*>(&d) + i.k, 4);
        else if (i.code == (BPF_LD | BPF_IMM))
          a = i.k;
        else if (i.code == (BPF_LD | BPF_MEM) && i.k < BPF_MEMWORDS)
          a = mem[i.k];
        else
          return std::nullopt;
        break;
      case BPF_LDX:
        if (i.code == (BPF_LDX | BPF_IMM))
          x = i.k;
        else if (i.code == (BPF_LDX | BPF_MEM) && i.k < BPF_MEMWORDS)
          x = mem[i.k];
        else
          return std::nullopt;
        break;
      case BPF_ST:
      case BPF_STX:
        if (i.k >= BPF_MEMWORDS) return std::nullopt;
        mem[i.k] = BPF_CLASS(i.code) == BPF_ST ? a : x;
        break;
      case BPF_ALU:
        switch (BPF_OP(i.code)) {
          case BPF_AND: a &= src; break;
          case BPF_OR: a |= src; break;
          case BPF_ADD: a += src; break;
          case BPF_SUB: a -= src; break;
          case BPF_RSH: a = src < 32 ? a >> src : 0; break;
          case BPF_LSH: a = src < 32 ? a << src : 0; break;
          case BPF_NEG: a = -a; break;
          default: return std::nullopt;
        }
        break;
      case BPF_JMP: {
        if (BPF_OP(i.code) == BPF_JA) {
          pc += i.k;
          break;
        }
        bool taken = false;
        switch (BPF_OP(i.code)) {
          case BPF_JEQ: taken = a == src; break;
          case BPF_JGT: taken = a > src; break;
          case BPF_JGE: taken = a >= src; break;
          case BPF_JSET: taken = (a & src) != 0; break;
          default: return std::nullopt;
        }
        pc += taken ? i.jt : i.jf;
        break;
      }
      case BPF_RET: return BPF_RVAL(i.code) == BPF_A ? a : i.k;
      case BPF_MISC:
        if (BPF_MISCOP(i.code) == BPF_TAX)
          x = a;
        else
          a = x;
        break;
      default: return std::nullopt;
    }
  }
  return std::nullopt;  // fell off the end
}

}  // namespace aj
