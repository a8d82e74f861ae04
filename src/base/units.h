// Sizes ("512M", "8G", "4096") and durations ("90s", "2h", "1h30m", "500ms").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace aj {

// Binary units: K = 1024. Returns nullopt on anything malformed or overflowing.
std::optional<std::uint64_t> parse_size(std::string_view text);
// Returns milliseconds; nullopt on anything malformed. A bare number is seconds.
std::optional<std::uint64_t> parse_duration_ms(std::string_view text);

std::string format_size(std::uint64_t bytes);
std::string format_duration_ms(std::uint64_t ms);

}  // namespace aj
