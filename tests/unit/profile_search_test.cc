#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "config.h"
#include "profile/search.h"

namespace aj {
namespace {

namespace fs = std::filesystem;

// A scratch directory tree, removed when the test ends.
class TempTree {
 public:
  TempTree() {
    std::string tmpl = (fs::temp_directory_path() / "aj-search-XXXXXX").string();
    root_ = ::mkdtemp(tmpl.data());
    REQUIRE(!root_.empty());
  }
  ~TempTree() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }
  std::string dir(const std::string& rel) const {
    fs::create_directories(root_ + "/" + rel);
    return root_ + "/" + rel;
  }
  std::string file(const std::string& rel) const {
    fs::create_directories(fs::path(root_ + "/" + rel).parent_path());
    std::ofstream(root_ + "/" + rel) << "# profile\n";
    return root_ + "/" + rel;
  }
  const std::string& root() const { return root_; }

 private:
  std::string root_;
};

std::vector<std::string> paths(const std::vector<SearchDir>& dirs) {
  std::vector<std::string> out;
  for (const auto& d : dirs) out.push_back(d.path);
  return out;
}

const std::string kInstalled = std::string(AJ_DATADIR) + "/profiles";

}  // namespace

TEST_CASE("the search path is --profile-dir, user, system, installed, then the source tree") {
  struct Row {
    const char* name;
    SearchInputs in;
    std::vector<std::string> expected;
  };
  const Row rows[] = {
      {"everything",
       {"/pd", "/xdg", "/home/u", true},
       {"/pd", "/xdg/agentjail/profiles", "/etc/agentjail/profiles", kInstalled,
        AJ_SOURCE_PROFILES}},
      {"installed binary",
       {std::nullopt, "/xdg", "/home/u", false},
       {"/xdg/agentjail/profiles", "/etc/agentjail/profiles", kInstalled}},
      {"no XDG_CONFIG_HOME: ~/.config",
       {std::nullopt, std::nullopt, "/home/u", false},
       {"/home/u/.config/agentjail/profiles", "/etc/agentjail/profiles", kInstalled}},
      {"relative XDG_CONFIG_HOME is ignored",
       {std::nullopt, "rel", "/home/u", false},
       {"/home/u/.config/agentjail/profiles", "/etc/agentjail/profiles", kInstalled}},
      {"empty XDG_CONFIG_HOME is ignored",
       {std::nullopt, "", "/home/u", false},
       {"/home/u/.config/agentjail/profiles", "/etc/agentjail/profiles", kInstalled}},
      {"no home at all",
       {"", std::nullopt, std::nullopt, false},
       {"/etc/agentjail/profiles", kInstalled}},
  };
  for (const auto& r : rows) {
    CAPTURE(r.name);
    CHECK(paths(make_search_path(r.in)) == r.expected);
  }
  std::vector<SearchDir> all = make_search_path({"/pd", "/xdg", "/home/u", true});
  CHECK(all[0].label == "--profile-dir");
  CHECK(all[1].label == "user");
  CHECK(all[2].label == "system");
  CHECK(all[3].label == "installed");
  CHECK(all[4].label == "source tree");
}

TEST_CASE("a bare name is looked up in order and the first match wins") {
  TempTree t;
  std::vector<SearchDir> search = {
      {t.dir("one"), "one"}, {t.dir("two"), "two"}, {t.dir("three"), "three"}};
  t.file("two/default.toml");
  t.file("three/default.toml");
  t.file("three/strict.toml");
  t.dir("one/dir.toml");  // a directory is not a profile
  t.file("three/dir.toml");
  struct Row {
    const char* arg;
    std::string found;  // empty: an error
  };
  const Row rows[] = {
      {"default", t.root() + "/two/default.toml"},
      {"strict", t.root() + "/three/strict.toml"},
      {"dir", t.root() + "/three/dir.toml"},
      {"missing", ""},
      {"bad name", ""},
      {"", ""},
  };
  for (const auto& r : rows) {
    CAPTURE(r.arg);
    Result<std::string> found = resolve_profile(r.arg, search, "");
    REQUIRE(found.has_value() == !r.found.empty());
    if (found) CHECK(*found == r.found);
  }
  Result<std::string> missing = resolve_profile("missing", search, "");
  CHECK(missing.error().render() == "profile 'missing' not found in " + t.root() + "/one, " +
                                        t.root() + "/two, " + t.root() + "/three");
  Result<std::string> bad = resolve_profile("a b", search, "");
  CHECK(
      bad.error().render() ==
      "invalid profile name 'a b': a name is made of letters, digits, '.', '_' and '-' (or give a "
      "path)");
  // The extending profile itself is skipped, so the next one is found.
  Result<std::string> next = resolve_profile("default", search, "", t.root() + "/two/default.toml");
  REQUIRE(next.has_value());
  CHECK(*next == t.root() + "/three/default.toml");
}

TEST_CASE("an argument with a slash or a .toml suffix is a path") {
  TempTree t;
  std::vector<SearchDir> search = {{t.dir("search"), "search"}};
  t.file("search/mine.toml");
  t.file("elsewhere/mine.toml");
  t.file("elsewhere/sub/other.toml");
  struct Row {
    const char* arg;
    std::string relative_to;
    std::string found;  // empty: an error
  };
  const Row rows[] = {
      {"mine.toml", t.root() + "/elsewhere", t.root() + "/elsewhere/mine.toml"},
      {"sub/other.toml", t.root() + "/elsewhere", t.root() + "/elsewhere/sub/other.toml"},
      {"./mine.toml", t.root() + "/elsewhere", t.root() + "/elsewhere/./mine.toml"},
      {"../elsewhere/mine.toml", t.root() + "/search", t.root() + "/search/../elsewhere/mine.toml"},
      {"mine.toml", t.root() + "/nowhere", ""},
      {"sub/other", t.root() + "/elsewhere", ""},  // a path is never given ".toml"
      {"", t.root(), ""},
  };
  for (const auto& r : rows) {
    CAPTURE(r.arg);
    Result<std::string> found = resolve_profile(r.arg, search, r.relative_to);
    REQUIRE(found.has_value() == !r.found.empty());
    if (found) CHECK(*found == r.found);
  }
  std::string abs = t.root() + "/elsewhere/mine.toml";
  CHECK(*resolve_profile(abs, search, "/unrelated") == abs);
  CHECK(resolve_profile(t.root() + "/nope.toml", search, "").error().render() ==
        "profile file '" + t.root() + "/nope.toml' not found");
}

TEST_CASE("a bare name is never looked up in the current directory") {
  TempTree t;
  t.file("cwd/default.toml");
  std::vector<SearchDir> search = {{t.dir("empty"), "empty"}};
  std::string old = fs::current_path().string();
  fs::current_path(t.root() + "/cwd");
  Result<std::string> found = resolve_profile("default", search, "");
  Result<std::string> explicit_path = resolve_profile("./default.toml", search, "");
  fs::current_path(old);
  CHECK_FALSE(found.has_value());
  CHECK(explicit_path.has_value());  // an explicit path given by the user is fine
}

TEST_CASE("listing profiles marks later ones of the same name as shadowed") {
  TempTree t;
  std::vector<SearchDir> search = {
      {t.dir("user"), "user"}, {t.root() + "/absent", "absent"}, {t.dir("system"), "system"}};
  t.file("user/default.toml");
  t.file("system/strict.toml");
  t.file("system/default.toml");
  t.file("system/base.toml");
  t.file("system/README.md");
  t.file("system/bad name.toml");
  t.dir("system/notafile.toml");
  std::vector<FoundProfile> found = list_profiles(search);
  const std::vector<FoundProfile> expected = {
      {"base", t.root() + "/system/base.toml", "system", false},
      {"default", t.root() + "/user/default.toml", "user", false},
      {"default", t.root() + "/system/default.toml", "system", true},
      {"strict", t.root() + "/system/strict.toml", "system", false},
  };
  CHECK(found == expected);
}

TEST_CASE("a directory with build.ninja is a build tree") {
  TempTree t;
  CHECK_FALSE(is_build_tree(t.dir("b")));
  t.file("b/build.ninja");
  CHECK(is_build_tree(t.root() + "/b"));
}

}  // namespace aj
