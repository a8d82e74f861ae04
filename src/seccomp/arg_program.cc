#include "seccomp/arg_program.h"

#include <linux/filter.h>

#include <cstddef>

#include "seccomp/bpf_eval.h"

namespace aj {
namespace {

constexpr std::uint32_t kX32Bit = 0x40000000U;

// Offsets of an argument's low and high 32 bits in seccomp_data (both
// native ABIs we run on are little-endian).
std::uint32_t low_word(unsigned arg) {
  return static_cast<std::uint32_t>(offsetof(SeccompData, args) + 8 * arg);
}
std::uint32_t high_word(unsigned arg) { return low_word(arg) + 4; }

struct Writer {
  std::vector<BpfInsn> code;
  std::vector<std::size_t> fail_jt, fail_jf;  // of the rule being written
  bool too_long = false;                      // a jump past 255 instructions

  std::size_t emit(std::uint16_t op, std::uint32_t k, std::uint8_t jt = 0, std::uint8_t jf = 0) {
    code.push_back({op, jt, jf, k});
    return code.size() - 1;
  }
  void load(std::uint32_t offset) { emit(BPF_LD | BPF_W | BPF_ABS, offset); }
  // A == k, else the rule fails.
  void require_eq(std::uint32_t k) { fail_jf.push_back(emit(BPF_JMP | BPF_JEQ | BPF_K, k)); }

  // (word & mask) == datum for one 32-bit half.
  void masked_half(std::uint32_t offset, std::uint32_t mask, std::uint32_t datum) {
    if (mask == 0) return;  // datum is 0 there too (checked by the caller)
    load(offset);
    if (mask != 0xffffffffU) emit(BPF_ALU | BPF_AND | BPF_K, mask);
    require_eq(datum);
  }

  // Appends one comparison; false when it can never hold.
  bool comparison(const ArgCmp& c) {
    const std::uint64_t mask = c.op == ArgOp::kMaskedEq ? c.mask : ~std::uint64_t{0};
    switch (c.op) {
      case ArgOp::kEq:
      case ArgOp::kMaskedEq:
        if ((c.datum & ~mask) != 0) return false;
        masked_half(high_word(c.arg), static_cast<std::uint32_t>(mask >> 32),
                    static_cast<std::uint32_t>(c.datum >> 32));
        masked_half(low_word(c.arg), static_cast<std::uint32_t>(mask),
                    static_cast<std::uint32_t>(c.datum));
        return true;
      case ArgOp::kNe: {
        // Holds unless both halves equal the datum's.
        load(high_word(c.arg));
        const std::size_t hi =
            emit(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(c.datum >> 32));
        load(low_word(c.arg));
        fail_jt.push_back(emit(BPF_JMP | BPF_JEQ | BPF_K, static_cast<std::uint32_t>(c.datum)));
        code[hi].jf = static_cast<std::uint8_t>(code.size() - hi - 1);  // high differs: holds
        return true;
      }
      case ArgOp::kGt: {
        // high > d.high, or high == d.high and low > d.low (unsigned).
        load(high_word(c.arg));
        const std::size_t gt =
            emit(BPF_JMP | BPF_JGT | BPF_K, static_cast<std::uint32_t>(c.datum >> 32));
        require_eq(static_cast<std::uint32_t>(c.datum >> 32));
        load(low_word(c.arg));
        fail_jf.push_back(emit(BPF_JMP | BPF_JGT | BPF_K, static_cast<std::uint32_t>(c.datum)));
        code[gt].jt = static_cast<std::uint8_t>(code.size() - gt - 1);
        return true;
      }
    }
    return false;
  }

  // One rule: its comparisons, then `ret`; a failed comparison skips to
  // what follows the rule.
  void rule(const ArgRule& r, std::uint32_t ret) {
    fail_jt.clear();
    fail_jf.clear();
    const std::size_t start = code.size();
    for (const ArgCmp& c : r.all_of) {
      if (!comparison(c)) {
        code.resize(start);  // never matches: leave it out
        return;
      }
    }
    emit(BPF_RET | BPF_K, ret);
    const std::size_t after = code.size();
    auto offset = [this, after](std::size_t at) {
      const std::size_t d = after - at - 1;
      too_long = too_long || d > 255;
      return static_cast<std::uint8_t>(d);
    };
    for (std::size_t at : fail_jt) code[at].jt = offset(at);
    for (std::size_t at : fail_jf) code[at].jf = offset(at);
  }
};

}  // namespace

BpfProgram arg_program(const ArgProgramSpec& spec) {
  Writer w;
  w.load(offsetof(SeccompData, arch));
  w.emit(BPF_JMP | BPF_JEQ | BPF_K, spec.native_arch, 1, 0);
  w.emit(BPF_RET | BPF_K, spec.foreign_action);
  w.load(offsetof(SeccompData, nr));
  if (spec.x32) {
    w.emit(BPF_JMP | BPF_JGE | BPF_K, kX32Bit, 0, 1);
    w.emit(BPF_RET | BPF_K, spec.foreign_action);
  }
  for (const ArgBlock& b : spec.blocks) {
    // A holds the number (a block entered always returns): jeq nr -> the
    // block, else the JA past it.
    w.emit(BPF_JMP | BPF_JEQ | BPF_K, b.nr, 1, 0);
    const std::size_t skip = w.emit(BPF_JMP | BPF_JA, 0);
    for (const ArgRule& r : b.rules) w.rule(r, b.on_match);
    w.emit(BPF_RET | BPF_K, b.otherwise);
    w.code[skip].k = static_cast<std::uint32_t>(w.code.size() - skip - 1);
  }
  w.emit(BPF_RET | BPF_K, spec.default_action);
  if (w.too_long) return {};
  return BpfProgram{std::move(w.code)};
}

}  // namespace aj
