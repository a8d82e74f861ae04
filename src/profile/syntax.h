// Value syntax shared by the TOML adapter and the command line: paths, host
// patterns, environment names, errno names, and did-you-mean suggestions.
// Pure; no disk access.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "base/error.h"

namespace aj {

// A profile path must be absolute once expanded: it starts with '/', is "~" or
// "~/...", or starts with ${HOME}, ${WORKSPACE}, ${TMPDIR} or ${STATE}. Every
// ${...} inside must be a known variable.
Result<void> check_profile_path(std::string_view path);

// A proxy allowlist entry: "host", "*.suffix" or either with ":port". Returns
// the entry lowercased (host names are case-insensitive, and merging compares
// entries for equality).
Result<std::string> check_host_pattern(std::string_view pattern);

// [A-Za-z_][A-Za-z0-9_]*
bool is_env_name(std::string_view name);
// An environment name in which '*' and '?' may stand for characters ("LC_*").
bool is_env_glob(std::string_view glob);
// A bare profile name: [A-Za-z0-9._-]+
bool is_profile_name(std::string_view name);

// "EPERM" -> 1 for the errno names a profile may use; nullopt otherwise.
std::optional<int> errno_from_name(std::string_view name);
// "EPERM, EACCES, ..." for error messages.
std::string errno_name_list();

size_t edit_distance(std::string_view a, std::string_view b);
// The closest candidate within edit distance 2 (first one on ties), if any.
std::optional<std::string_view> did_you_mean(std::string_view word,
                                             std::span<const std::string_view> candidates);

}  // namespace aj
