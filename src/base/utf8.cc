#include "base/utf8.h"

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

}  // namespace aj
