// Human diagnostics on stderr, prefixed "agentjail: ". The JSONL journal is
// the machine record and never goes through here.
#pragma once

#include <fmt/format.h>

#include <string_view>

namespace aj::log {

enum class Level { kQuiet = 0, kNormal = 1, kVerbose = 2 };

void set_level(Level level);
Level level();

void write_line(std::string_view line);
// While the user's terminal is raw (supervise/terminal_relay.h), lines end
// in "\r\n", or each would start where the last one ended.
void set_raw_terminal(bool raw);

// Text of several lines with each line made terminal_safe (base/utf8.h);
// each '\n' stays a line break.
std::string terminal_safe_lines(std::string_view text);

template <typename... Args>
void error(fmt::format_string<Args...> f, Args&&... args) {
  write_line(fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
void warn(fmt::format_string<Args...> f, Args&&... args) {
  if (level() >= Level::kNormal) write_line(fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
void info(fmt::format_string<Args...> f, Args&&... args) {
  if (level() >= Level::kVerbose) write_line(fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace aj::log
