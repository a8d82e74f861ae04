#include "journal/event.h"

#include <fmt/format.h>

#include <array>
#include <ctime>

#include "base/json.h"

namespace aj {
namespace {

constexpr std::array<std::string_view, 9> kCommonKeys = {
    "v", "ts", "session", "seq", "event", "decision", "layer", "rule", "pid"};

struct ValueWriter {
  std::string& out;
  void operator()(const std::string& s) const { out += json_string(s); }
  void operator()(std::int64_t n) const { out += fmt::format("{}", n); }
  void operator()(std::uint64_t n) const { out += fmt::format("{}", n); }
  void operator()(bool b) const { out += b ? "true" : "false"; }
  void operator()(const std::vector<std::string>& list) const {
    out += '[';
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (i) out += ',';
      out += json_string(list[i]);
    }
    out += ']';
  }
  void operator()(const JournalCounts& counts) const {
    out += '{';
    for (std::size_t i = 0; i < counts.size(); ++i) {
      if (i) out += ',';
      out += json_string(counts[i].first);
      out += ':';
      out += fmt::format("{}", counts[i].second);
    }
    out += '}';
  }
};

void add_key(std::string& out, std::string_view key) {
  out += ',';
  out += json_string(key);
  out += ':';
}

void add_string(std::string& out, std::string_view key, std::string_view value) {
  add_key(out, key);
  out += json_string(value);
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
  std::tm tm{};
  ::gmtime_r(&secs, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, frac);
}

std::string serialize_journal_event(const JournalEvent& e, const JournalStamp& stamp) {
  std::string out = fmt::format("{{\"v\":{}", kJournalVersion);
  add_string(out, "ts", stamp.ts);
  add_string(out, "session", stamp.session);
  add_key(out, "seq");
  out += fmt::format("{}", stamp.seq);
  add_string(out, "event", e.event);
  if (!e.decision.empty()) add_string(out, "decision", e.decision);
  if (!e.layer.empty()) add_string(out, "layer", e.layer);
  if (!e.rule.empty()) add_string(out, "rule", e.rule);
  if (e.pid) {
    add_key(out, "pid");
    out += fmt::format("{}", *e.pid);
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
