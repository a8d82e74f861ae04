// The before/after comparison of watched paths: pure comparison of states,
// and states taken from a real scratch directory.
#include "supervise/watched_paths.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "scratch_dir.h"

namespace aj {
namespace {

EntryState entry(const std::string& path, std::int64_t ctime) {
  EntryState e;
  e.path = path;
  e.ino = 7;
  e.ctime_sec = ctime;
  return e;
}

std::vector<std::string> described(const std::vector<PathChange>& changes) {
  std::vector<std::string> out;
  for (const auto& c : changes) out.push_back(std::string(c.what) + " " + c.path);
  return out;
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

TEST_CASE("comparing states names what was created, removed and changed, in path order") {
  PathsState before, after;
  before.entries = {entry("/a", 1), entry("/a/b", 1), entry("/a/c", 1)};
  after.entries = {entry("/a", 2), entry("/a/c", 1), entry("/a/d", 3)};
  CHECK(described(compare_paths_state(before, after)) ==
        std::vector<std::string>{"changed /a", "removed /a/b", "created /a/d"});
  CHECK(compare_paths_state(before, before).empty());
  CHECK(compare_paths_state({}, {}).empty());
  EntryState moved = entry("/a/c", 1);
  moved.ino = 8;  // replaced by another file with the same times
  after.entries = {entry("/a", 1), entry("/a/b", 1), moved};
  CHECK(described(compare_paths_state(before, after)) == std::vector<std::string>{"changed /a/c"});
}

TEST_CASE("a state taken from disk sees writes, chmod, new files and replaced directories") {
  ScratchDir dir;
  const std::string hooks = dir.path + "/hooks", missing = dir.path + "/commondir";
  REQUIRE(::mkdir(hooks.c_str(), 0755) == 0);
  write_file(hooks + "/pre-commit.sample", "#!/bin/sh\n");
  const std::vector<std::string> roots = {hooks, missing};
  const PathsState start = take_paths_state(roots);
  CHECK(start.entries.size() == 2);  // the directory and its file; commondir is absent
  CHECK(compare_paths_state(start, take_paths_state(roots)).empty());

  write_file(hooks + "/pre-commit", "#!/bin/sh\nevil\n");
  write_file(missing, "/tmp/elsewhere\n");
  CHECK(described(compare_paths_state(start, take_paths_state(roots))) ==
        std::vector<std::string>{"created " + missing, "changed " + hooks,
                                 "created " + hooks + "/pre-commit"});
  REQUIRE(::unlink((hooks + "/pre-commit").c_str()) == 0);
  REQUIRE(::unlink(missing.c_str()) == 0);

  // A mode change alone, with the old mtime put back, still moves ctime.
  const PathsState before_chmod = take_paths_state(roots);
  REQUIRE(::chmod((hooks + "/pre-commit.sample").c_str(), 0700) == 0);
  CHECK(described(compare_paths_state(before_chmod, take_paths_state(roots))) ==
        std::vector<std::string>{"changed " + hooks + "/pre-commit.sample"});

  // A symbolic link in place of the directory is recorded, not followed.
  const PathsState before_swap = take_paths_state(roots);
  REQUIRE(std::system(("rm -rf '" + hooks + "' && ln -s /etc '" + hooks + "'").c_str()) == 0);
  const PathsState swapped = take_paths_state(roots);
  CHECK(swapped.entries.size() == 1);
  CHECK(described(compare_paths_state(before_swap, swapped)) ==
        std::vector<std::string>{"changed " + hooks, "removed " + hooks + "/pre-commit.sample"});
}

TEST_CASE("the walk stops at its entry limit and says so") {
  ScratchDir dir;
  for (int i = 0; i < 5; ++i) write_file(dir.path + "/f" + std::to_string(i), "x");
  const PathsState s = take_paths_state({dir.path}, 3);
  CHECK(s.entries.size() == 3);
  CHECK(s.truncated);
  CHECK_FALSE(take_paths_state({dir.path}).truncated);
  // Nor does it follow a chain of directories deeper than any path.
  std::string deep = dir.path;
  for (int i = 0; i < 70; ++i) {
    deep += "/d";
    REQUIRE(::mkdir(deep.c_str(), 0755) == 0);
  }
  const PathsState chain = take_paths_state({dir.path});
  CHECK(chain.truncated);
  CHECK(chain.entries.size() == 5 + 1 + 64);  // the files, the root, 64 levels of d
}

}  // namespace aj
