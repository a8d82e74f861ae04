// Small text helpers shared by cgroup detection (cgroup.cc) and a
// session's groups (cgroup_session.cc); not part of the cgroup API.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aj::cgroup_text {

// Whitespace-separated words.
std::vector<std::string> words(std::string_view text);
// A decimal number that fits 64 bits, nothing else.
std::optional<std::uint64_t> parse_u64(std::string_view s);
// The pids listed in a cgroup.procs text.
std::vector<pid_t> parse_pids(std::string_view text);

}  // namespace aj::cgroup_text
