// Finding the symbolic links a session left in a git directory, in a real
// scratch directory: which are new (by ctime), and what is not walked.
#include "supervise/new_links.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "scratch_dir.h"

namespace aj {
namespace {

std::vector<std::string> paths_of(const NewLinks& found) {
  std::vector<std::string> out;
  for (const auto& l : found.links) out.push_back(l.path);
  std::sort(out.begin(), out.end());
  return out;
}

// A moment after every change so far, as the file system's clock tells it.
struct timespec after_now() {
  struct timespec t {};
  ::clock_gettime(CLOCK_REALTIME, &t);
  t.tv_sec += 1;
  return t;
}

}  // namespace

TEST_CASE("links made since a moment are found, older ones are not, none is followed") {
  ScratchDir s("aj-links");
  const std::string g = s.path + "/.git";
  REQUIRE(::mkdir(g.c_str(), 0700) == 0);
  REQUIRE(::mkdir((g + "/logs").c_str(), 0700) == 0);
  REQUIRE(::mkdir((g + "/elsewhere").c_str(), 0700) == 0);
  REQUIRE(::symlink("/tmp/old-target", (g + "/old").c_str()) == 0);
  const struct timespec epoch {};

  SUBCASE("every link is newer than the epoch, with what it says") {
    REQUIRE(::symlink("/home/u/.bashrc", (g + "/logs/HEAD").c_str()) == 0);
    const NewLinks found = find_new_links(g, epoch);
    CHECK(paths_of(found) == std::vector<std::string>{g + "/logs/HEAD", g + "/old"});
    CHECK_FALSE(found.truncated);
    for (const auto& l : found.links)
      CHECK(l.target == (l.path == g + "/old" ? "/tmp/old-target" : "/home/u/.bashrc"));
  }
  SUBCASE("nothing made since a later moment") {
    CHECK(find_new_links(g, after_now()).links.empty());
  }
  SUBCASE("a link to a directory is reported, not walked") {
    REQUIRE(::symlink(s.path.c_str(), (g + "/refs").c_str()) == 0);
    CHECK(paths_of(find_new_links(g, epoch)) == std::vector<std::string>{g + "/old", g + "/refs"});
  }
  SUBCASE("the root itself made a link") {
    const std::string link = s.path + "/.git2";
    REQUIRE(::symlink("/etc", link.c_str()) == 0);
    CHECK(paths_of(find_new_links(link, epoch)) == std::vector<std::string>{link});
  }
  SUBCASE("a missing root holds nothing") {
    CHECK(find_new_links(s.path + "/missing", epoch).links.empty());
  }
}

TEST_CASE("links in an object store's fan-out directories are found too") {
  ScratchDir s("aj-links");
  const std::string o = s.path + "/objects";
  REQUIRE(::mkdir(o.c_str(), 0700) == 0);
  REQUIRE(::mkdir((o + "/ab").c_str(), 0700) == 0);
  REQUIRE(::symlink("x", (o + "/ab/cdef").c_str()) == 0);
  REQUIRE(::symlink("/tmp", (o + "/cd").c_str()) == 0);
  CHECK(paths_of(find_new_links(s.path, {})) ==
        std::vector<std::string>{o + "/ab/cdef", o + "/cd"});
}

TEST_CASE("an old link in a directory moved in since is new") {
  ScratchDir s("aj-links");
  const std::string stage = s.path + "/stage", logs = stage + "/logs";
  REQUIRE(::mkdir(stage.c_str(), 0700) == 0);
  REQUIRE(::mkdir(logs.c_str(), 0700) == 0);
  REQUIRE(::symlink("/home/u/.bashrc", (logs + "/HEAD").c_str()) == 0);
  // Everything so far is older than `since` (file times lag the precise
  // clock by a tick at most)...
  ::usleep(50 * 1000);
  struct timespec since {};
  ::clock_gettime(CLOCK_REALTIME, &since);
  CHECK(find_new_links(s.path, since).links.empty());
  // ...and a rename sets the moved directory's ctime, not its links'.
  ::usleep(100 * 1000);
  REQUIRE(::rename(logs.c_str(), (s.path + "/logs").c_str()) == 0);
  CHECK(paths_of(find_new_links(s.path, since)) == std::vector<std::string>{s.path + "/logs/HEAD"});
}

TEST_CASE("links are found however deep they lie") {
  ScratchDir s("aj-links");
  std::string dir = s.path;
  for (int i = 0; i < 200; ++i) {
    dir += "/d";
    REQUIRE(::mkdir(dir.c_str(), 0700) == 0);
  }
  REQUIRE(::symlink("/etc/passwd", (dir + "/l").c_str()) == 0);
  const NewLinks found = find_new_links(s.path, {});
  CHECK(paths_of(found) == std::vector<std::string>{dir + "/l"});
  CHECK_FALSE(found.truncated);
}

TEST_CASE("the walk stops at its limit and says so") {
  ScratchDir s("aj-links");
  for (int i = 0; i < 10; ++i)
    REQUIRE(::symlink("t", (s.path + "/l" + std::to_string(i)).c_str()) == 0);
  const NewLinks found = find_new_links(s.path, {}, 5);
  CHECK(found.truncated);
  CHECK(found.links.size() == 5);
  CHECK_FALSE(find_new_links(s.path, {}, 100).truncated);
}

TEST_CASE("the start time lies a little before now, on the file system's clock") {
  struct timespec coarse {};
  ::clock_gettime(CLOCK_REALTIME_COARSE, &coarse);
  const struct timespec start = link_walk_start_time();
  const double d = static_cast<double>(coarse.tv_sec - start.tv_sec) +
                   static_cast<double>(coarse.tv_nsec - start.tv_nsec) / 1e9;
  CHECK(d > 0.0);
  CHECK(d < 1.0);
}

}  // namespace aj
