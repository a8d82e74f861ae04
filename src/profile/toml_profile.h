// The toml++ adapter: profile text -> ProfileLayer, validated against schema v1
// (see agentjail.toml(5)). The only file that includes toml++; its exceptions
// are caught here and never cross this boundary.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "profile/diagnostic.h"
#include "profile/layer.h"

namespace aj {

// Answers whether a [seccomp] deny/allow entry names a known syscall ("ptrace")
// or group ("@mount"); it receives the entry as written, without a leading '!'.
// An empty validator accepts every name.
using NameValidator = std::function<bool(std::string_view)>;

// Parses and validates one profile. Every problem is appended to *diags as
// "FILE:LINE:COL: message" (file is file_label), sorted by position; the layer
// holds whatever was valid and must not be used when any diagnostic was added.
// Paths and other values are kept as written (variables unexpanded), except
// [network] allow entries, which are lowercased.
ProfileLayer parse_profile_text(std::string_view text, const std::string& file_label,
                                const NameValidator& is_known_syscall_or_group,
                                std::vector<Diagnostic>* diags);

// Reads path and parses it with path as the label. An unreadable file is one
// diagnostic at "path".
ProfileLayer parse_profile_file(const std::string& path,
                                const NameValidator& is_known_syscall_or_group,
                                std::vector<Diagnostic>* diags);

// The sections and keys of schema v1, for documentation and completion lint.
std::vector<std::string> profile_schema_keys();  // "filesystem.read_only", ...

}  // namespace aj
