// The filter written as BPF without libseccomp. The whole-syscall lookup: for
// tables of every size, each number gets its answer, the range its action,
// everything else (other numbers, x32 numbers, other ABIs) falls through to
// what follows. The argument program: every comparison kind agrees with the
// rule model (ArgCmp::matches) over 64-bit values, and other ABIs and x32
// calls get the foreign answer.
#include <doctest/doctest.h>
#include <linux/audit.h>
#include <linux/filter.h>

#include <random>

#include "seccomp/arg_program.h"
#include "seccomp/bpf_eval.h"
#include "seccomp/lookup_prefix.h"

namespace aj {
namespace {

constexpr std::uint32_t kFallThrough = 0x7ffc0000U | 0x4242;  // an answer the table never gives

std::uint32_t run(const BpfProgram& prefix, std::uint32_t arch, std::uint32_t nr) {
  BpfProgram p = prefix;
  p.insns.push_back({BPF_RET | BPF_K, 0, 0, kFallThrough});
  SeccompData d{};
  d.nr = static_cast<std::int32_t>(nr);
  d.arch = arch;
  const auto r = bpf_evaluate(p, d);
  REQUIRE(r.has_value());
  return *r;
}

TEST_CASE("the lookup prefix answers exactly the table, for tables of every size") {
  std::mt19937 rng(7);
  for (std::size_t size : {0, 1, 2, 3, 4, 5, 8, 9, 17, 64, 100, 255, 300, 450}) {
    for (bool with_range : {false, true}) {
      LookupTable t;
      t.native_arch = AUDIT_ARCH_X86_64;
      while (t.answers.size() < size) t.answers[rng() % 470] = 0x00050000U | (rng() % 4096);
      if (with_range) t.range = LookupTable::Range{470, 512, 0x00050000U | 38};
      const BpfProgram prefix = lookup_prefix(t);
      CAPTURE(size);
      CAPTURE(with_range);
      for (std::uint32_t nr = 0; nr < 600; ++nr) {
        std::uint32_t want = kFallThrough;
        if (with_range && nr >= 470 && nr < 512)
          want = t.range->action;
        else if (auto it = t.answers.find(nr); it != t.answers.end())
          want = it->second;
        if (run(prefix, AUDIT_ARCH_X86_64, nr) != want) FAIL("nr " << nr);
        // Another ABI never gets the table's answers.
        if (run(prefix, AUDIT_ARCH_I386, nr) != kFallThrough) FAIL("i386 nr " << nr);
      }
      for (std::uint32_t x32 : {0x40000000U, 0x40000001U, 0x4000003bU, 0xffffffffU}) {
        CHECK(run(prefix, AUDIT_ARCH_X86_64, x32) == kFallThrough);
      }
    }
  }
}

TEST_CASE("the argument program agrees with the rule model for every comparison kind") {
  const std::uint64_t hi = 1ULL << 32;
  const std::vector<ArgRule> rules = {
      {{ArgCmp{0, ArgOp::kEq, 5 | hi}}},
      {{ArgCmp{1, ArgOp::kNe, 7}, ArgCmp{0, ArgOp::kMaskedEq, 0x40, 0x40}}},
      {{ArgCmp{2, ArgOp::kGt, 0xfffffffeULL}}},
      {{ArgCmp{2, ArgOp::kGt, 3 | hi}, ArgCmp{1, ArgOp::kMaskedEq, 0, 0xff00000000ULL}}},
      {{ArgCmp{3, ArgOp::kMaskedEq, 0x1, 0x3}}},
      {{ArgCmp{4, ArgOp::kMaskedEq, 0x2, 0x1}}},  // never: the datum is outside the mask
  };
  ArgProgramSpec spec;
  spec.native_arch = AUDIT_ARCH_X86_64;
  spec.x32 = true;
  spec.foreign_action = 0x80000000U;
  spec.blocks = {{99, rules, 0x00050001U, 0x7ffc0000U}};
  spec.default_action = 0x7fff0000U;
  const BpfProgram prog = arg_program(spec);
  REQUIRE_FALSE(prog.insns.empty());
  std::mt19937_64 rng(11);
  const std::uint64_t edges[] = {
      0,  1,      3,      5,      7,     0x40,           0x41, 0xfffffffeULL, 0xffffffffULL,
      hi, hi | 3, hi | 4, hi | 5, ~0ULL, 0xff00000000ULL};
  for (int i = 0; i < 20000; ++i) {
    SeccompData d{};
    d.arch = AUDIT_ARCH_X86_64;
    d.nr = 99;
    SyscallArgs a{};
    for (unsigned k = 0; k < 6; ++k) {
      a[k] = (rng() & 1) ? edges[rng() % std::size(edges)] : rng();
      d.args[k] = a[k];
    }
    const std::uint32_t want = any_matches(rules, a) ? 0x00050001U : 0x7ffc0000U;
    const auto got = bpf_evaluate(prog, d);
    REQUIRE(got.has_value());
    if (*got != want) FAIL("args " << a[0] << " " << a[1] << " " << a[2] << " " << a[3]);
  }
  SeccompData other{};
  other.arch = AUDIT_ARCH_X86_64;
  other.nr = 98;
  CHECK(bpf_evaluate(prog, other) == 0x7fff0000U);  // not filtered: the default
  other.nr = 0x40000000 | 99;
  CHECK(bpf_evaluate(prog, other) == 0x80000000U);  // x32
  other.arch = AUDIT_ARCH_I386;
  other.nr = 99;
  CHECK(bpf_evaluate(prog, other) == 0x80000000U);  // another ABI
}

}  // namespace
}  // namespace aj
