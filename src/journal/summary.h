// The readable form of `agentjail journal`: a table of time, event,
// decision and a one-line summary per event type. Everything shown is made
// safe for a terminal first: journal strings come from the jailed command and
// may hold escape sequences. Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "journal/reader.h"

namespace aj {

// Control characters (C0, DEL, C1) and bytes that are not UTF-8 as \xNN, so a
// string cannot move the cursor, retitle the window or fake other lines.
std::string display_safe(std::string_view s);

// A word as a shell would need it: bare when plain, else single-quoted.
std::string shell_quote(std::string_view word);
std::string shell_join(const std::vector<std::string>& words);

enum class TimeZone { kLocal, kUtc };

// "18:40:00.123" from "2026-11-29T18:40:00.123456Z" (with_date: "2026-11-29
// 18:40:00"); an unparsable stamp is shown as it is (made safe).
std::string display_time(std::string_view ts, TimeZone tz, bool with_date = false);

// The summary column for one event, e.g. for exec
//   /usr/bin/git: git --version (pid 12, ppid 5)
std::string journal_summary(const JournalRecord& r);

// session.end's outcome: "0", "137 (SIGKILL)", "124 (timeout)"; "" when it
// records none.
std::string session_exit_text(const JournalRecord& end);

std::string journal_table_header();
std::string journal_table_row(const JournalRecord& r, TimeZone tz);

}  // namespace aj
