// A classic-BPF interpreter for seccomp programs, so the supervisor can ask
// the enforcing filter what it would have answered for a notified syscall.
#pragma once

#include <cstdint>
#include <optional>

#include "seccomp/filter.h"

namespace aj {

// Same layout as the kernel's struct seccomp_data.
struct SeccompData {
  std::int32_t nr;
  std::uint32_t arch;
  std::uint64_t instruction_pointer;
  std::uint64_t args[6];
};

// The program's return value, or nullopt for a malformed program.
std::optional<std::uint32_t> bpf_evaluate(const BpfProgram& program, const SeccompData& data);

}  // namespace aj
