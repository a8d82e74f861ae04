#include "base/log.h"

#include <fmt/format.h>
#include <unistd.h>

#include <string>

#include "base/utf8.h"

namespace aj::log {
namespace {
Level g_level = Level::kNormal;
bool g_raw_terminal = false;
}  // namespace

void set_level(Level l) { g_level = l; }
Level level() { return g_level; }
void set_raw_terminal(bool raw) { g_raw_terminal = raw; }

std::string terminal_safe_lines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t nl = text.find('\n', start);
    out += terminal_safe(text.substr(start, nl == std::string_view::npos ? nl : nl - start));
    if (nl == std::string_view::npos) break;
    out += '\n';
    start = nl + 1;
  }
  return out;
}

void write_line(std::string_view line) {
  std::string out = "agentjail: ";
  out.append(terminal_safe(line));
  // A raw terminal (the relay's) does not return the carriage by itself.
  if (g_raw_terminal) out.push_back('\r');
  out.push_back('\n');
  // One write so concurrent writers do not interleave within a line.
  ssize_t rc = ::write(STDERR_FILENO, out.data(), out.size());
  (void)rc;
}

}  // namespace aj::log
