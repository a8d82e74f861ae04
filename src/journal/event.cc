#include "journal/event.h"

#include <fmt/format.h>

#include <array>
#include <ctime>
#include <iterator>

#include "base/json.h"

namespace aj {
namespace {

constexpr std::array<std::string_view, 9> kCommonKeys = {
    "v", "ts", "session", "seq", "event", "decision", "layer", "rule", "pid"};

struct ValueWriter {
  std::string& out;
  void operator()(const std::string& s) const { json_append(out, s); }
  void operator()(std::int64_t n) const { fmt::format_to(std::back_inserter(out), "{}", n); }
  void operator()(std::uint64_t n) const { fmt::format_to(std::back_inserter(out), "{}", n); }
  void operator()(bool b) const { out += b ? "true" : "false"; }
  void operator()(const std::vector<std::string>& list) const {
    out += '[';
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (i) out += ',';
      json_append(out, list[i]);
    }
    out += ']';
  }
  void operator()(const JournalCounts& counts) const {
    out += '{';
    for (std::size_t i = 0; i < counts.size(); ++i) {
      if (i) out += ',';
      json_append(out, counts[i].first);
      out += ':';
      fmt::format_to(std::back_inserter(out), "{}", counts[i].second);
    }
    out += '}';
  }
};

void add_key(std::string& out, std::string_view key) {
  out += ',';
  json_append(out, key);
  out += ':';
}

void add_string(std::string& out, std::string_view key, std::string_view value) {
  add_key(out, key);
  json_append(out, value);
}

}  // namespace

JournalEvent& JournalEvent::allow(std::string by_layer, std::string by_rule) {
  decision = "allow";
  layer = std::move(by_layer);
  rule = std::move(by_rule);
  return *this;
}

JournalEvent& JournalEvent::deny(std::string by_layer, std::string by_rule) {
  decision = "deny";
  layer = std::move(by_layer);
  rule = std::move(by_rule);
  return *this;
}

JournalEvent& JournalEvent::set(std::string key, JournalValue value) {
  for (JournalField& f : fields) {
    if (f.key == key) {
      f.value = std::move(value);
      return *this;
    }
  }
  fields.push_back({std::move(key), std::move(value)});
  return *this;
}

const JournalValue* JournalEvent::find(std::string_view key) const {
  for (const JournalField& f : fields)
    if (f.key == key) return &f.value;
  return nullptr;
}

bool is_reserved_journal_key(std::string_view key) {
  for (std::string_view k : kCommonKeys)
    if (k == key) return true;
  return false;
}

std::string format_journal_time(std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  auto us = duration_cast<microseconds>(t.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(us / 1000000);
  long frac = static_cast<long>(us % 1000000);
  if (frac < 0) {  // before 1970: floor, so the fraction stays positive
    frac += 1000000;
    --secs;
  }
  // Events come many per second: the calendar part is worked out once a second.
  thread_local std::time_t cached_secs = -1;
  thread_local std::string cached;
  if (secs != cached_secs || cached.empty()) {
    std::tm tm{};
    ::gmtime_r(&secs, &tm);
    cached = fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", tm.tm_year + 1900, tm.tm_mon + 1,
                         tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
    cached_secs = secs;
  }
  return fmt::format("{}.{:06}Z", cached, frac);
}

std::string serialize_journal_event(const JournalEvent& e, const JournalStamp& stamp) {
  std::string out;
  out.reserve(256);
  fmt::format_to(std::back_inserter(out), "{{\"v\":{}", kJournalVersion);
  add_string(out, "ts", stamp.ts);
  add_string(out, "session", stamp.session);
  add_key(out, "seq");
  fmt::format_to(std::back_inserter(out), "{}", stamp.seq);
  add_string(out, "event", e.event);
  if (!e.decision.empty()) add_string(out, "decision", e.decision);
  if (!e.layer.empty()) add_string(out, "layer", e.layer);
  if (!e.rule.empty()) add_string(out, "rule", e.rule);
  if (e.pid) {
    add_key(out, "pid");
    fmt::format_to(std::back_inserter(out), "{}", *e.pid);
  }
  for (const JournalField& f : e.fields) {
    // A clash with a common field would make the line ambiguous to readers.
    add_key(out, is_reserved_journal_key(f.key) ? "x-" + f.key : f.key);
    std::visit(ValueWriter{out}, f.value);
  }
  out += "}\n";
  return out;
}

}  // namespace aj
