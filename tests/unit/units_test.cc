#include "base/units.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "base/digits.h"

namespace aj {

TEST_CASE("sizes accept binary suffixes") {
  struct Row {
    const char* text;
    std::optional<std::uint64_t> bytes;
  };
  const Row rows[] = {
      {"4096", 4096},
      {"512M", 512ULL << 20},
      {"8G", 8ULL << 30},
      {"1k", 1024},
      {"2GiB", 2ULL << 30},
      {"3KB", 3072},
      {"", std::nullopt},
      {"G", std::nullopt},
      {"12X", std::nullopt},
      {"1.5G", std::nullopt},
      {"-1", std::nullopt},
      {"99999999999999999999", std::nullopt},
      {"20000000000T", std::nullopt},
  };
  for (const auto& r : rows) {
    CAPTURE(r.text);
    CHECK(parse_size(r.text) == r.bytes);
  }
}

TEST_CASE("durations accept units and combinations") {
  struct Row {
    const char* text;
    std::optional<std::uint64_t> ms;
  };
  const Row rows[] = {
      {"90s", 90000},         {"2h", 7200000},     {"1h30m", 5400000},     {"500ms", 500},
      {"90", 90000},          {"1d", 86400000},    {"", std::nullopt},     {"5x", std::nullopt},
      {"1h30", std::nullopt}, {"s", std::nullopt}, {"1.5h", std::nullopt},
  };
  for (const auto& r : rows) {
    CAPTURE(r.text);
    CHECK(parse_duration_ms(r.text) == r.ms);
  }
}

TEST_CASE("sizes and durations format back compactly") {
  CHECK(format_size(8ULL << 30) == "8G");
  CHECK(format_size(1000) == "1000");
  CHECK(format_duration_ms(7200000) == "2h");
  CHECK(format_duration_ms(90000) == "90s");
  CHECK(format_duration_ms(250) == "250ms");
}

TEST_CASE("write_unsigned writes decimal and octal, NUL-terminated, and returns the end") {
  char buf[32];
  struct Row {
    std::uint64_t v;
    unsigned base;
    const char* want;
  };
  for (const Row& r :
       {Row{0, 10, "0"}, Row{7, 10, "7"}, Row{10, 10, "10"}, Row{4294967295ULL, 10, "4294967295"},
        Row{18446744073709551615ULL, 10, "18446744073709551615"}, Row{0, 8, "0"},
        Row{01777, 8, "1777"}, Row{0755, 8, "755"},
        Row{18446744073709551615ULL, 8, "1777777777777777777777"}}) {
    CAPTURE(r.want);
    char* end = write_unsigned(buf, r.v, r.base);
    CHECK(std::string(buf) == r.want);
    CHECK(end == buf + std::string(r.want).size());
    CHECK(*end == '\0');
  }
}

}  // namespace aj
