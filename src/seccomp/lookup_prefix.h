// The part of a seccomp filter that answers whole syscalls, whatever their
// arguments, written directly as classic BPF: a binary search over the
// syscall number (arg_program.h writes the rules on arguments after it).
// libseccomp's generator took ~1 µs per instruction, ~0.7 ms of every start
// for the default profile. Pure.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "seccomp/filter.h"

namespace aj {

struct LookupTable {
  std::uint32_t native_arch = 0;                   // AUDIT_ARCH_* of the native ABI
  std::map<std::uint32_t, std::uint32_t> answers;  // syscall number -> SECCOMP_RET_*
  // Numbers in [first, end) get `action`, before `answers` is looked at (the
  // syscalls newer than the ones we can name, answered ENOSYS).
  struct Range {
    std::uint32_t first = 0, end = 0;
    std::uint32_t action = 0;
  };
  std::optional<Range> range;
};

// Instructions that return the answer for a native-ABI call named in the
// table (or in its range), and otherwise continue just past their last
// instruction: the program to append handles everything else, other ABIs
// included (its own first instructions load what they need).
BpfProgram lookup_prefix(const LookupTable& table);

}  // namespace aj
