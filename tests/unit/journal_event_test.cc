#include <doctest/doctest.h>

#include <chrono>

#include "journal/event.h"
#include "journal/json_read.h"

namespace aj {
namespace {

JournalStamp stamp(std::uint64_t seq = 7) { return {"2026-11-29T18:40:00.123456Z", "3f2a", seq}; }

// The line without its newline, parsed back.
JsonValue parsed(const std::string& line) {
  REQUIRE(!line.empty());
  CHECK(line.back() == '\n');
  CHECK(line.find('\n') == line.size() - 1);  // exactly one line
  auto v = parse_json(std::string_view(line).substr(0, line.size() - 1));
  REQUIRE_MESSAGE(v.has_value(), line);
  return *v;
}

}  // namespace

TEST_CASE("common fields come first, in the documented order") {
  JournalEvent e("net.connect");
  e.deny("proxy", "default.toml:12").with_pid(42).set("host", "evil.example").set("port", 443);
  CHECK(serialize_journal_event(e, stamp()) ==
        R"({"v":1,"ts":"2026-11-29T18:40:00.123456Z","session":"3f2a","seq":7,)"
        R"("event":"net.connect","decision":"deny","layer":"proxy","rule":"default.toml:12",)"
        R"("pid":42,"host":"evil.example","port":443})"
        "\n");
}

TEST_CASE("decision, layer, rule and pid are omitted when not set") {
  JournalEvent e("session.start");
  CHECK(serialize_journal_event(e, stamp(1)) ==
        R"({"v":1,"ts":"2026-11-29T18:40:00.123456Z","session":"3f2a","seq":1,)"
        R"("event":"session.start"})"
        "\n");
}

TEST_CASE("extra fields keep their order and every value type serialises") {
  JournalEvent e("x");
  e.set("s", std::string("text"))
      .set("neg", -5)
      .set("big", std::uint64_t{18446744073709551615ULL})
      .set("yes", true)
      .set("no", false)
      .set("list", std::vector<std::string>{"a", "b c"})
      .set("empty", std::vector<std::string>{})
      .set("counts", JournalCounts{{"exec", 3}, {"syscall.deny", 1}});
  std::string line = serialize_journal_event(e, stamp());
  CHECK(line.find(R"("s":"text","neg":-5,"big":18446744073709551615,"yes":true,"no":false,)"
                  R"("list":["a","b c"],"empty":[],"counts":{"exec":3,"syscall.deny":1}})") !=
        std::string::npos);
  JsonValue v = parsed(line);
  CHECK(v.get("neg")->as_int() == -5);
  CHECK(v.get("big")->as_uint() == 18446744073709551615ULL);
  CHECK(v.get("counts")->get("syscall.deny")->as_int() == 1);
}

TEST_CASE("setting a field twice replaces its value in place") {
  JournalEvent e("x");
  e.set("a", 1).set("b", 2).set("a", "one");
  REQUIRE(e.fields.size() == 2);
  CHECK(e.fields[0].key == "a");
  CHECK(std::get<std::string>(e.fields[0].value) == "one");
  CHECK(e.find("b") != nullptr);
  CHECK(e.find("c") == nullptr);
}

TEST_CASE("an extra field cannot shadow a common field") {
  for (const char* key :
       {"v", "ts", "session", "seq", "event", "decision", "layer", "rule", "pid"}) {
    CAPTURE(key);
    CHECK(is_reserved_journal_key(key));
    JournalEvent e("x");
    e.set(key, "forged");
    JsonValue v = parsed(serialize_journal_event(e, stamp()));
    CHECK(v.get(std::string("x-") + key) != nullptr);
    int seen = 0;
    for (const auto& m : v.members) seen += m.first == key;
    CHECK(seen <= 1);
  }
  CHECK_FALSE(is_reserved_journal_key("path"));
}

TEST_CASE("control characters, quotes and invalid UTF-8 still give one valid JSON line") {
  struct Row {
    std::string raw;
    std::string decoded;  // what a JSON reader gets back
  };
  const Row rows[] = {
      {"plain", "plain"},
      {"quote \" and backslash \\", "quote \" and backslash \\"},
      {"new\nline\rcr\ttab", "new\nline\rcr\ttab"},
      {std::string("nul\0byte", 8), std::string("nul\0byte", 8)},
      {"esc \x1b[31mred\x1b[0m bell \x07 del \x7f", "esc \x1b[31mred\x1b[0m bell \x07 del \x7f"},
      {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"},
      {"bad \xff byte", "bad \xef\xbf\xbd byte"},
      {"cut \xe2\x82", "cut \xef\xbf\xbd\xef\xbf\xbd"},
      {"overlong \xc0\xaf", "overlong \xef\xbf\xbd\xef\xbf\xbd"},
      {"surrogate \xed\xa0\x80", "surrogate \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"},
      {"line sep \xe2\x80\xa8 ok", "line sep \xe2\x80\xa8 ok"},
  };
  for (const Row& r : rows) {
    CAPTURE(r.raw);
    JournalEvent e("exec");
    e.set("path", r.raw).set("argv", std::vector<std::string>{r.raw, "x"});
    JsonValue v = parsed(serialize_journal_event(e, stamp()));
    CHECK(v.get("path")->text == r.decoded);
    REQUIRE(v.get("argv")->items.size() == 2);
    CHECK(v.get("argv")->items[0].text == r.decoded);
  }
}

TEST_CASE("every single byte value serialises to a parsable line") {
  for (int b = 0; b < 256; ++b) {
    CAPTURE(b);
    std::string s = "a" + std::string(1, static_cast<char>(b)) + "z";
    JournalEvent e("exec");
    e.set("path", s);
    JsonValue v = parsed(serialize_journal_event(e, stamp()));
    if (b < 0x80) CHECK(v.get("path")->text == s);
  }
}

TEST_CASE("timestamps are RFC 3339 UTC with microseconds") {
  using namespace std::chrono;
  struct Row {
    std::int64_t us;
    const char* text;
  };
  const Row rows[] = {
      {0, "1970-01-01T00:00:00.000000Z"},
      {1, "1970-01-01T00:00:00.000001Z"},
      {1796064000123456, "2026-11-30T18:40:00.123456Z"},
      {951782400999999, "2000-02-29T00:00:00.999999Z"},
      {-1, "1969-12-31T23:59:59.999999Z"},
      // The calendar part is cached per second: the same second again, a
      // later one, then back to an earlier one.
      {-999999, "1969-12-31T23:59:59.000001Z"},
      {1796064000999999, "2026-11-30T18:40:00.999999Z"},
      {1796064001000000, "2026-11-30T18:40:01.000000Z"},
      {2, "1970-01-01T00:00:00.000002Z"},
  };
  for (const Row& r : rows) {
    CAPTURE(r.us);
    CHECK(format_journal_time(system_clock::time_point(microseconds(r.us))) == r.text);
  }
}

}  // namespace aj
