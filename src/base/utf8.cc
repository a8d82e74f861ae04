#include "base/utf8.h"

#include <fmt/format.h>

namespace aj {

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  if (n == 2 && c < 0xC2) return 0;                       // overlong
  if (n == 3 && c == 0xE0 && b(i + 1) < 0xA0) return 0;   // overlong
  if (n == 3 && c == 0xED && b(i + 1) >= 0xA0) return 0;  // surrogates
  if (n == 4 && (c > 0xF4 || (c == 0xF0 && b(i + 1) < 0x90) || (c == 0xF4 && b(i + 1) >= 0x90)))
    return 0;  // overlong or above U+10FFFF
  return n;
}

std::string terminal_safe(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size();) {
    const auto c = static_cast<unsigned char>(line[i]);
    if (c < 0x20 || c == 0x7F) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
      continue;
    }
    if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    const std::size_t n = utf8_sequence_length(line, i);
    if (n == 0) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
      continue;
    }
    // C1 controls (U+0080..U+009F: C2 80..C2 9F) and the bidi embeddings,
    // overrides and isolates (U+202A..U+202E, U+2066..U+2069).
    const auto b1 = n > 1 ? static_cast<unsigned char>(line[i + 1]) : 0;
    const auto b2 = n > 2 ? static_cast<unsigned char>(line[i + 2]) : 0;
    std::uint32_t cp = 0;
    if (n == 2 && c == 0xC2 && b1 <= 0x9F) cp = b1;
    if (n == 3 && c == 0xE2 && b1 == 0x80 && b2 >= 0xAA && b2 <= 0xAE) cp = 0x2000 + (b2 - 0x80);
    if (n == 3 && c == 0xE2 && b1 == 0x81 && b2 >= 0xA6 && b2 <= 0xA9) cp = 0x2040 + (b2 - 0x80);
    if (cp != 0)
      out += fmt::format("\\u{:04x}", cp);
    else
      out.append(line.substr(i, n));
    i += n;
  }
  return out;
}

}  // namespace aj
