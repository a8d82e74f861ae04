#include "base/log.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <string>

namespace aj {
namespace {

// What write_line puts on stderr, caught through a pipe.
std::string stderr_of(std::string_view line) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const int saved = ::dup(STDERR_FILENO);
  ::dup2(fds[1], STDERR_FILENO);
  log::write_line(line);
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  ::close(fds[1]);
  char buf[256];
  const ssize_t n = ::read(fds[0], buf, sizeof buf);
  ::close(fds[0]);
  return std::string(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
}

}  // namespace

TEST_CASE("a line ends in CR LF while the user's terminal is raw, in LF otherwise") {
  CHECK(stderr_of("plain") == "agentjail: plain\n");
  log::set_raw_terminal(true);
  CHECK(stderr_of("raw") == "agentjail: raw\r\n");
  log::set_raw_terminal(false);
  CHECK(stderr_of("back") == "agentjail: back\n");
}

}  // namespace aj
