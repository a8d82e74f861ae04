#include "journal/summary.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <utility>

#include "base/utf8.h"

namespace aj {
namespace {

// Fields every event has; the generic summary shows only the others.
constexpr std::string_view kCommon[] = {"v",        "ts",    "session", "seq", "event",
                                        "decision", "layer", "rule",    "pid"};

bool is_common(std::string_view key) {
  for (std::string_view k : kCommon)
    if (k == key) return true;
  return false;
}

// Any value as compact text: strings bare, lists as "a b", objects as k=v.
std::string text_of(const JsonValue& v) {
  switch (v.kind) {
    case JsonValue::Kind::kNull: return "null";
    case JsonValue::Kind::kBool: return v.boolean ? "true" : "false";
    case JsonValue::Kind::kNumber:
    case JsonValue::Kind::kString: return v.text;
    case JsonValue::Kind::kArray: {
      std::string out;
      for (const JsonValue& item : v.items) out += (out.empty() ? "" : " ") + text_of(item);
      return "[" + out + "]";
    }
    case JsonValue::Kind::kObject: {
      std::string out;
      for (const auto& [k, item] : v.members)
        out += (out.empty() ? "" : " ") + k + "=" + text_of(item);
      return "{" + out + "}";
    }
  }
  return {};
}

std::string field(const JournalRecord& r, std::string_view key) {
  const JsonValue* v = r.json.get(key);
  return v ? text_of(*v) : std::string();
}

std::vector<std::string> list_field(const JournalRecord& r, std::string_view key) {
  std::vector<std::string> out;
  if (const JsonValue* v = r.json.get(key); v && v->is_array())
    for (const JsonValue& item : v->items) out.push_back(text_of(item));
  return out;
}

// " (a, b)" from the non-empty parts, or "".
std::string parenthesised(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts)
    if (!p.empty()) out += (out.empty() ? "" : ", ") + p;
  return out.empty() ? out : " (" + out + ")";
}

std::string labelled(std::string_view label, const std::string& value) {
  return value.empty() ? std::string() : fmt::format("{} {}", label, value);
}

// "SIGTERM" from 15, "TERM" or "SIGTERM"; "" when absent.
std::string signal_name(const JsonValue* v) {
  if (!v) return {};
  if (v->is_string()) return v->text.compare(0, 3, "SIG") == 0 ? v->text : "SIG" + v->text;
  if (auto n = v->as_int(); n && *n > 0 && *n < 65) {
    const char* abbrev = ::sigabbrev_np(static_cast<int>(*n));
    return abbrev ? fmt::format("SIG{}", abbrev) : fmt::format("signal {}", *n);
  }
  return text_of(*v);
}

std::string pid_part(const JournalRecord& r) {
  return r.pid ? fmt::format("pid {}", *r.pid) : std::string();
}

// The profile a session ran: its own "profile", or the last file of the
// chain by name ("/etc/agentjail/profiles/strict.toml" -> "strict").
std::string profile_name(const JournalRecord& r) {
  if (std::string p = field(r, "profile"); !p.empty()) return p;
  auto ends_with_toml = [](const std::string& s) {
    return s.size() > 5 && s.compare(s.size() - 5, 5, ".toml") == 0;
  };
  std::vector<std::string> chain = list_field(r, "profile_chain");
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (it->find('/') == std::string::npos && !ends_with_toml(*it)) continue;  // "command line"
    std::string name = it->substr(it->rfind('/') + 1);
    if (ends_with_toml(name)) name.resize(name.size() - 5);
    return name;
  }
  return {};
}

std::string summarize_start(const JournalRecord& r) {
  std::string out = shell_join(list_field(r, "argv"));
  return out + parenthesised({labelled("profile", profile_name(r)), pid_part(r)});
}

std::string summarize_end(const JournalRecord& r) {
  std::string out = "ended";
  if (std::string status = session_exit_text(r); !status.empty()) out = "exit " + status;
  std::uint64_t n = 0;
  if (std::string ms = field(r, "duration_ms");
      !ms.empty() && std::from_chars(ms.data(), ms.data() + ms.size(), n).ec == std::errc())
    out += n < 1000 ? fmt::format(" after {}ms", n)
                    : fmt::format(" after {}.{:01}s", n / 1000, (n % 1000) / 100);
  if (std::string denied = field(r, "denied"); !denied.empty() && denied != "0")
    out += fmt::format(", {} denied", denied);
  return out;
}

std::string summarize_exec(const JournalRecord& r) {
  std::string path = field(r, "path");
  std::string argv = shell_join(list_field(r, "argv"));
  std::string out = path.empty() ? argv : argv.empty() ? path : path + ": " + argv;
  return out + parenthesised({pid_part(r), labelled("ppid", field(r, "ppid"))});
}

std::string summarize_syscall(const JournalRecord& r) {
  std::string name = field(r, "syscall");
  std::string args;
  if (const JsonValue* v = r.json.get("args"); v && v->is_array()) {
    for (const JsonValue& a : v->items) args += (args.empty() ? "" : ", ") + text_of(a);
  } else if (v) {
    args = text_of(*v);  // already decoded into one string
  }
  std::string out = fmt::format("{}({})", name.empty() ? "?" : name, args);
  std::string err = field(r, "error");
  if (err.empty()) err = field(r, "errno");
  if (!err.empty()) out += " -> " + err;
  return out + parenthesised({pid_part(r)});
}

std::string summarize_fs(const JournalRecord& r) {
  std::string access = field(r, "access");
  std::string out = access.empty() ? field(r, "path") : access + " " + field(r, "path");
  if (std::string to = field(r, "leads_to"); !to.empty()) out += " -> " + to;
  return out + parenthesised({field(r, "syscall"), pid_part(r)});
}

std::string summarize_changed(const JournalRecord& r) {
  std::string out = field(r, "change") + " " + field(r, "path");
  const JsonValue* entries = r.json.get("entries");
  if (entries && entries->is_array() && entries->items.size() > 1)
    out += fmt::format(" ({} entries)", entries->items.size());
  return out;
}

std::string summarize_limit(const JournalRecord& r) {
  std::string out = field(r, "limit");
  if (std::string value = field(r, "value"); !value.empty()) out += " " + value;
  return out + parenthesised({field(r, "reason"), pid_part(r)});
}

std::string summarize_signal(const JournalRecord& r) {
  std::string out = signal_name(r.json.get("name"));
  if (out.empty()) out = signal_name(r.json.get("signal"));
  return out + parenthesised({field(r, "action"), field(r, "reason"), pid_part(r)});
}

std::string summarize_net(const JournalRecord& r) {
  std::string host = field(r, "host");
  std::string port = field(r, "port");
  std::string target = field(r, "url");
  if (target.empty()) target = port.empty() ? host : host + ":" + port;
  std::string method = field(r, "method");
  std::string out = method.empty() ? target : method + " " + target;
  return out + parenthesised({field(r, "reason"), pid_part(r)});
}

std::string summarize_other(const JournalRecord& r) {
  std::string out;
  for (const auto& [key, value] : r.json.members)
    if (!is_common(key)) out += (out.empty() ? "" : " ") + key + "=" + text_of(value);
  return out + parenthesised({pid_part(r)});
}

}  // namespace

std::string display_safe(std::string_view s) { return visible_text(s, Escapes::kDisplay); }

std::string shell_quote(std::string_view word) {
  if (word.empty()) return "''";
  bool plain = true;
  for (char c : word) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              std::string_view("-_./:=@%+,").find(c) != std::string_view::npos ||
              static_cast<unsigned char>(c) >= 0x80;
    plain = plain && ok;
  }
  if (plain) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string shell_join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + shell_quote(w);
  return out;
}

std::string display_time(std::string_view ts, TimeZone tz, bool with_date) {
  std::tm tm{};
  int consumed = 0;
  std::string copy(ts);
  if (std::sscanf(copy.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed) != 6 ||
      consumed != 19)
    return display_safe(ts);
  std::string_view rest = ts.substr(19);
  std::string frac;
  if (!rest.empty() && rest[0] == '.') {
    std::size_t k = 1;
    while (k < rest.size() && rest[k] >= '0' && rest[k] <= '9') ++k;
    frac = std::string(rest.substr(1, k - 1));
    rest.remove_prefix(k);
  }
  if (rest != "Z") return display_safe(ts);
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  std::time_t t = ::timegm(&tm);
  std::tm shown{};
  if (tz == TimeZone::kLocal)
    ::localtime_r(&t, &shown);
  else
    ::gmtime_r(&t, &shown);
  if (with_date)
    return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", shown.tm_year + 1900,
                       shown.tm_mon + 1, shown.tm_mday, shown.tm_hour, shown.tm_min, shown.tm_sec);
  frac = (frac + "000").substr(0, 3);
  return fmt::format("{:02}:{:02}:{:02}.{}", shown.tm_hour, shown.tm_min, shown.tm_sec, frac);
}

std::string session_exit_text(const JournalRecord& end) {
  std::string status = field(end, "exit_code");
  if (status.empty()) status = field(end, "exit_status");
  std::string sig = signal_name(end.json.get("signal"));
  if (field(end, "timed_out") == "true") sig = "timeout";
  if (status.empty()) return sig;
  return sig.empty() ? status : status + " (" + sig + ")";
}

std::string journal_summary(const JournalRecord& r) {
  std::string out;
  const std::string& e = r.event;
  if (e == "session.start")
    out = summarize_start(r);
  else if (e == "session.end")
    out = summarize_end(r);
  else if (e == "exec")
    out = summarize_exec(r);
  else if (e == "syscall.deny")
    out = summarize_syscall(r);
  else if (e == "fs.deny")
    out = summarize_fs(r);
  else if (e == "fs.changed")
    out = summarize_changed(r);
  else if (e == "limit" || e == "limit.hit")
    out = summarize_limit(r);
  else if (e == "signal")
    out = summarize_signal(r);
  else if (e.compare(0, 4, "net.") == 0)
    out = summarize_net(r);
  else
    out = summarize_other(r);
  return display_safe(out);
}

std::string journal_table_header() {
  return fmt::format("{:<12}  {:<13}  {:<8}  {}", "TIME", "EVENT", "DECISION", "SUMMARY");
}

std::string journal_table_row(const JournalRecord& r, TimeZone tz) {
  return fmt::format("{:<12}  {:<13}  {:<8}  {}", display_time(r.ts, tz), display_safe(r.event),
                     r.decision.empty() ? "-" : display_safe(r.decision), journal_summary(r));
}

}  // namespace aj
