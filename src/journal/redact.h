// Keeps secrets out of the journal: credential-looking parts of a string
// (API tokens, auth headers, --password=..., URL passwords) and the exact
// values of secrets the session was given become "[REDACTED]". Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace aj {

inline constexpr std::string_view kRedacted = "[REDACTED]";

// What ends a string the supervisor read only the start of (its cap on one
// string): a secret may then stand there cut short.
inline constexpr std::string_view kCutMarker = "...[+more bytes]";

// Replaces every credential-looking part of s: tokens with a known prefix
// (sk-, ghp_/gho_/ghs_/ghu_/ghr_, github_pat_, glpat-, AKIA/ASIA key ids,
// xox?-, AIza, npm_), JWTs (eyJ...x.y.z), the credential after "Bearer " or
// "Basic ", the value of --password=/--token=/--secret=/--api-key= (and
// similar option names) and of NAME=VALUE words whose NAME ends in TOKEN,
// SECRET, PASSWORD, API_KEY..., and the password in scheme://user:password@.
std::string redact_arg(std::string_view s);

// redact_arg on each element, and also the element after a bare secret option
// (`--password hunter2`, `--token X`).
std::vector<std::string> redact_argv(const std::vector<std::string>& argv);

// True for an option name whose value is a secret: --password, --token,
// --api-key, --client-secret, ... (with or without the leading dashes).
bool is_secret_option(std::string_view name);

// The exact secret values of one session (values of passed secret variables),
// plus the patterns above.
class Redactor {
 public:
  // Values shorter than this are too likely to occur by chance to be removed.
  static constexpr std::size_t kMinSecretLength = 6;

  // Ignores values shorter than kMinSecretLength; duplicates are harmless.
  void add_secret(std::string_view value);
  // The value of every "NAME=VALUE" entry whose NAME looks like a secret
  // (env_name_looks_secret), e.g. the command's environment from the plan.
  void add_secret_environment(const std::vector<std::string>& entries);
  std::size_t secret_count() const { return secrets_.size(); }

  // Exact secrets first (longest first, so one secret inside another goes
  // entirely), and the start of one that ends the text (before kCutMarker,
  // if any: the rest was cut off), then redact_arg.
  std::string redact(std::string_view s) const;
  std::vector<std::string> redact_argv(const std::vector<std::string>& argv) const;

 private:
  std::string remove_secrets(std::string_view s) const;
  static std::string remove_cut_secret(const std::string& s, const std::string& secret);
  std::vector<std::string> secrets_;  // longest first
};

}  // namespace aj
