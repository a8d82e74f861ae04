#include "seccomp/lookup_prefix.h"

#include <linux/filter.h>

#include <cstddef>
#include <vector>

#include "seccomp/bpf_eval.h"

namespace aj {
namespace {

// Entries at or below this many are compared one by one.
constexpr std::size_t kLinearAtMost = 4;

struct Emitter {
  std::vector<BpfInsn> code;
  std::vector<std::size_t> to_end;  // JA instructions to point past the prefix

  std::size_t emit(std::uint16_t op, std::uint32_t k, std::uint8_t jt = 0, std::uint8_t jf = 0) {
    code.push_back({op, jt, jf, k});
    return code.size() - 1;
  }
  void jump_to_end() { to_end.push_back(emit(BPF_JMP | BPF_JA, 0)); }

  // With the number in A: return the answer of entries [lo, hi), else jump
  // to the end.
  void search(const std::vector<std::pair<std::uint32_t, std::uint32_t>>& e, std::size_t lo,
              std::size_t hi) {
    if (hi - lo <= kLinearAtMost) {
      // jeq n_i -> its ret (i-th after the JA); the rets follow the JA.
      const std::size_t n = hi - lo;
      for (std::size_t i = 0; i < n; ++i) {
        emit(BPF_JMP | BPF_JEQ | BPF_K, e[lo + i].first, static_cast<std::uint8_t>(n), 0);
      }
      jump_to_end();
      for (std::size_t i = 0; i < n; ++i) emit(BPF_RET | BPF_K, e[lo + i].second);
      return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    // jge n_mid: taken -> the JA to the upper half; not taken -> skip it.
    emit(BPF_JMP | BPF_JGE | BPF_K, e[mid].first, 0, 1);
    const std::size_t to_upper = emit(BPF_JMP | BPF_JA, 0);
    search(e, lo, mid);
    code[to_upper].k = static_cast<std::uint32_t>(code.size() - to_upper - 1);
    search(e, mid, hi);
  }
};

}  // namespace

BpfProgram lookup_prefix(const LookupTable& table) {
  Emitter em;
  em.emit(BPF_LD | BPF_W | BPF_ABS, offsetof(SeccompData, arch));
  em.emit(BPF_JMP | BPF_JEQ | BPF_K, table.native_arch, 1, 0);
  em.jump_to_end();
  em.emit(BPF_LD | BPF_W | BPF_ABS, offsetof(SeccompData, nr));
  if (table.range) {
    // first <= nr < end: the range's answer.
    em.emit(BPF_JMP | BPF_JGE | BPF_K, table.range->first, 0, 3);
    em.emit(BPF_JMP | BPF_JGE | BPF_K, table.range->end, 1, 0);
    em.emit(BPF_RET | BPF_K, table.range->action);
    em.jump_to_end();
  }
  const std::vector<std::pair<std::uint32_t, std::uint32_t>> entries(table.answers.begin(),
                                                                     table.answers.end());
  if (entries.empty())
    em.jump_to_end();
  else
    em.search(entries, 0, entries.size());
  const std::size_t end = em.code.size();
  for (std::size_t at : em.to_end) em.code[at].k = static_cast<std::uint32_t>(end - at - 1);
  return BpfProgram{std::move(em.code)};
}

}  // namespace aj
