#include "base/log.h"

#include <unistd.h>

#include <string>

namespace aj::log {
namespace {
Level g_level = Level::kNormal;
}

void set_level(Level l) { g_level = l; }
Level level() { return g_level; }

void write_line(std::string_view line) {
  std::string out = "agentjail: ";
  out.append(line);
  out.push_back('\n');
  // One write so concurrent writers do not interleave within a line.
  ssize_t rc = ::write(STDERR_FILENO, out.data(), out.size());
  (void)rc;
}

}  // namespace aj::log
