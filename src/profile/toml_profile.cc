#include "profile/toml_profile.h"

#include <toml++/toml.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <limits>
#include <utility>

#include "base/units.h"
#include "policy/layers.h"
#include "profile/syntax.h"

namespace aj {
namespace {

constexpr std::array<std::string_view, 7> kSections = {
    "profile", "filesystem", "network", "seccomp", "limits", "environment", "journal"};

template <typename E>
struct EnumName {
  std::string_view name;
  E value;
};

constexpr std::array<EnumName<WorkspaceMode>, 3> kWorkspaceModes = {
    {{"bind", WorkspaceMode::kBind}, {"overlay", WorkspaceMode::kOverlay},
     {"none", WorkspaceMode::kNone}}};
constexpr std::array<EnumName<NetMode>, 4> kNetModes = {{{"none", NetMode::kNone},
                                                        {"loopback", NetMode::kLoopback},
                                                        {"proxy", NetMode::kProxy},
                                                        {"host", NetMode::kHost}}};
constexpr std::array<EnumName<SeccompDefault>, 2> kSeccompDefaults = {
    {{"allow", SeccompDefault::kAllow}, {"deny", SeccompDefault::kDeny}}};
constexpr std::array<EnumName<SeccompAction>, 3> kSeccompActions = {
    {{"errno", SeccompAction::kErrno}, {"kill", SeccompAction::kKill},
     {"log", SeccompAction::kLog}}};

constexpr int kMaxErrno = 4095;

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

std::string join(std::span<const std::string_view> names, std::string_view before = "",
                 std::string_view after = "") {
  std::string out;
  for (auto n : names) {
    if (!out.empty()) out += ", ";
    out += before;
    out += n;
    out += after;
  }
  return out;
}

// Checks (and possibly normalises) one list entry; the message names the problem.
using EntryCheck = std::function<Result<std::string>(std::string_view)>;

class Reader {
 public:
  Reader(const std::string& file, const NameValidator& names, std::vector<Diagnostic>* diags)
      : file_(file), names_(names), diags_(diags) {}

  using Handler = std::function<void(const toml::node&)>;
  struct KeyRule {
    std::string_view name;
    Handler read;
    bool* reset = nullptr;  // set for lists that `replace` may name
  };

  void read_document(const toml::table& root, ProfileLayer* out);
  std::vector<KeyRule> rules(std::string_view section, ProfileLayer* out);
  void error(const toml::source_region& r, std::string message) {
    diags_->push_back({loc(r), std::move(message)});
  }

 private:
  SourceLoc loc(const toml::source_region& r) const {
    return {file_, static_cast<int>(r.begin.line), static_cast<int>(r.begin.column)};
  }
  template <typename T>
  Item<T> item(T value, const toml::node& n) const {
    return {std::move(value), loc(n.source())};
  }

  void read_section(std::string_view section, const toml::table& t, ProfileLayer* out);
  void unknown_key(std::string_view section, const toml::key& k,
                   const std::vector<KeyRule>& rules);
  std::string home_of(std::string_view key, std::string_view except);
  void read_replace(std::string_view section, const toml::node& n,
                    const std::vector<KeyRule>& rules);

  void string_value(const toml::node& n, std::string_view key,
                    std::optional<Item<std::string>>* out);
  void bool_value(const toml::node& n, std::string_view key, std::optional<Item<bool>>* out);
  template <typename E, size_t N>
  void enum_value(const toml::node& n, std::string_view key,
                  const std::array<EnumName<E>, N>& names, std::optional<Item<E>>* out);
  void string_list(const toml::node& n, std::string_view key, const EntryCheck& check,
                   ListEdit<std::string>* out, bool removals = true);
  void port_list(const toml::node& n, std::string_view key, ListEdit<std::uint16_t>* out);
  void size_value(const toml::node& n, std::string_view key, std::uint64_t min,
                  std::optional<Item<std::uint64_t>>* out);
  void duration_value(const toml::node& n, std::string_view key,
                      std::optional<Item<std::uint64_t>>* out);
  void count_value(const toml::node& n, std::string_view key,
                   std::optional<Item<std::uint64_t>>* out);
  void errno_value(const toml::node& n, std::optional<Item<int>>* out);
  void extends_value(const toml::node& n, StringList* out);
  void env_set(const toml::node& n, ProfileLayer::Environment* out);
  void check_env_conflicts(const ProfileLayer::Environment& env);

  std::vector<KeyRule> profile_rules(ProfileLayer* out);
  std::vector<KeyRule> filesystem_rules(ProfileLayer::Filesystem* fs);
  std::vector<KeyRule> network_rules(ProfileLayer::Network* net);
  std::vector<KeyRule> seccomp_rules(ProfileLayer::Seccomp* sc);
  std::vector<KeyRule> limits_rules(LimitsPolicy* lim);
  std::vector<KeyRule> environment_rules(ProfileLayer::Environment* env);
  std::vector<KeyRule> journal_rules(JournalPolicy* j);

  std::string file_;
  const NameValidator& names_;
  std::vector<Diagnostic>* diags_;
};

// ---- document and sections ----

void Reader::read_document(const toml::table& root, ProfileLayer* out) {
  for (auto&& [key, node] : root) {
    std::string_view name = key.str();
    bool known = std::find(kSections.begin(), kSections.end(), name) != kSections.end();
    if (known) {
      if (const toml::table* t = node.as_table()) {
        read_section(name, *t, out);
      } else {
        error(node.source(), "expected a table for [" + std::string(name) + "], found " +
                                 type_name(node));
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
    auto rule = std::find_if(section_rules.begin(), section_rules.end(),
                             [&](const KeyRule& r) { return r.name == key.str(); });
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

void Reader::bool_value(const toml::node& n, std::string_view key,
                        std::optional<Item<bool>>* out) {
  if (const auto* b = n.as_boolean()) {
    *out = item(b->get(), n);
  } else {
    error(n.source(), "expected true or false for " + quote(key) + ", found " + type_name(n));
  }
}

template <typename E, size_t N>
void Reader::enum_value(const toml::node& n, std::string_view key,
                        const std::array<EnumName<E>, N>& names, std::optional<Item<E>>* out) {
  std::string valid;
  for (const auto& e : names) valid += (valid.empty() ? "" : ", ") + std::string(e.name);
  const auto* s = n.as_string();
  if (!s) {
    error(n.source(), "expected a string for " + quote(key) + " (one of " + valid + "), found " +
                          type_name(n));
    return;
  }
  for (const auto& e : names) {
    if (e.name == s->get()) {
      *out = item(e.value, n);
      return;
    }
  }
  error(n.source(), "unknown value " + quote(s->get()) + " for " + quote(key) +
                        "; expected one of " + valid);
}

void Reader::string_list(const toml::node& n, std::string_view key, const EntryCheck& check,
                         ListEdit<std::string>* out, bool removals) {
  const toml::array* arr = n.as_array();
  if (!arr) {
    error(n.source(),
          "expected an array of strings for " + quote(key) + ", found " + type_name(n));
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
    error(n.source(), "expected an array of port numbers for " + quote(key) + ", found " +
                          type_name(n));
    return;
  }
  for (const toml::node& e : *arr) {
    std::int64_t port = 0;
    bool remove = false;
    if (const auto* i = e.as_integer()) {
      port = i->get();
    } else if (const auto* s = e.as_string(); s && s->get().size() > 1 && s->get()[0] == '!' &&
                                              s->get().size() <= 6 &&
                                              s->get().find_first_not_of("0123456789", 1) ==
                                                  std::string::npos) {
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
    error(n.source(), quote(key) + (min > 0 ? " must be greater than zero" : " must not be negative"));
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
    error(n.source(),
          "expected a positive integer for " + quote(key) + ", found " + type_name(n));
  } else if (i->get() < 1) {
    error(n.source(), quote(key) + " must be a positive integer, found " + std::to_string(i->get()));
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

// ---- section schemas ----

Result<std::string> path_entry(std::string_view text) {
  AJ_TRY(check_profile_path(text));
  return std::string(text);
}

void Reader::extends_value(const toml::node& n, StringList* out) {
  auto add = [&](const toml::node& e) {
    const auto* s = e.as_string();
    if (!s) {
      error(e.source(), "expected a string in 'extends', found " + type_name(e));
      return;
    }
    const std::string& v = s->get();
    bool is_path = v.find('/') != std::string::npos ||
                   (v.size() > 5 && v.compare(v.size() - 5, 5, ".toml") == 0);
    if (!is_path && !is_profile_name(v)) {
      error(e.source(), "invalid profile name " + quote(v) +
                            " in 'extends'; a name is made of letters, digits, '.', '_' and '-' "
                            "(or give a path)");
      return;
    }
    out->push_back(item(v, e));
  };
  if (const toml::array* arr = n.as_array()) {
    for (const toml::node& e : *arr) add(e);
  } else if (n.is_string()) {
    add(n);
  } else {
    error(n.source(), "expected a string or an array of strings for 'extends', found " +
                          type_name(n));
  }
}

std::vector<Reader::KeyRule> Reader::profile_rules(ProfileLayer* out) {
  auto layer = [](std::string_view name) -> Result<std::string> {
    if (is_known_layer(name)) return std::string(name);
    std::vector<std::string_view> names;
    for (const auto& l : known_layers()) names.push_back(l.name);
    if (auto s = did_you_mean(name, names)) {
      return fail("unknown layer " + quote(name) + "; did you mean " + quote(*s) + "?");
    }
    return fail("unknown layer " + quote(name) + "; known layers are " +
                std::string(known_layer_list()));
  };
  return {
      {"extends", [=, this](const toml::node& n) { extends_value(n, &out->extends); }},
      {"description", [=, this](const toml::node& n) { string_value(n, "description", &out->description); }},
      {"require", [=, this](const toml::node& n) { string_list(n, "require", layer, &out->require); },
       &out->require.reset},
  };
}

std::vector<Reader::KeyRule> Reader::filesystem_rules(ProfileLayer::Filesystem* fs) {
  auto list = [this](std::string_view key, ListEdit<std::string>* edit) -> KeyRule {
    return {key, [=, this](const toml::node& n) { string_list(n, key, path_entry, edit); },
            &edit->reset};
  };
  return {
      {"workspace", [=, this](const toml::node& n) { enum_value(n, "workspace", kWorkspaceModes, &fs->workspace); }},
      list("read_only", &fs->read_only), list("read_write", &fs->read_write),
      list("exec", &fs->exec),           list("hide", &fs->hide),
      list("tmpfs", &fs->tmpfs),         list("optional", &fs->optional),
  };
}

std::vector<Reader::KeyRule> Reader::network_rules(ProfileLayer::Network* net) {
  return {
      {"mode", [=, this](const toml::node& n) { enum_value(n, "mode", kNetModes, &net->mode); }},
      {"allow", [=, this](const toml::node& n) { string_list(n, "allow", check_host_pattern, &net->allow); },
       &net->allow.reset},
      {"deny_private", [=, this](const toml::node& n) { bool_value(n, "deny_private", &net->deny_private); }},
      {"tcp_connect", [=, this](const toml::node& n) { port_list(n, "tcp_connect", &net->tcp_connect); },
       &net->tcp_connect.reset},
      {"tcp_bind", [=, this](const toml::node& n) { port_list(n, "tcp_bind", &net->tcp_bind); },
       &net->tcp_bind.reset},
  };
}

std::vector<Reader::KeyRule> Reader::seccomp_rules(ProfileLayer::Seccomp* sc) {
  auto names = [this](std::string_view name) -> Result<std::string> {
    if (name.empty()) return fail("empty syscall name");
    if (names_ && !names_(name)) {
      return fail(std::string(name[0] == '@' ? "unknown syscall group " : "unknown syscall ") +
                  quote(name));
    }
    return std::string(name);
  };
  return {
      {"default", [=, this](const toml::node& n) { enum_value(n, "default", kSeccompDefaults, &sc->default_action); }},
      {"deny", [=, this](const toml::node& n) { string_list(n, "deny", names, &sc->deny); }, &sc->deny.reset},
      {"allow", [=, this](const toml::node& n) { string_list(n, "allow", names, &sc->allow); }, &sc->allow.reset},
      {"action", [=, this](const toml::node& n) { enum_value(n, "action", kSeccompActions, &sc->action); }},
      {"errno", [=, this](const toml::node& n) { errno_value(n, &sc->errno_value); }},
  };
}

std::vector<Reader::KeyRule> Reader::limits_rules(LimitsPolicy* lim) {
  return {
      {"memory", [=, this](const toml::node& n) { size_value(n, "memory", 1, &lim->memory); }},
      {"file_size", [=, this](const toml::node& n) { size_value(n, "file_size", 0, &lim->file_size); }},
      {"processes", [=, this](const toml::node& n) { count_value(n, "processes", &lim->processes); }},
      {"open_files", [=, this](const toml::node& n) { count_value(n, "open_files", &lim->open_files); }},
      {"cpu_time", [=, this](const toml::node& n) { duration_value(n, "cpu_time", &lim->cpu_time_ms); }},
      {"wall_time", [=, this](const toml::node& n) { duration_value(n, "wall_time", &lim->wall_time_ms); }},
  };
}

void Reader::env_set(const toml::node& n, ProfileLayer::Environment* out) {
  const toml::table* t = n.as_table();
  if (!t) {
    error(n.source(), "expected a table of strings for 'set', found " + type_name(n));
    return;
  }
  for (auto&& [key, value] : *t) {
    if (!is_env_name(key.str())) {
      error(key.source(), "invalid environment variable name " + quote(key.str()) + " in 'set'");
    } else if (const auto* s = value.as_string()) {
      out->set.emplace_back(std::string(key.str()), item(s->get(), value));
    } else {
      error(value.source(), "expected a string for 'set." + std::string(key.str()) +
                                "', found " + type_name(value));
    }
  }
}

void Reader::check_env_conflicts(const ProfileLayer::Environment& env) {
  for (const auto& u : env.unset) {
    for (const auto& [name, value] : env.set) {
      if (name != u.value) continue;
      diags_->push_back({u.where, quote(name) + " is both set and unset in [environment]"});
    }
  }
}

std::vector<Reader::KeyRule> Reader::environment_rules(ProfileLayer::Environment* env) {
  auto glob = [](std::string_view s) -> Result<std::string> {
    if (is_env_glob(s)) return std::string(s);
    return fail("invalid environment name or glob " + quote(s) + " in 'keep'");
  };
  auto exact = [](std::string_view key) {
    return [key](std::string_view s) -> Result<std::string> {
      if (is_env_name(s)) return std::string(s);
      return fail("invalid environment variable name " + quote(s) + " in " + quote(key) +
                  (key == "pass" ? "; pass takes exact names, not globs" : ""));
    };
  };
  return {
      {"keep", [=, this](const toml::node& n) { string_list(n, "keep", glob, &env->keep); }, &env->keep.reset},
      {"pass", [=, this](const toml::node& n) { string_list(n, "pass", exact("pass"), &env->pass); },
       &env->pass.reset},
      {"set", [=, this](const toml::node& n) { env_set(n, env); }},
      {"unset",
       [=, this](const toml::node& n) {
         ListEdit<std::string> names;
         string_list(n, "unset", exact("unset"), &names, /*removals=*/false);
         env->unset.insert(env->unset.end(), names.add.begin(), names.add.end());
       }},
  };
}

std::vector<Reader::KeyRule> Reader::journal_rules(JournalPolicy* j) {
  auto flag = [this](std::string_view key, std::optional<Item<bool>>* out) -> KeyRule {
    return {key, [=, this](const toml::node& n) { bool_value(n, key, out); }};
  };
  return {
      {"path",
       [=, this](const toml::node& n) {
         std::optional<Item<std::string>> path;
         string_value(n, "path", &path);
         if (!path) return;
         if (auto ok = check_profile_path(path->value); !ok) {
           error(n.source(), ok.error().render());
           return;
         }
         j->path = std::move(path);
       }},
      flag("exec", &j->exec),         flag("denied", &j->denied), flag("network", &j->network),
      flag("required", &j->required), flag("trace", &j->trace),
  };
}

}  // namespace

ProfileLayer parse_profile_text(std::string_view text, const std::string& file_label,
                                const NameValidator& is_known_syscall_or_group,
                                std::vector<Diagnostic>* diags) {
  ProfileLayer layer;
  layer.file = file_label;
  std::vector<Diagnostic> found;
  Reader reader(file_label, is_known_syscall_or_group, &found);
  try {
    toml::table root = toml::parse(text, std::string_view(file_label));
    reader.read_document(root, &layer);
  } catch (const toml::parse_error& e) {
    reader.error(e.source(), "syntax error: " + std::string(e.description()));
  }
  sort_diagnostics(&found);
  diags->insert(diags->end(), found.begin(), found.end());
  return layer;
}

ProfileLayer parse_profile_file(const std::string& path,
                                const NameValidator& is_known_syscall_or_group,
                                std::vector<Diagnostic>* diags) {
  std::string text;
  int err = 0;
  if (std::FILE* f = std::fopen(path.c_str(), "rbe")) {
    char buf[8192];
    size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    if (std::ferror(f)) err = errno != 0 ? errno : EIO;  // e.g. EISDIR
    std::fclose(f);
  } else {
    err = errno;
  }
  if (err != 0) {
    diags->push_back({{path, 0, 0}, std::string("cannot read profile: ") + std::strerror(err)});
    ProfileLayer layer;
    layer.file = path;
    return layer;
  }
  return parse_profile_text(text, path, is_known_syscall_or_group, diags);
}

std::vector<std::string> profile_schema_keys() {
  std::vector<std::string> out;
  ProfileLayer scratch;
  std::vector<Diagnostic> unused;
  Reader reader("", {}, &unused);
  for (auto section : kSections) {
    bool has_replace = false;
    for (const auto& r : reader.rules(section, &scratch)) {
      out.push_back(std::string(section) + "." + std::string(r.name));
      has_replace = has_replace || r.reset;
    }
    if (has_replace) out.push_back(std::string(section) + ".replace");
  }
  return out;
}

}  // namespace aj
