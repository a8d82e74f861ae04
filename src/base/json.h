// Minimal JSON string escaping: control characters, quotes, backslashes, and
// invalid UTF-8 (replaced by U+FFFD), so every line we emit parses.
#pragma once

#include <string>
#include <string_view>

namespace aj {

// Returns the quoted JSON string for s.
std::string json_string(std::string_view s);

// Appends the quoted JSON string for s to out.
void json_append(std::string& out, std::string_view s);

}  // namespace aj
