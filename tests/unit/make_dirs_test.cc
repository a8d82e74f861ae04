// mkdir -p for the journal and session directories.
#include "sys/make_dirs.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "app_session_dir.h"
#include "scratch_dir.h"

namespace aj {
namespace {

mode_t mode_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  REQUIRE(S_ISDIR(st.st_mode));
  return st.st_mode & 07777;
}

TEST_CASE("make_private_dirs: creates every missing level with mode 0700") {
  ScratchDir t("aj-make-dirs");
  const mode_t old = ::umask(0);
  auto made = make_private_dirs(t.path + "/a/b/c");
  ::umask(old);
  REQUIRE(made);
  CHECK(mode_of(t.path + "/a") == 0700);
  CHECK(mode_of(t.path + "/a/b") == 0700);
  CHECK(mode_of(t.path + "/a/b/c") == 0700);
}

TEST_CASE("make_private_dirs: existing directories keep their mode; a trailing slash is fine") {
  ScratchDir t("aj-make-dirs");
  REQUIRE(::mkdir((t.path + "/shared").c_str(), 0755) == 0);
  REQUIRE(::chmod((t.path + "/shared").c_str(), 0755) == 0);
  REQUIRE(make_private_dirs(t.path + "/shared/sessions/"));
  CHECK(mode_of(t.path + "/shared") == 0755);
  CHECK(mode_of(t.path + "/shared/sessions") == 0700);
  REQUIRE(make_private_dirs(t.path + "/shared/sessions"));  // all there: nothing to do
}

TEST_CASE("make_private_dirs: a file in the way is an error naming the path") {
  ScratchDir t("aj-make-dirs");
  const std::string file = t.path + "/file";
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  REQUIRE(fd >= 0);
  ::close(fd);
  auto made = make_private_dirs(file + "/sub/dir");
  REQUIRE_FALSE(made);
  CHECK(made.error().render().find(file + "/sub") != std::string::npos);
}

}  // namespace
}  // namespace aj

namespace aj {

TEST_CASE("removing a session's private directory never follows a link out of it") {
  ScratchDir outside, state;
  const std::string victim = outside.path + "/keep";
  REQUIRE(std::system(("echo data > '" + victim + "'").c_str()) == 0);
  const std::string dir = state.path + "/session";
  // The links the plan asks for (a grant under the real home), deep ones
  // with the directories on their way.
  REQUIRE(create_private_dir(
      dir, {{dir + "/home/.claude", outside.path}, {dir + "/home/.config/gh", outside.path}}));
  char target[4096] = {};
  REQUIRE(::readlink((dir + "/home/.config/gh").c_str(), target, sizeof target - 1) > 0);
  CHECK(std::string(target) == outside.path);
  const std::string home = dir + "/home";
  REQUIRE(std::system(("mkdir -p '" + home + "/a/b' && echo x > '" + home + "/a/b/f' && ln -s '" +
                       outside.path + "' '" + home + "/link' && ln -s '" + outside.path + "' '" +
                       home + "/a/link'")
                          .c_str()) == 0);
  // A directory made unreadable, and a chain deeper than the walk enters.
  REQUIRE(std::system(("mkdir -p '" + home + "/locked/in' && echo x > '" + home +
                       "/locked/in/f' && chmod 000 '" + home + "/locked/in' '" + home + "/locked'")
                          .c_str()) == 0);
  std::string deep = dir + "/tmp";
  for (int i = 0; i < 150; ++i) {
    deep += "/d";
    REQUIRE(::mkdir(deep.c_str(), 0700) == 0);
  }
  remove_private_dir(dir);
  struct stat st;
  CHECK(::lstat(dir.c_str(), &st) != 0);    // gone, with everything in it
  CHECK(::stat(victim.c_str(), &st) == 0);  // what the links led to is untouched
}

}  // namespace aj
