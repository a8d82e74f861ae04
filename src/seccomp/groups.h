// Named syscall groups ("@mount", "@default", ...) as data: the seccomp
// compiler expands them, profile validation checks names against them, and the
// man page documents them from the same table.
#pragma once

#include <string_view>
#include <vector>

namespace aj {

struct SyscallGroup {
  std::string_view name;  // with the leading '@'
  std::string_view description;
  // Syscall names, or "@group" names expanded recursively. Names that do not
  // exist on the native architecture (e.g. "stime" on x86_64) are skipped when
  // compiling.
  std::vector<std::string_view> syscalls;
  // Deny groups bound kernel attack surface; allow groups build allowlists for
  // `default = "deny"` profiles.
  bool for_allowlist = false;
};

// Every group, deny groups first, then allow groups, in a stable order.
const std::vector<SyscallGroup>& syscall_groups();

// The group called `name` ("@mount"), or nullptr.
const SyscallGroup* find_syscall_group(std::string_view name);

// The syscall names of a group with nested groups expanded, in order, without
// duplicates; empty for an unknown group.
std::vector<std::string_view> expand_syscall_group(std::string_view name);

}  // namespace aj
