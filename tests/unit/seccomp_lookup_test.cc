// The whole-syscall lookup written as BPF: for tables of every size, each
// number gets its answer, the range its action, everything else (other
// numbers, x32 numbers, other ABIs) falls through to what follows.
#include <doctest/doctest.h>
#include <linux/audit.h>
#include <linux/filter.h>

#include <random>

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

}  // namespace
}  // namespace aj
