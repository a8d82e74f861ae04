// Private to the toml++ adapter (toml_profile.cc and toml_reader.cc; nothing
// else may include it): a reader that walks a parsed document section by
// section, turns typed values into Items carrying their source location, and
// collects diagnostics. The schema itself (which keys, which checks) is the
// *_rules functions in toml_profile.cc; toml_reader.cc is generic.
#pragma once

#include <toml++/toml.h>

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "profile/toml_profile.h"

namespace aj::toml_adapter {

inline constexpr std::array<std::string_view, 7> kSections = {
    "profile", "filesystem", "network", "seccomp", "limits", "environment", "journal"};

template <typename E>
struct EnumName {
  std::string_view name;
  E value;
};

std::string quote(std::string_view s);
// "a string", "an integer", ... for the "found ..." part of messages.
std::string type_name(const toml::node& n);
// "a, b, c" with each name wrapped in before/after.
std::string join(std::span<const std::string_view> names, std::string_view before = "",
                 std::string_view after = "");

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

  // Generic walking and typed values (toml_reader.cc). A typed reader stores
  // into *out on success and adds a diagnostic otherwise.
  void read_section(std::string_view section, const toml::table& t, ProfileLayer* out);
  void unknown_key(std::string_view section, const toml::key& k, const std::vector<KeyRule>& rules);
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

  // The schema (toml_profile.cc).
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

template <typename E, size_t N>
void Reader::enum_value(const toml::node& n, std::string_view key,
                        const std::array<EnumName<E>, N>& names, std::optional<Item<E>>* out) {
  std::string valid;
  for (const auto& e : names) valid += (valid.empty() ? "" : ", ") + std::string(e.name);
  const auto* s = n.as_string();
  if (!s) {
    error(n.source(),
          "expected a string for " + quote(key) + " (one of " + valid + "), found " + type_name(n));
    return;
  }
  for (const auto& e : names) {
    if (e.name == s->get()) {
      *out = item(e.value, n);
      return;
    }
  }
  error(n.source(),
        "unknown value " + quote(s->get()) + " for " + quote(key) + "; expected one of " + valid);
}

}  // namespace aj::toml_adapter
