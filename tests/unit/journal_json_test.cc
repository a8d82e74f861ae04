#include <doctest/doctest.h>
#include <fmt/format.h>

#include "base/json.h"
#include "journal/json_read.h"

namespace aj {

TEST_CASE("the JSON reader decodes escapes and UTF-8 in strings") {
  struct Row {
    const char* json;
    std::string text;
  };
  const Row rows[] = {
      {R"("plain")", "plain"},
      {R"("q\"b\\s\/")", "q\"b\\s/"},
      {R"("\b\f\n\r\t")", "\b\f\n\r\t"},
      {R"("\u0041\u00e9\u20ac")", "A\xc3\xa9\xe2\x82\xac"},
      {R"("\u0000")", std::string(1, '\0')},
      {R"("\ud83d\ude00")", "\xf0\x9f\x98\x80"},  // a surrogate pair
      {R"("\ud83d x")", "\xef\xbf\xbd x"},        // a lone high surrogate
      {R"("\ude00")", "\xef\xbf\xbd"},            // a lone low surrogate
      {R"("\ud83d\u0041")",
       "\xef\xbf\xbd"
       "A"},                                                                 // high then not low
      {"\"caf\xc3\xa9 \xf0\x9f\x98\x80\"", "caf\xc3\xa9 \xf0\x9f\x98\x80"},  // raw UTF-8
      {R"("\u001b[31m")", "\x1b[31m"},
  };
  for (const Row& r : rows) {
    CAPTURE(r.json);
    auto v = parse_json(r.json);
    REQUIRE(v.has_value());
    CHECK(v->is_string());
    CHECK(v->text == r.text);
  }
}

TEST_CASE("the JSON reader takes objects, arrays, numbers, booleans and null") {
  auto v = parse_json(
      R"( {"a": 1, "b": -2.5e3, "c": [ "x", true, false, null ], "d": {"e": {}}, "f": []} )");
  REQUIRE(v.has_value());
  REQUIRE(v->is_object());
  CHECK(v->members.size() == 5);
  CHECK(v->members[0].first == "a");
  CHECK(v->get("a")->as_int() == 1);
  CHECK(v->get("b")->text == "-2.5e3");
  CHECK_FALSE(v->get("b")->as_int());
  REQUIRE(v->get("c")->items.size() == 4);
  CHECK(v->get("c")->items[1].is_bool());
  CHECK(v->get("c")->items[1].boolean);
  CHECK(v->get("c")->items[3].kind == JsonValue::Kind::kNull);
  CHECK(v->get("d")->get("e")->is_object());
  CHECK(v->get("f")->items.empty());
  CHECK(v->get("missing") == nullptr);
  CHECK(v->string_or("a", "fallback") == "fallback");
}

TEST_CASE("integers convert only when they fit") {
  struct Row {
    const char* json;
    std::optional<std::int64_t> i;
    std::optional<std::uint64_t> u;
  };
  const Row rows[] = {
      {"0", 0, 0},
      {"-1", -1, std::nullopt},
      {"9223372036854775807", INT64_MAX, 9223372036854775807ULL},
      {"18446744073709551615", std::nullopt, 18446744073709551615ULL},
      {"18446744073709551616", std::nullopt, std::nullopt},
      {"1.0", std::nullopt, std::nullopt},
      {"1e3", std::nullopt, std::nullopt},
  };
  for (const Row& r : rows) {
    CAPTURE(r.json);
    auto v = parse_json(r.json);
    REQUIRE(v.has_value());
    CHECK(v->as_int() == r.i);
    CHECK(v->as_uint() == r.u);
  }
}

TEST_CASE("the JSON reader rejects what RFC 8259 does not allow") {
  const char* bad[] = {
      "",
      "{",
      "{\"a\":1,}",
      "[1,]",
      "{'a':1}",
      "{\"a\" 1}",
      "{a:1}",
      "01",
      "-",
      "1.",
      ".5",
      "1e",
      "+1",
      "tru",
      "nul",
      "\"unterminated",
      "\"bad \\x escape\"",
      "\"\\u12G4\"",
      "\"raw\ttab\"",
      "\"raw\nnewline\"",
      "\"bad \xff byte\"",
      "\"overlong \xc0\xaf\"",
      "{} extra",
      "[] []",
      "// comment\n{}",
  };
  for (const char* text : bad) {
    CAPTURE(text);
    CHECK_FALSE(parse_json(text).has_value());
  }
}

TEST_CASE("nesting is bounded, so a hostile line cannot exhaust the stack") {
  std::string deep(10000, '[');
  deep += std::string(10000, ']');
  CHECK_FALSE(parse_json(deep).has_value());
  std::string ok(50, '[');
  ok += std::string(50, ']');
  CHECK(parse_json(ok).has_value());
}

TEST_CASE("json_string escapes C1 controls, which a terminal would act on") {
  for (unsigned c = 0x80; c <= 0x9f; ++c) {
    CAPTURE(c);
    std::string s = "a\xc2";
    s += static_cast<char>(c);
    const std::string j = json_string(s);
    CHECK(j == fmt::format("\"a\\u{:04x}\"", c));
    auto v = parse_json(j);
    REQUIRE(v.has_value());
    CHECK(v->text == s);
  }
  CHECK(json_string("\xc2\xa0") == "\"\xc2\xa0\"");  // U+00A0 is printable: kept
}

TEST_CASE("every string json_string writes reads back") {
  for (int b = 0; b < 128; ++b) {
    std::string s = "x";
    s += static_cast<char>(b);
    s += "y\xe2\x82\xac";
    CAPTURE(b);
    auto v = parse_json(json_string(s));
    REQUIRE(v.has_value());
    CHECK(v->text == s);
  }
}

}  // namespace aj
