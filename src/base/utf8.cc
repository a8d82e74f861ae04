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

namespace {

std::uint32_t code_point(std::string_view seq) {
  auto b = [&](std::size_t k) {
    return static_cast<std::uint32_t>(static_cast<unsigned char>(seq[k]));
  };
  if (seq.size() == 2) return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
  if (seq.size() == 3) return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
  return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
}

// C1 controls, the bidirectional controls that reorder what follows, and
// the other characters that show nothing (format characters, line and
// paragraph separators, tags): each could hide or disguise what a line says.
// (Unicode's Default_Ignorable_Code_Point set, the Hangul fillers with it.)
bool invisible_control(std::uint32_t cp) {
  static constexpr std::pair<std::uint32_t, std::uint32_t> kRanges[] = {
      {0x80, 0x9F},       {0xAD, 0xAD},       {0x34F, 0x34F},    {0x61C, 0x61C},   {0x115F, 0x1160},
      {0x17B4, 0x17B5},   {0x180B, 0x180F},   {0x200B, 0x200F},  {0x2028, 0x202E}, {0x2060, 0x206F},
      {0x3164, 0x3164},   {0xFE00, 0xFE0F},   {0xFEFF, 0xFEFF},  {0xFFA0, 0xFFA0}, {0xFFF0, 0xFFFB},
      {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF}};
  for (const auto& [lo, hi] : kRanges)
    if (cp >= lo && cp <= hi) return true;
  return false;
}

}  // namespace

std::string visible_text(std::string_view s, Escapes style) {
  const bool display = style == Escapes::kDisplay;
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80 ? 1 : utf8_sequence_length(s, i);
    if (c < 0x20 || c == 0x7F) {
      out += display && c == '\n'   ? "\\n"
             : display && c == '\t' ? "\\t"
             : display && c == '\r' ? "\\r"
                                    : fmt::format("\\x{:02x}", c);
    } else if (display && c == '\\') {
      out += "\\\\";  // so that a literal "\u202e" cannot pass for an escaped one
    } else if (n == 0) {
      out += fmt::format("\\x{:02x}", c);  // the byte itself, not a stand-in
    } else if (const std::uint32_t cp = n > 1 ? code_point(s.substr(i, n)) : c;
               n > 1 && invisible_control(cp)) {
      // \U and eight digits past U+FFFF: never ambiguous.
      out += cp > 0xFFFF ? fmt::format("\\U{:08x}", cp) : fmt::format("\\u{:04x}", cp);
    } else {
      out.append(s.substr(i, n));
    }
    i += n == 0 ? 1 : n;
  }
  return out;
}

std::string terminal_safe(std::string_view s) { return visible_text(s, Escapes::kTerminal); }

}  // namespace aj
