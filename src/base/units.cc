#include "base/units.h"

#include <fmt/format.h>

#include <cctype>
#include <limits>

namespace aj {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

// Reads leading digits into *out; returns how many characters were used.
size_t read_number(std::string_view text, std::uint64_t* out, bool* overflow) {
  size_t i = 0;
  std::uint64_t v = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    unsigned d = static_cast<unsigned>(text[i] - '0');
    if (v > (kMax - d) / 10) *overflow = true;
    v = v * 10 + d;
    ++i;
  }
  *out = v;
  return i;
}

bool mul_ok(std::uint64_t a, std::uint64_t b, std::uint64_t* out) {
  if (a != 0 && b > kMax / a) return false;
  *out = a * b;
  return true;
}

}  // namespace

std::optional<std::uint64_t> parse_size(std::string_view text) {
  std::uint64_t n = 0;
  bool overflow = false;
  size_t used = read_number(text, &n, &overflow);
  if (used == 0 || overflow) return std::nullopt;
  std::string_view suffix = text.substr(used);
  std::uint64_t mult = 1;
  if (suffix.empty() || suffix == "B") {
    mult = 1;
  } else {
    char c = static_cast<char>(std::toupper(static_cast<unsigned char>(suffix[0])));
    std::string_view rest = suffix.substr(1);
    if (!(rest.empty() || rest == "B" || rest == "iB")) return std::nullopt;
    switch (c) {
      case 'K': mult = 1ULL << 10; break;
      case 'M': mult = 1ULL << 20; break;
      case 'G': mult = 1ULL << 30; break;
      case 'T': mult = 1ULL << 40; break;
      default: return std::nullopt;
    }
  }
  std::uint64_t out = 0;
  if (!mul_ok(n, mult, &out)) return std::nullopt;
  return out;
}

std::optional<std::uint64_t> parse_duration_ms(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::uint64_t total = 0;
  bool any = false;
  while (!text.empty()) {
    std::uint64_t n = 0;
    bool overflow = false;
    size_t used = read_number(text, &n, &overflow);
    if (used == 0 || overflow) return std::nullopt;
    text.remove_prefix(used);
    std::uint64_t mult = 1000;  // bare number: seconds
    if (text.substr(0, 2) == "ms") {
      mult = 1;
      text.remove_prefix(2);
    } else if (!text.empty() && std::isalpha(static_cast<unsigned char>(text[0]))) {
      switch (text[0]) {
        case 's': mult = 1000; break;
        case 'm': mult = 60 * 1000; break;
        case 'h': mult = 3600 * 1000; break;
        case 'd': mult = 24 * 3600 * 1000; break;
        default: return std::nullopt;
      }
      text.remove_prefix(1);
    } else if (!text.empty() || any) {
      // A bare number is only allowed alone ("90"), not after "1h".
      if (any) return std::nullopt;
    }
    std::uint64_t part = 0;
    if (!mul_ok(n, mult, &part) || total > kMax - part) return std::nullopt;
    total += part;
    any = true;
  }
  return total;
}

std::string format_size(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"T", "G", "M", "K"};
  static constexpr int kShift[] = {40, 30, 20, 10};
  for (int i = 0; i < 4; ++i) {
    std::uint64_t unit = 1ULL << kShift[i];
    if (bytes >= unit && bytes % unit == 0) return fmt::format("{}{}", bytes / unit, kUnits[i]);
  }
  return fmt::format("{}", bytes);
}

std::string format_duration_ms(std::uint64_t ms) {
  if (ms % 1000 != 0) return fmt::format("{}ms", ms);
  std::uint64_t s = ms / 1000;
  if (s % 3600 == 0 && s != 0) return fmt::format("{}h", s / 3600);
  if (s % 60 == 0 && s != 0) return fmt::format("{}m", s / 60);
  return fmt::format("{}s", s);
}

}  // namespace aj
