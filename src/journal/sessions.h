// `agentjail sessions`: one summary per recorded session, built from the
// events of its journal. Pure: the caller feeds the records of each file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "journal/reader.h"
#include "journal/summary.h"

namespace aj {

struct SessionSummary {
  std::string id;                 // the events' "session" (the file's stem when they have none)
  std::string path;               // the journal file
  std::string start;              // ts of its first event
  std::vector<std::string> argv;  // session.start's argv
  std::string profile;
  bool ended = false;  // a session.end was recorded
  std::string exit;    // "0", "124 (timeout)", "SIGKILL"; empty without an end
  std::uint64_t events = 0;
  std::uint64_t denied = 0;  // events with decision "deny"
};

// Collects the sessions of one or more journal files, in order of appearance.
class SessionIndex {
 public:
  // file_stem: the name used when the events carry no session id.
  void add(const JournalRecord& r, const std::string& path, const std::string& file_stem);
  // Sorted by start time (oldest first, so the newest is last); ties keep
  // the order they were added in.
  std::vector<SessionSummary> sessions() const;

 private:
  SessionSummary& find_or_add(const std::string& id, const std::string& path);
  std::vector<SessionSummary> sessions_;
};

// The table: SESSION START EXIT DENIED COMMAND, one line per session.
std::string format_session_table(const std::vector<SessionSummary>& sessions, TimeZone tz);

}  // namespace aj
