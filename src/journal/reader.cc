#include "journal/reader.h"

namespace aj {

std::optional<JournalRecord> parse_journal_line(std::string_view line) {
  auto parsed = parse_json(line);
  if (!parsed || !parsed->is_object()) return std::nullopt;
  const JsonValue* v = parsed->get("v");
  const JsonValue* event = parsed->get("event");
  if (!v || !v->as_int() || *v->as_int() < 1 || !event || !event->is_string()) return std::nullopt;
  JournalRecord r;
  r.raw = std::string(line);
  r.event = event->text;
  r.decision = parsed->string_or("decision");
  r.ts = parsed->string_or("ts");
  r.session = parsed->string_or("session");
  if (const JsonValue* seq = parsed->get("seq")) r.seq = seq->as_uint();
  if (const JsonValue* pid = parsed->get("pid")) r.pid = pid->as_int();
  r.json = std::move(*parsed);
  return r;
}

namespace {

// agentjail-journal(5); net.* are reserved for the proxy network mode.
constexpr const char* kEventTypes[] = {"session.start", "exec",       "syscall.deny", "fs.deny",
                                       "fs.changed",    "limit",      "signal",       "session.end",
                                       "net.connect",   "net.request"};

}  // namespace

bool is_event_type(const std::string& name) {
  for (const std::string type : kEventTypes)
    if (type == name || type.starts_with(name + ".")) return true;
  return false;
}

std::string event_types_listed() {
  std::string out;
  for (const char* type : kEventTypes) out += (out.empty() ? "" : ", ") + std::string(type);
  return out;
}

bool JournalFilter::matches(const JournalRecord& r) const {
  if (denied_only && r.decision != "deny") return false;
  if (events.empty()) return true;
  for (const std::string& e : events) {
    if (r.event == e) return true;
    // A family: "net" is net.connect and net.request.
    if (r.event.size() > e.size() && r.event.compare(0, e.size(), e) == 0 &&
        r.event[e.size()] == '.')
      return true;
  }
  return false;
}

std::optional<std::string> LineBuffer::next_line() {
  std::size_t nl = pending_.find('\n', start_);
  if (nl == std::string::npos) {
    // Drop what was consumed, so a long follow does not grow the buffer.
    pending_.erase(0, start_);
    start_ = 0;
    return std::nullopt;
  }
  std::string line = pending_.substr(start_, nl - start_);
  start_ = nl + 1;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

std::optional<std::string> LineBuffer::take_rest() {
  std::string rest = pending_.substr(start_);
  pending_.clear();
  start_ = 0;
  if (rest.empty()) return std::nullopt;
  return rest;
}

void SessionTracker::add(const JournalRecord& r) {
  if (r.event == "session.start") {
    open_.insert(r.session);
  } else if (r.event == "session.end") {
    open_.erase(r.session);
    saw_end_ = true;
  }
}

}  // namespace aj
