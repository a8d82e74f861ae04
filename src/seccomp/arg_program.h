// The part of a seccomp filter that looks at arguments, written directly as
// classic BPF (lookup_prefix.h answers whole syscalls before it): for each
// filtered syscall, its rules in order, then that syscall's other answer;
// then the answer for every other call. It also stops other ABIs (i386's
// int 0x80) and, on x86_64, x32 calls. Pure.
#pragma once

#include <cstdint>
#include <vector>

#include "seccomp/arg_rules.h"
#include "seccomp/filter.h"

namespace aj {

struct ArgBlock {
  std::uint32_t nr = 0;
  std::vector<ArgRule> rules;  // the first that matches answers on_match
  std::uint32_t on_match = 0;
  std::uint32_t otherwise = 0;  // when none matches
};

struct ArgProgramSpec {
  std::uint32_t native_arch = 0;     // AUDIT_ARCH_*
  bool x32 = false;                  // native is x86_64: numbers with bit 30 set are x32 calls
  std::uint32_t foreign_action = 0;  // other ABIs and x32
  std::vector<ArgBlock> blocks;
  std::uint32_t default_action = 0;
};

// Empty when a rule is too long for a conditional jump (255 instructions):
// the built-in rules are a few comparisons each.
BpfProgram arg_program(const ArgProgramSpec& spec);

}  // namespace aj
