#include "base/units.h"

#include <doctest/doctest.h>

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

}  // namespace aj
