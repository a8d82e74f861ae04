#include "base/utf8.h"

#include <doctest/doctest.h>

#include <string>

namespace aj {

TEST_CASE("UTF-8 sequences are measured, and invalid ones rejected") {
  struct Row {
    std::string bytes;
    std::size_t length;
  };
  const Row rows[] = {
      {"a", 1},
      {"\xC3\xA9", 2},          // é
      {"\xE2\x82\xAC", 3},      // €
      {"\xF0\x9F\x98\x80", 4},  // 😀
      {"\xC0\xAF", 0},          // overlong '/'
      {"\xE0\x80\xAF", 0},      // overlong
      {"\xED\xA0\x80", 0},      // a surrogate
      {"\xF4\x90\x80\x80", 0},  // above U+10FFFF
      {"\xC3", 0},              // cut short
      {"\x80", 0},              // a lone continuation byte
      {"\xE2\x28\xA1", 0},      // a bad continuation byte
  };
  for (const auto& r : rows) {
    CAPTURE(r.bytes);
    CHECK(utf8_sequence_length(r.bytes, 0) == r.length);
  }
}

}  // namespace aj
