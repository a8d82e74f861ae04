#include "policy/variables.h"

#include <doctest/doctest.h>

namespace aj {

namespace {
const Variables kVars{"/home/ann", "/src/proj", "/tmp/aj", "/home/ann/.local/state/agentjail",
                      "3f2a"};
}  // namespace

TEST_CASE("variables expand anywhere and tilde expands at the start") {
  struct Row {
    const char* raw;
    const char* expanded;
  };
  const Row rows[] = {
      {"/usr/lib", "/usr/lib"},
      {"~", "/home/ann"},
      {"~/.ssh", "/home/ann/.ssh"},
      {"${HOME}/.aws", "/home/ann/.aws"},
      {"${WORKSPACE}", "/src/proj"},
      {"${WORKSPACE}/node_modules/.bin", "/src/proj/node_modules/.bin"},
      {"${TMPDIR}/x", "/tmp/aj/x"},
      {"${STATE}/sessions/${SESSION}.jsonl",
       "/home/ann/.local/state/agentjail/sessions/3f2a.jsonl"},
      {"/a/~/b", "/a/~/b"},      // only a leading tilde is special
      {"/price$5", "/price$5"},  // a lone '$' is literal
      {"/a/$HOME", "/a/$HOME"},  // only ${...} is a variable
      {"", ""},
  };
  for (const auto& r : rows) {
    CAPTURE(r.raw);
    auto out = expand_variables(r.raw, kVars);
    REQUIRE(out.has_value());
    CHECK(*out == r.expanded);
  }
}

TEST_CASE("unknown, unterminated and empty variables are errors") {
  struct Row {
    const char* raw;
    const char* message;
  };
  const Row rows[] = {
      {"${HOEM}/x",
       "unknown variable '${HOEM}'; known variables are ${HOME}, ${WORKSPACE}, ${TMPDIR}, "
       "${STATE}, ${SESSION}"},
      {"${}",
       "unknown variable '${}'; known variables are ${HOME}, ${WORKSPACE}, ${TMPDIR}, "
       "${STATE}, ${SESSION}"},
      {"/a/${HOME", "unterminated '${' in '/a/${HOME'"},
      {"~bob/x", "'~bob/x': only '~' and '~/...' are supported, not '~user'"},
  };
  for (const auto& r : rows) {
    CAPTURE(r.raw);
    auto out = expand_variables(r.raw, kVars);
    REQUIRE_FALSE(out.has_value());
    CHECK(out.error().render() == r.message);
    if (r.raw[0] != '~') CHECK_FALSE(check_variables(r.raw).has_value());
  }
  Variables no_home = kVars;
  no_home.home.clear();
  auto out = expand_variables("~/.ssh", no_home);
  REQUIRE_FALSE(out.has_value());
  CHECK(out.error().render() == "variable '${HOME}' has no value here");
  CHECK(check_variables("${STATE}/sessions/${SESSION}.jsonl").has_value());
}

TEST_CASE("normalize_path cleans paths lexically") {
  struct Row {
    const char* in;
    const char* out;
  };
  const Row rows[] = {
      {"/", "/"},
      {"//", "/"},
      {"/usr/", "/usr"},
      {"/usr//lib", "/usr/lib"},
      {"/usr/./lib", "/usr/lib"},
      {"/usr/lib/..", "/usr"},
      {"/a/b/../../c", "/c"},
      {"/..", "/"},
      {"/../a", "/a"},
      {"a/../..", ".."},
      {"../a/./b/", "../a/b"},
      {"", "."},
      {".", "."},
      {"./", "."},
      {"a/..", "."},
      {"/a/.../b", "/a/.../b"},
      {"/a/..b", "/a/..b"},
  };
  for (const auto& r : rows) {
    CAPTURE(r.in);
    CHECK(normalize_path(r.in) == r.out);
  }
}

TEST_CASE("path_is_within compares whole components") {
  struct Row {
    const char* path;
    const char* dir;
    bool within;
  };
  const Row rows[] = {
      {"/a/b", "/a/b", true},  {"/a/b/c", "/a/b", true},     {"/a/bc", "/a/b", false},
      {"/a", "/a/b", false},   {"/anything", "/", true},     {"/", "/", true},
      {"/a/b/", "/a/b", true}, {"/a/b/../c", "/a/b", false}, {"/a//b/c", "/a/b/", true},
      {"a/b", "/a", false},    {"a/b", "a", true},           {"../x", ".", false},
      {"..x", ".", true},      {"/a/b", "", false},
  };
  for (const auto& r : rows) {
    CAPTURE(r.path);
    CAPTURE(r.dir);
    CHECK(path_is_within(r.path, r.dir) == r.within);
  }
}

TEST_CASE("is_clean_absolute holds exactly for absolute paths normalize_path keeps") {
  const char* paths[] = {"/",     "//",       "/usr",   "/usr/",    "/usr//lib", "/usr/./lib",
                         "/a/..", "/a/.../b", "/a/..b", "/.hidden", "usr",       "",
                         ".",     "/a/.",     "/a/b/c", "/..",      "/a/b/../c", "./a"};
  for (const char* p : paths) {
    CAPTURE(p);
    const bool kept = p[0] == '/' && normalize_path(p) == p;
    CHECK(is_clean_absolute(p) == kept);
  }
}

}  // namespace aj
