#include "profile/toml_reader.h"

#include <algorithm>
#include <limits>

#include "base/units.h"
#include "profile/syntax.h"

namespace aj::toml_adapter {
namespace {

constexpr int kMaxErrno = 4095;

}  // namespace

std::string quote(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a floating-point number";
    case toml::node_type::boolean: return "a boolean";
    default: return "a date or time";
  }
}

std::string join(std::span<const std::string_view> names, std::string_view before,
                 std::string_view after) {
  std::string out;
  for (auto n : names) {
    if (!out.empty()) out += ", ";
    out += before;
    out += n;
    out += after;
  }
  return out;
}

// ---- document and sections ----

void Reader::read_document(const toml::table& root, ProfileLayer* out) {
  for (auto&& [key, node] : root) {
    std::string_view name = key.str();
    bool known = std::find(kSections.begin(), kSections.end(), name) != kSections.end();
    if (known) {
      if (const toml::table* t = node.as_table()) {
        read_section(name, *t, out);
      } else {
        error(node.source(),
              "expected a table for [" + std::string(name) + "], found " + type_name(node));
      }
      continue;
    }
    if (node.is_table()) {
      std::string msg = "unknown section [" + std::string(name) + "]";
      if (auto s = did_you_mean(name, kSections)) {
        msg += "; did you mean [" + std::string(*s) + "]?";
      } else {
        msg += "; valid sections are " + join(kSections, "[", "]");
      }
      error(key.source(), msg);
      continue;
    }
    std::string home = home_of(name, "");
    error(key.source(), "unknown top-level key " + quote(name) +
                            (home.empty() ? "; settings belong in a section such as [filesystem]"
                                          : "; " + quote(name) + " belongs in " + home));
  }
  check_env_conflicts(out->environment);
}

void Reader::read_section(std::string_view section, const toml::table& t, ProfileLayer* out) {
  const std::vector<KeyRule> section_rules = rules(section, out);
  bool has_replace = std::any_of(section_rules.begin(), section_rules.end(),
                                 [](const KeyRule& r) { return r.reset != nullptr; });
  for (auto&& [key, node] : t) {
    if (has_replace && key.str() == "replace") {
      read_replace(section, node, section_rules);
      continue;
    }
    std::string_view name = key.str();  // Clang 14 cannot capture a structured binding
    auto rule = std::find_if(section_rules.begin(), section_rules.end(),
                             [&](const KeyRule& r) { return r.name == name; });
    if (rule == section_rules.end()) {
      unknown_key(section, key, section_rules);
    } else {
      rule->read(node);
    }
  }
}

void Reader::unknown_key(std::string_view section, const toml::key& k,
                         const std::vector<KeyRule>& rules) {
  std::vector<std::string_view> names;
  for (const auto& r : rules) names.push_back(r.name);
  if (std::any_of(rules.begin(), rules.end(), [](const KeyRule& r) { return r.reset; })) {
    names.push_back("replace");
  }
  std::string msg = "unknown key " + quote(k.str()) + " in [" + std::string(section) + "]";
  // A key of another section is a likelier mistake than a near miss here.
  if (std::string home = home_of(k.str(), section); !home.empty()) {
    msg += "; " + quote(k.str()) + " belongs in " + home;
  } else if (auto s = did_you_mean(k.str(), names)) {
    msg += "; did you mean " + quote(*s) + "?";
  } else {
    msg += "; valid keys are " + join(names);
  }
  error(k.source(), msg);
}

// The section(s) other than `except` that define key, as "[network]".
std::string Reader::home_of(std::string_view key, std::string_view except) {
  std::string out;
  ProfileLayer scratch;
  for (auto section : kSections) {
    if (section == except) continue;
    for (const auto& r : rules(section, &scratch)) {
      if (r.name != key) continue;
      if (!out.empty()) out += " or ";
      out += "[" + std::string(section) + "]";
    }
  }
  return out;
}

void Reader::read_replace(std::string_view section, const toml::node& n,
                          const std::vector<KeyRule>& rules) {
  std::vector<std::string_view> lists;
  for (const auto& r : rules) {
    if (r.reset) lists.push_back(r.name);
  }
  const toml::array* arr = n.as_array();
  if (!arr) {
    error(n.source(), "expected an array of strings for 'replace', found " + type_name(n));
    return;
  }
  for (const toml::node& e : *arr) {
    const auto* s = e.as_string();
    if (!s) {
      error(e.source(), "expected a string in 'replace', found " + type_name(e));
      continue;
    }
    std::string_view name = s->get();
    auto rule = std::find_if(rules.begin(), rules.end(),
                             [&](const KeyRule& r) { return r.reset && r.name == name; });
    if (rule != rules.end()) {
      *rule->reset = true;
      continue;
    }
    std::string msg = "unknown key " + quote(name) + " in 'replace'";
    if (auto sug = did_you_mean(name, lists)) {
      msg += "; did you mean " + quote(*sug) + "?";
    } else {
      msg += "; the lists of [" + std::string(section) + "] are " + join(lists);
    }
    error(e.source(), msg);
  }
}

std::vector<Reader::KeyRule> Reader::rules(std::string_view section, ProfileLayer* out) {
  if (section == "profile") return profile_rules(out);
  if (section == "filesystem") return filesystem_rules(&out->filesystem);
  if (section == "network") return network_rules(&out->network);
  if (section == "seccomp") return seccomp_rules(&out->seccomp);
  if (section == "limits") return limits_rules(&out->limits);
  if (section == "environment") return environment_rules(&out->environment);
  if (section == "journal") return journal_rules(&out->journal);
  return {};
}

// ---- typed values ----

void Reader::string_value(const toml::node& n, std::string_view key,
                          std::optional<Item<std::string>>* out) {
  if (const auto* s = n.as_string()) {
    *out = item(s->get(), n);
  } else {
    error(n.source(), "expected a string for " + quote(key) + ", found " + type_name(n));
  }
}

void Reader::bool_value(const toml::node& n, std::string_view key, std::optional<Item<bool>>* out) {
  if (const auto* b = n.as_boolean()) {
    *out = item(b->get(), n);
  } else {
    error(n.source(), "expected true or false for " + quote(key) + ", found " + type_name(n));
  }
}

void Reader::string_list(const toml::node& n, std::string_view key, const EntryCheck& check,
                         ListEdit<std::string>* out, bool removals) {
  const toml::array* arr = n.as_array();
  if (!arr) {
    error(n.source(), "expected an array of strings for " + quote(key) + ", found " + type_name(n));
    return;
  }
  for (const toml::node& e : *arr) {
    const auto* s = e.as_string();
    if (!s) {
      error(e.source(), "expected a string in " + quote(key) + ", found " + type_name(e));
      continue;
    }
    std::string_view text = s->get();
    bool remove = removals && !text.empty() && text[0] == '!';
    if (remove) text.remove_prefix(1);
    if (remove && text.empty()) {
      error(e.source(), "empty removal '!' in " + quote(key));
      continue;
    }
    Result<std::string> value = check(text);
    if (!value) {
      error(e.source(), value.error().render());
      continue;
    }
    (remove ? out->remove : out->add).push_back(item(std::move(*value), e));
  }
}

void Reader::port_list(const toml::node& n, std::string_view key, ListEdit<std::uint16_t>* out) {
  const toml::array* arr = n.as_array();
  if (!arr) {
    error(n.source(),
          "expected an array of port numbers for " + quote(key) + ", found " + type_name(n));
    return;
  }
  for (const toml::node& e : *arr) {
    std::int64_t port = 0;
    bool remove = false;
    if (const auto* i = e.as_integer()) {
      port = i->get();
    } else if (const auto* s = e.as_string();
               s && s->get().size() > 1 && s->get()[0] == '!' && s->get().size() <= 6 &&
               s->get().find_first_not_of("0123456789", 1) == std::string::npos) {
      remove = true;  // "!443" removes an inherited port
      port = std::stoll(s->get().substr(1));
    } else {
      error(e.source(), "expected a port number (or \"!PORT\" to remove one) in " + quote(key) +
                            ", found " + type_name(e));
      continue;
    }
    if (port < 1 || port > 65535) {
      error(e.source(), "port " + std::to_string(port) + " in " + quote(key) +
                            " is out of range; ports are 1 to 65535");
      continue;
    }
    (remove ? out->remove : out->add).push_back(item(static_cast<std::uint16_t>(port), e));
  }
}

void Reader::size_value(const toml::node& n, std::string_view key, std::uint64_t min,
                        std::optional<Item<std::uint64_t>>* out) {
  std::optional<std::uint64_t> bytes;
  if (const auto* i = n.as_integer()) {
    if (i->get() >= 0) bytes = static_cast<std::uint64_t>(i->get());
  } else if (const auto* s = n.as_string()) {
    bytes = parse_size(s->get());
    if (!bytes) {
      error(n.source(), "malformed size " + quote(s->get()) + " for " + quote(key) +
                            "; expected bytes or a number with a K, M, G or T suffix, like \"8G\"");
      return;
    }
  } else {
    error(n.source(), "expected a size like \"8G\" or a number of bytes for " + quote(key) +
                          ", found " + type_name(n));
    return;
  }
  if (!bytes || *bytes < min) {
    error(n.source(),
          quote(key) + (min > 0 ? " must be greater than zero" : " must not be negative"));
    return;
  }
  *out = item(*bytes, n);
}

void Reader::duration_value(const toml::node& n, std::string_view key,
                            std::optional<Item<std::uint64_t>>* out) {
  std::optional<std::uint64_t> ms;
  if (const auto* i = n.as_integer()) {
    constexpr std::int64_t kMaxSeconds = std::numeric_limits<std::int64_t>::max() / 1000;
    if (i->get() > 0 && i->get() <= kMaxSeconds) ms = static_cast<std::uint64_t>(i->get()) * 1000;
  } else if (const auto* s = n.as_string()) {
    ms = parse_duration_ms(s->get());
    if (!ms) {
      error(n.source(), "malformed duration " + quote(s->get()) + " for " + quote(key) +
                            "; expected seconds or a duration like \"90s\", \"2h\" or \"1h30m\"");
      return;
    }
  } else {
    error(n.source(), "expected a duration like \"2h\" or a number of seconds for " + quote(key) +
                          ", found " + type_name(n));
    return;
  }
  if (!ms || *ms == 0) {
    error(n.source(), quote(key) + " must be a positive duration");
    return;
  }
  *out = item(*ms, n);
}

void Reader::count_value(const toml::node& n, std::string_view key,
                         std::optional<Item<std::uint64_t>>* out) {
  const auto* i = n.as_integer();
  if (!i) {
    error(n.source(), "expected a positive integer for " + quote(key) + ", found " + type_name(n));
  } else if (i->get() < 1) {
    error(n.source(),
          quote(key) + " must be a positive integer, found " + std::to_string(i->get()));
  } else {
    *out = item(static_cast<std::uint64_t>(i->get()), n);
  }
}

void Reader::errno_value(const toml::node& n, std::optional<Item<int>>* out) {
  if (const auto* i = n.as_integer()) {
    if (i->get() >= 1 && i->get() <= kMaxErrno) {
      *out = item(static_cast<int>(i->get()), n);
    } else {
      error(n.source(), "'errno' must be from 1 to 4095, found " + std::to_string(i->get()));
    }
  } else if (const auto* s = n.as_string()) {
    if (auto v = errno_from_name(s->get())) {
      *out = item(*v, n);
    } else {
      error(n.source(), "unknown errno name " + quote(s->get()) + "; expected a number from 1 to " +
                            "4095 or one of " + errno_name_list());
    }
  } else {
    error(n.source(), "expected an errno number or name for 'errno', found " + type_name(n));
  }
}

}  // namespace aj::toml_adapter
