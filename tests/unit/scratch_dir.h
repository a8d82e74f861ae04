// A scratch directory under /tmp for one test, removed with everything in it
// when the test ends.
#pragma once

#include <doctest/doctest.h>
#include <stdlib.h>

#include <cstdlib>
#include <string>

namespace aj {

struct ScratchDir {
  std::string path;
  explicit ScratchDir(const std::string& prefix = "aj-test") {
    std::string tmpl = "/tmp/" + prefix + ".XXXXXX";
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~ScratchDir() {
    std::string cmd = "rm -rf -- '" + path + "'";
    if (std::system(cmd.c_str()) != 0) MESSAGE("could not remove " << path);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

}  // namespace aj
