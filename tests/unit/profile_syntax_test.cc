#include <doctest/doctest.h>

#include <array>
#include <cerrno>

#include "policy/layers.h"
#include "profile/syntax.h"

namespace aj {

TEST_CASE("profile paths must be absolute once expanded") {
  struct Row {
    const char* path;
    bool ok;
  };
  const Row rows[] = {
      {"/usr", true},
      {"/", true},
      {"~", true},
      {"~/.ssh", true},
      {"${HOME}", true},
      {"${HOME}/.aws", true},
      {"${WORKSPACE}/x", true},
      {"${TMPDIR}", true},
      {"${STATE}/s/${SESSION}.jsonl", true},
      {"", false},
      {"usr", false},
      {"./x", false},
      {"../x", false},
      {"~bob", false},
      {"${SESSION}", false},
      {"${HOME", false},
      {"/a/${NOPE}", false},
      {"$HOME/x", false},
  };
  for (const auto& r : rows) {
    CAPTURE(r.path);
    CHECK(check_profile_path(r.path).has_value() == r.ok);
  }
}

TEST_CASE("host patterns accept hosts, suffix wildcards and ports, lowercased") {
  struct Row {
    const char* pattern;
    const char* normalized;  // nullptr: rejected
  };
  const Row rows[] = {
      {"api.anthropic.com", "api.anthropic.com"},
      {"API.Example.ORG", "api.example.org"},
      {"*.githubusercontent.com", "*.githubusercontent.com"},
      {"packages.example.org:443", "packages.example.org:443"},
      {"*.example.org:8443", "*.example.org:8443"},
      {"localhost", "localhost"},
      {"10.0.0.1:80", "10.0.0.1:80"},
      {"_srv.example.org", "_srv.example.org"},
      {"*", nullptr},
      {"*:443", nullptr},
      {"*.", nullptr},
      {"a..b", nullptr},
      {"-a.org", nullptr},
      {"a-.org", nullptr},
      {"ex ample.org", nullptr},
      {"host:", nullptr},
      {"host:0", nullptr},
      {"host:65536", nullptr},
      {"host:44a", nullptr},
      {"a.*.org", nullptr},
      {"https://example.org", nullptr},
      {"[::1]:443", nullptr},
      {"", nullptr},
  };
  for (const auto& r : rows) {
    CAPTURE(r.pattern);
    auto out = check_host_pattern(r.pattern);
    REQUIRE(out.has_value() == (r.normalized != nullptr));
    if (r.normalized) CHECK(*out == r.normalized);
  }
}

TEST_CASE("environment names, globs and profile names have strict syntax") {
  CHECK(is_env_name("PATH"));
  CHECK(is_env_name("_x1"));
  CHECK_FALSE(is_env_name("1X"));
  CHECK_FALSE(is_env_name("A-B"));
  CHECK_FALSE(is_env_name("A*"));
  CHECK_FALSE(is_env_name(""));
  CHECK(is_env_glob("LC_*"));
  CHECK(is_env_glob("X?Y"));
  CHECK(is_env_glob("*"));
  CHECK_FALSE(is_env_glob("A B"));
  CHECK_FALSE(is_env_glob(""));
  CHECK(is_profile_name("default"));
  CHECK(is_profile_name("my-profile_2.v1"));
  CHECK_FALSE(is_profile_name("a/b"));
  CHECK_FALSE(is_profile_name("a b"));
  CHECK_FALSE(is_profile_name(""));
}

TEST_CASE("errno names map to their numbers") {
  CHECK(errno_from_name("EPERM") == EPERM);
  CHECK(errno_from_name("EACCES") == EACCES);
  CHECK(errno_from_name("ENOSYS") == ENOSYS);
  CHECK_FALSE(errno_from_name("eperm").has_value());
  CHECK_FALSE(errno_from_name("EWHATEVER").has_value());
  CHECK(errno_name_list().rfind("EPERM, ENOENT", 0) == 0);
}

TEST_CASE("did-you-mean suggests the closest key within two edits") {
  constexpr std::array<std::string_view, 4> kKeys = {"read_only", "read_write", "exec", "hide"};
  struct Row {
    const char* word;
    const char* suggestion;  // nullptr: none
  };
  const Row rows[] = {
      {"read_olny", "read_only"},
      {"readonly", "read_only"},
      {"read-write", "read_write"},
      {"exe", "exec"},
      {"hid", "hide"},
      {"writable", nullptr},
      {"", nullptr},
  };
  for (const auto& r : rows) {
    CAPTURE(r.word);
    auto s = did_you_mean(r.word, kKeys);
    REQUIRE(s.has_value() == (r.suggestion != nullptr));
    if (r.suggestion) CHECK(*s == r.suggestion);
  }
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("same", "same") == 0);
}

TEST_CASE("the require-able layers are listed with descriptions") {
  CHECK(known_layers().size() == 7);
  for (const auto& l : known_layers()) {
    CAPTURE(l.name);
    CHECK(is_known_layer(l.name));
    CHECK_FALSE(l.description.empty());
    CHECK(known_layer_list().find(l.name) != std::string_view::npos);
  }
  CHECK_FALSE(is_known_layer("apparmor"));
}

}  // namespace aj
