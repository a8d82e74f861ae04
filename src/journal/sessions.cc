#include "journal/sessions.h"

#include <fmt/format.h>

#include <algorithm>

namespace aj {

SessionSummary& SessionIndex::find_or_add(const std::string& id, const std::string& path) {
  auto [it, added] = where_.try_emplace({id, path}, sessions_.size());
  if (!added) return sessions_[it->second];
  SessionSummary s;
  s.id = id;
  s.path = path;
  sessions_.push_back(std::move(s));
  return sessions_.back();
}

void SessionIndex::add_summary(SessionSummary s) {
  auto [it, added] = where_.try_emplace({s.id, s.path}, sessions_.size());
  if (added)
    sessions_.push_back(std::move(s));
  else
    sessions_[it->second] = std::move(s);
}

std::optional<SessionSummary> summary_from_ends(const JournalRecord& first,
                                                const JournalRecord& last, const std::string& path,
                                                const std::string& file_stem) {
  if (first.event != "session.start" || last.event != "session.end") return std::nullopt;
  if (first.session != last.session || !first.seq || !last.seq || *last.seq < *first.seq)
    return std::nullopt;
  const JsonValue* denied = last.json.get("denied");
  std::optional<std::uint64_t> n = denied ? denied->as_uint() : std::nullopt;
  if (!n) return std::nullopt;
  SessionIndex one;
  one.add(first, path, file_stem);
  one.add(last, path, file_stem);
  SessionSummary s = one.sessions().front();
  s.denied = *n;
  s.events = *last.seq - *first.seq + 1;
  return s;
}

void SessionIndex::add(const JournalRecord& r, const std::string& path,
                       const std::string& file_stem) {
  SessionSummary& s = find_or_add(r.session.empty() ? file_stem : r.session, path);
  if (s.events++ == 0) s.start = r.ts;
  if (r.decision == "deny") ++s.denied;
  if (r.event == "session.start") {
    if (const JsonValue* argv = r.json.get("argv"); argv && argv->is_array()) {
      s.argv.clear();
      for (const JsonValue& a : argv->items) s.argv.push_back(a.is_string() ? a.text : "?");
    }
    s.profile = r.json.string_or("profile");
    if (!r.ts.empty()) s.start = r.ts;
  } else if (r.event == "session.end") {
    s.ended = true;
    std::string exit = session_exit_text(r);
    s.exit = exit.empty() ? std::string(1, '?') : std::move(exit);
  }
}

std::vector<SessionSummary> SessionIndex::sessions() const {
  std::vector<SessionSummary> out = sessions_;
  // RFC 3339 UTC stamps of one format sort as text.
  std::stable_sort(out.begin(), out.end(), [](const SessionSummary& a, const SessionSummary& b) {
    return a.start < b.start;
  });
  return out;
}

std::string format_session_table(const std::vector<SessionSummary>& sessions, TimeZone tz) {
  std::size_t id_width = 7;  // "SESSION"
  for (const SessionSummary& s : sessions) id_width = std::max(id_width, s.id.size());
  std::string out = fmt::format("{:<{}}  {:<19}  {:<14}  {:>6}  {}\n", "SESSION", id_width, "START",
                                "EXIT", "DENIED", "COMMAND");
  for (const SessionSummary& s : sessions) {
    std::string exit = s.ended ? s.exit : "-";
    out += fmt::format("{:<{}}  {:<19}  {:<14}  {:>6}  {}\n", display_safe(s.id), id_width,
                       s.start.empty() ? "?" : display_time(s.start, tz, true), display_safe(exit),
                       s.denied, display_safe(shell_join(s.argv)));
  }
  return out;
}

}  // namespace aj
