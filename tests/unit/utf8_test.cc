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

#include "base/log.h"

namespace aj {

TEST_CASE("what reaches the terminal cannot act on it") {
  struct Row {
    const char* in;
    const char* out;
  };
  const Row rows[] = {
      {"plain path /a/b", "plain path /a/b"},
      {"fake\nagentjail: line", "fake\\x0aagentjail: line"},
      {"\x1b]52;c;ZXZpbA==\x07 clip", "\\x1b]52;c;ZXZpbA==\\x07 clip"},
      {"erase\x1b[2K\r", "erase\\x1b[2K\\x0d"},
      {"c1 \xc2\x9b"
       "31m",
       "c1 \\u009b31m"},
      {"bidi \xe2\x80\xae"
       "gnp.exe",
       "bidi \\u202egnp.exe"},
      {"isolate \xe2\x81\xa6x", "isolate \\u2066x"},
      {"bad \xff byte", "bad \\xff byte"},
      {"caf\xc3\xa9 \xe2\x9c\x93", "caf\xc3\xa9 \xe2\x9c\x93"},  // letters and symbols stay
      {"tab\there", "tab\\x09here"},
  };
  for (const Row& r : rows) {
    CAPTURE(r.in);
    CHECK(terminal_safe(r.in) == r.out);
  }
  CHECK(log::terminal_safe_lines("a\x1b\nb\n") == "a\\x1b\nb\n");
}

}  // namespace aj
