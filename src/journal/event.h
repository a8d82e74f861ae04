// One journal event and its JSON Lines form (agentjail-journal(5)). Pure: the
// writer adds the clock, the sequence number and redaction.
#pragma once

#include <chrono>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace aj {

constexpr int kJournalVersion = 1;

// Counters by name, e.g. session.end's {"exec": 12, "syscall.deny": 3}.
using JournalCounts = std::vector<std::pair<std::string, std::uint64_t>>;
using JournalValue = std::variant<std::string, std::int64_t, std::uint64_t, bool,
                                  std::vector<std::string>, JournalCounts>;

struct JournalField {
  std::string key;
  JournalValue value;
};

// The event-specific part; the writer fills in v, ts, session and seq.
//   JournalEvent("exec").allow("seccomp").with_pid(42).set("path", p).set("argv", argv)
struct JournalEvent {
  std::string event;     // "exec", "syscall.deny", ...
  std::string decision;  // "allow", "deny", or empty (omitted)
  std::string layer;     // the layer that decided; omitted when empty
  std::string rule;      // profile file:line or built-in group; omitted when empty
  std::optional<std::int64_t> pid;
  std::vector<JournalField> fields;  // in output order, after the common fields

  JournalEvent() = default;
  explicit JournalEvent(std::string name) : event(std::move(name)) {}

  JournalEvent& allow(std::string by_layer, std::string by_rule = {});
  JournalEvent& deny(std::string by_layer, std::string by_rule = {});
  JournalEvent& with_pid(std::int64_t p) {
    pid = p;
    return *this;
  }

  // Adds a field, or replaces the value of one already set under key.
  JournalEvent& set(std::string key, JournalValue value);
  JournalEvent& set(std::string key, std::string value) {
    return set(std::move(key), JournalValue(std::move(value)));
  }
  JournalEvent& set(std::string key, std::string_view value) {
    return set(std::move(key), std::string(value));
  }
  JournalEvent& set(std::string key, const char* value) {
    return set(std::move(key), std::string(value));
  }
  template <std::integral T>
  requires(!std::same_as<T, bool> && !std::same_as<T, char>) JournalEvent& set(std::string key,
                                                                               T value) {
    if constexpr (std::is_signed_v<T>)
      return set(std::move(key), JournalValue(static_cast<std::int64_t>(value)));
    else
      return set(std::move(key), JournalValue(static_cast<std::uint64_t>(value)));
  }
  JournalEvent& set(std::string key, bool value) {
    return set(std::move(key), JournalValue(value));
  }

  const JournalValue* find(std::string_view key) const;
};

// What the writer stamps on each event.
struct JournalStamp {
  std::string ts;  // format_journal_time()
  std::string session;
  std::uint64_t seq = 0;
};

// Field names the common part uses; an extra field may not take one.
bool is_reserved_journal_key(std::string_view key);

// RFC 3339 UTC with microseconds: 2026-11-29T18:40:00.123456Z.
std::string format_journal_time(std::chrono::system_clock::time_point t);

// The event as one JSON line, ending in '\n': v, ts, session, seq, event,
// decision, layer, rule, pid, then the extra fields in order. Every string goes
// through json_string, so the line is valid JSON whatever bytes it holds.
// An extra field with a reserved name is written as "x-<name>" (never twice).
std::string serialize_journal_event(const JournalEvent& e, const JournalStamp& stamp);

}  // namespace aj
