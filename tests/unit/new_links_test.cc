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

TEST_CASE("an object store's fan-out directories are looked at but not walked") {
  ScratchDir s("aj-links");
  const std::string o = s.path + "/objects";
  REQUIRE(::mkdir(o.c_str(), 0700) == 0);
  REQUIRE(::mkdir((o + "/ab").c_str(), 0700) == 0);
  REQUIRE(::mkdir((o + "/info").c_str(), 0700) == 0);
  REQUIRE(::symlink("x", (o + "/ab/cdef").c_str()) == 0);   // inside: not walked
  REQUIRE(::symlink("y", (o + "/info/alt").c_str()) == 0);  // not fan-out: walked
  REQUIRE(::symlink("/tmp", (o + "/cd").c_str()) == 0);     // the fan-out entry itself
  CHECK(paths_of(find_new_links(s.path, {})) ==
        std::vector<std::string>{o + "/cd", o + "/info/alt"});
}

TEST_CASE("the walk stops at its limit and says so") {
  ScratchDir s("aj-links");
  for (int i = 0; i < 10; ++i)
    REQUIRE(::symlink("t", (s.path + "/l" + std::to_string(i)).c_str()) == 0);
  const NewLinks found = find_new_links(s.path, {}, 5);
  CHECK(found.truncated);
  CHECK(found.links.size() == 4);  // the root counts as one entry
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
