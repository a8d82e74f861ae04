// `agentjail sessions`: one summary per recorded session, built from the
// events of its journal. Pure: the caller feeds the records of each file.
#pragma once

#include <cstdint>
#include <map>
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
  // A session summarised elsewhere (summary_from_ends).
  void add_summary(SessionSummary s);
  // Sorted by start time (oldest first, so the newest is last); ties keep
  // the order they were added in.
  std::vector<SessionSummary> sessions() const;

 private:
  SessionSummary& find_or_add(const std::string& id, const std::string& path);
  std::vector<SessionSummary> sessions_;
  std::map<std::pair<std::string, std::string>, std::size_t> where_;  // (id, path) -> index
};

// A journal that holds one whole session, summarised from its first line
// (session.start) and its last (session.end, whose "denied" counts the
// refusals in between), so a long journal need not be read through. nullopt
// when the two do not frame one session: read every line instead.
std::optional<SessionSummary> summary_from_ends(const JournalRecord& first,
                                                const JournalRecord& last, const std::string& path,
                                                const std::string& file_stem);

// The table: SESSION START EXIT DENIED COMMAND, one line per session.
std::string format_session_table(const std::vector<SessionSummary>& sessions, TimeZone tz);

}  // namespace aj
