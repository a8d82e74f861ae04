// Reading a journal back: one line -> one record, the filters of
// `agentjail journal`, and a line splitter that copes with a file still being
// written. Pure (the file handling is in app_journal.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "journal/json_read.h"

namespace aj {

struct JournalRecord {
  JsonValue json;   // the whole object
  std::string raw;  // the line as read, without its newline
  std::string event, decision, ts, session;
  std::optional<std::uint64_t> seq;
  std::optional<std::int64_t> pid;
};

// nullopt when the line is not a journal event: not JSON, not an object, or
// without an integer "v" and a string "event".
std::optional<JournalRecord> parse_journal_line(std::string_view line);

// Whether `name` is an event type agentjail-journal(5) defines, or a family
// of them (the part before the dot: "session", "fs", "net").
bool is_event_type(const std::string& name);
// The types, for a message: "session.start, exec, ...".
std::string event_types_listed();

struct JournalFilter {
  bool denied_only = false;         // decision == "deny"
  std::vector<std::string> events;  // any of these; "net" also takes net.connect, net.request
  bool matches(const JournalRecord& r) const;
};

// Splits bytes into lines as they arrive; a last line without its newline is
// held back until the rest comes (the writer may be mid-line).
class LineBuffer {
 public:
  void feed(std::string_view bytes) { pending_.append(bytes); }
  // The next complete line (without "\n" or "\r\n"), or nullopt.
  std::optional<std::string> next_line();
  // At the end of input: what is left without a newline, if anything.
  std::optional<std::string> take_rest();

 private:
  std::string pending_;
  std::size_t start_ = 0;
};

// Which sessions in a stream have started and not yet ended, for --follow:
// following stops once every session seen has its session.end.
class SessionTracker {
 public:
  void add(const JournalRecord& r);
  bool all_ended() const { return saw_end_ && open_.empty(); }

 private:
  std::set<std::string> open_;
  bool saw_end_ = false;
};

}  // namespace aj
