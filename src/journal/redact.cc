#include "journal/redact.h"

#include <algorithm>
#include <array>
#include <optional>

#include "plan/env_plan.h"

namespace aj {
namespace {

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
char to_lower(char c) { return is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c; }

bool alnum_only(char c) { return is_alnum(c); }
bool alnum_underscore(char c) { return is_alnum(c) || c == '_'; }
bool alnum_dash(char c) { return is_alnum(c) || c == '-'; }
bool alnum_underscore_dash(char c) { return is_alnum(c) || c == '_' || c == '-'; }
bool upper_digit(char c) { return is_upper(c) || is_digit(c); }
// RFC 7235 token68: what follows "Bearer " or "Basic ".
bool token68(char c) {
  return is_alnum(c) || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=' ||
         c == '-';
}

// A token that starts with a well-known credential prefix.
struct PrefixRule {
  std::string_view prefix;
  bool (*body_char)(char);
  std::size_t min_body;
  std::size_t exact_body;  // 0: any length from min_body
  bool needs_digit;        // keeps long hyphenated words (sk-learn-...) out
};

constexpr std::array<PrefixRule, 21> kPrefixRules = {{
    {"sk-", alnum_underscore_dash, 20, 0, true},  // OpenAI, Anthropic (sk-ant-, sk-proj-)
    {"sk_live_", alnum_only, 16, 0, false},       // Stripe
    {"sk_test_", alnum_only, 16, 0, false},
    {"rk_live_", alnum_only, 16, 0, false},
    {"ghp_", alnum_only, 20, 0, false},  // GitHub
    {"gho_", alnum_only, 20, 0, false},
    {"ghs_", alnum_only, 20, 0, false},
    {"ghu_", alnum_only, 20, 0, false},
    {"ghr_", alnum_only, 20, 0, false},
    {"github_pat_", alnum_underscore, 20, 0, false},
    {"glpat-", alnum_underscore_dash, 20, 0, false},  // GitLab
    {"AKIA", upper_digit, 16, 16, false},             // AWS access key ids
    {"ASIA", upper_digit, 16, 16, false},
    {"xoxb-", alnum_dash, 10, 0, false},  // Slack
    {"xoxa-", alnum_dash, 10, 0, false},
    {"xoxp-", alnum_dash, 10, 0, false},
    {"xoxr-", alnum_dash, 10, 0, false},
    {"xoxs-", alnum_dash, 10, 0, false},
    {"AIza", alnum_underscore_dash, 30, 0, false},  // Google API keys
    {"npm_", alnum_only, 30, 0, false},
    {"hf_", alnum_only, 30, 0, false},  // Hugging Face
}};

constexpr std::array<std::string_view, 3> kAuthSchemes = {"bearer", "basic", "token"};

// A match at some position: the first `keep` characters stay, the rest up to
// `end` becomes [REDACTED].
struct Match {
  std::size_t keep = 0;
  std::size_t end = 0;
};

std::size_t run_end(std::string_view s, std::size_t i, bool (*ok)(char)) {
  while (i < s.size() && ok(s[i])) ++i;
  return i;
}

// The value after "=": up to whitespace, or a whole quoted string.
std::size_t value_end(std::string_view s, std::size_t i) {
  if (i < s.size() && (s[i] == '"' || s[i] == '\'')) {
    std::size_t close = s.find(s[i], i + 1);
    return close == std::string_view::npos ? s.size() : close + 1;
  }
  while (i < s.size() && !is_space(s[i])) ++i;
  return i;
}

bool starts_with_ci(std::string_view s, std::size_t i, std::string_view word) {
  if (s.size() - i < word.size()) return false;
  for (std::size_t k = 0; k < word.size(); ++k)
    if (to_lower(s[i + k]) != word[k]) return false;
  return true;
}

// Whether what follows an auth scheme looks like a credential rather than a
// word of prose ("Basic authentication" must survive).
bool credential_like(std::string_view c) {
  if (c.size() < 8) return false;
  if (c.size() >= 24) return true;
  bool digit = false, symbol = false, inner_upper = false, lower = false;
  for (std::size_t k = 0; k < c.size(); ++k) {
    digit |= is_digit(c[k]);
    symbol |= c[k] == '+' || c[k] == '/' || c[k] == '=' || c[k] == '_';
    inner_upper |= k > 0 && is_upper(c[k]);
    lower |= is_lower(c[k]);
  }
  return digit || symbol || (inner_upper && lower);
}

// --password=VALUE and friends (keeps "--password=").
std::optional<Match> match_option(std::string_view s, std::size_t i) {
  if (s.compare(i, 2, "--") != 0 || i + 2 >= s.size() || !is_alnum(s[i + 2])) return {};
  if (i > 0 && (is_alnum(s[i - 1]) || s[i - 1] == '-')) return {};
  std::size_t name_end = run_end(s, i + 2, alnum_underscore_dash);
  if (name_end >= s.size() || s[name_end] != '=') return {};
  if (!is_secret_option(s.substr(i, name_end - i))) return {};
  std::size_t end = value_end(s, name_end + 1);
  if (end == name_end + 1) return {};
  return Match{name_end + 1 - i, end};
}

// GITHUB_TOKEN=VALUE, as in `env GITHUB_TOKEN=... cmd` (keeps "NAME=").
std::optional<Match> match_assignment(std::string_view s, std::size_t i) {
  if (!(is_upper(s[i]) || s[i] == '_')) return {};
  if (i > 0 && alnum_underscore(s[i - 1])) return {};
  std::size_t name_end = run_end(s, i, [](char c) { return upper_digit(c) || c == '_'; });
  if (name_end >= s.size() || s[name_end] != '=') return {};
  if (!env_name_looks_secret(s.substr(i, name_end - i))) return {};
  std::size_t end = value_end(s, name_end + 1);
  if (end == name_end + 1) return {};
  return Match{name_end + 1 - i, end};
}

// "Bearer X", "Basic X", "token X" (keeps the scheme and the spaces).
std::optional<Match> match_auth(std::string_view s, std::size_t i) {
  if (i > 0 && is_alnum(s[i - 1])) return {};
  for (std::string_view scheme : kAuthSchemes) {
    if (!starts_with_ci(s, i, scheme)) continue;
    std::size_t c = i + scheme.size();
    std::size_t start = c;
    while (c < s.size() && (s[c] == ' ' || s[c] == '\t')) ++c;
    if (c == start) return {};
    std::size_t end = run_end(s, c, token68);
    if (!credential_like(s.substr(c, end - c))) return {};
    return Match{c - i, end};
  }
  return {};
}

// eyJ...header.payload.signature
std::optional<Match> match_jwt(std::string_view s, std::size_t i, std::size_t& failed_until) {
  if (i < failed_until || s.compare(i, 3, "eyJ") != 0) return {};
  std::size_t a = run_end(s, i, alnum_underscore_dash);
  std::size_t b = a < s.size() && s[a] == '.' ? run_end(s, a + 1, alnum_underscore_dash) : a;
  std::size_t c =
      b < s.size() && s[b] == '.' && b > a ? run_end(s, b + 1, alnum_underscore_dash) : b;
  if (a - i >= 10 && b - a > 4 && c > b) return Match{0, c};
  // A later "eyJ" inside the first segment has the same payload and signature
  // and a shorter header: it fails too (keeps the scan linear).
  failed_until = a;
  return {};
}

std::optional<Match> match_prefix(std::string_view s, std::size_t i,
                                  std::array<std::size_t, kPrefixRules.size()>& failed_until) {
  for (std::size_t r = 0; r < kPrefixRules.size(); ++r) {
    const PrefixRule& rule = kPrefixRules[r];
    if (i < failed_until[r] || s.compare(i, rule.prefix.size(), rule.prefix) != 0) continue;
    std::size_t body = i + rule.prefix.size();
    std::size_t end = run_end(s, body, rule.body_char);
    std::size_t n = end - body;
    bool ok = rule.exact_body ? n == rule.exact_body && (end == s.size() || !is_alnum(s[end]))
                              : n >= rule.min_body;
    if (ok && rule.needs_digit) ok = std::any_of(s.begin() + body, s.begin() + end, is_digit);
    if (ok) return Match{0, end};
    // Any later start inside this run is a shorter suffix of it: it fails too.
    // Remembering that keeps the scan linear on hostile input.
    failed_until[r] = end;
  }
  return {};
}

// scheme://user:password@host -> scheme://user:[REDACTED]@host
std::string redact_url_passwords(std::string_view s) {
  std::string out;
  std::size_t copied = 0;
  for (std::size_t p = s.find("://"); p != std::string_view::npos; p = s.find("://", p + 3)) {
    std::size_t start = p + 3;
    std::size_t end = start;
    while (end < s.size() && !is_space(s[end]) && s[end] != '/' && s[end] != '?' && s[end] != '#' &&
           s[end] != '"' && s[end] != '\'')
      ++end;
    std::size_t at = s.substr(start, end - start).rfind('@');
    if (at == std::string_view::npos) continue;
    at += start;
    std::size_t colon = s.substr(start, at - start).find(':');
    if (colon == std::string_view::npos || start + colon + 1 == at) continue;
    colon += start;
    out.append(s.substr(copied, colon + 1 - copied));
    out += kRedacted;
    copied = at;
  }
  out.append(s.substr(copied));
  return out;
}

// The characters a match can start with, so most positions are passed over
// at the cost of one lookup (this runs on every exec's journal line).
constexpr std::array<bool, 256> match_starts() {
  std::array<bool, 256> t{};
  t['-'] = t['_'] = t['e'] = t['b'] = t['t'] = true;  // options, jwt, auth schemes
  for (char c = 'A'; c <= 'Z'; ++c) t[static_cast<unsigned char>(c)] = true;  // NAME=
  for (const PrefixRule& rule : kPrefixRules) t[static_cast<unsigned char>(rule.prefix[0])] = true;
  return t;
}
constexpr std::array<bool, 256> kMatchStarts = match_starts();

std::optional<Match> match_at(std::string_view s, std::size_t i, std::size_t& jwt_failed,
                              std::array<std::size_t, kPrefixRules.size()>& prefix_failed) {
  if (!kMatchStarts[static_cast<unsigned char>(s[i])]) return {};
  std::optional<Match> m = match_option(s, i);
  if (!m) m = match_assignment(s, i);
  if (!m) m = match_auth(s, i);
  if (!m) m = match_jwt(s, i, jwt_failed);
  if (!m) m = match_prefix(s, i, prefix_failed);
  return m;
}

std::string redact_patterns(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::array<std::size_t, kPrefixRules.size()> prefix_failed{};
  std::size_t jwt_failed = 0;
  for (std::size_t i = 0; i < s.size();) {
    // Matches start at a word boundary: here, or just past the next
    // character that is not alphanumeric. What lies between is kept.
    const bool boundary = i == 0 || !is_alnum(s[i - 1]);
    std::optional<Match> m;
    if (boundary) m = match_at(s, i, jwt_failed, prefix_failed);
    if (!m) {
      std::size_t next = i;
      while (next < s.size() && is_alnum(s[next])) ++next;
      next = std::min(next + 1, s.size());
      out.append(s.substr(i, next - i));
      i = next;
      continue;
    }
    out.append(s.substr(i, m->keep));
    out += kRedacted;
    i = m->end;
  }
  return out;
}

}  // namespace

bool is_secret_option(std::string_view name) {
  while (!name.empty() && name.front() == '-') name.remove_prefix(1);
  std::string n;
  for (char c : name) n += c == '_' ? '-' : to_lower(c);
  static constexpr std::string_view kSecretNames[] = {
      "password", "passwd", "passphrase", "pass",       "token",       "secret",
      "api-key",  "apikey", "access-key", "secret-key", "private-key", "auth-token",
  };
  for (std::string_view w : kSecretNames) {
    if (n == w) return true;
    // --db-password, --github-token, --client-secret; not --max-tokens.
    if (n.size() > w.size() && n.compare(n.size() - w.size(), w.size(), w) == 0 &&
        n[n.size() - w.size() - 1] == '-')
      return true;
  }
  return false;
}

namespace {

// A string the supervisor read only the start of ends in kCutMarker; a token
// with a well-known prefix cut there is too short for its rule, but is one:
// what stands of it after the prefix goes.
std::string redact_cut_token(std::string s) {
  if (!std::string_view(s).ends_with(kCutMarker)) return s;
  const std::size_t body_end = s.size() - kCutMarker.size();
  for (const PrefixRule& rule : kPrefixRules) {
    const std::size_t at = s.rfind(rule.prefix, body_end);
    if (at == std::string::npos || at + rule.prefix.size() >= body_end) continue;
    const std::size_t from = at + rule.prefix.size();
    if (run_end(std::string_view(s).substr(0, body_end), from, rule.body_char) != body_end)
      continue;
    s.replace(from, body_end - from, kRedacted);
    return s;
  }
  return s;
}

}  // namespace

std::string redact_arg(std::string_view s) {
  return redact_cut_token(redact_patterns(redact_url_passwords(s)));
}

std::vector<std::string> redact_argv(const std::vector<std::string>& argv) {
  std::vector<std::string> out;
  out.reserve(argv.size());
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& prev = i > 0 ? argv[i - 1] : std::string();
    bool after_secret_option = prev.size() > 1 && prev[0] == '-' &&
                               prev.find('=') == std::string::npos && is_secret_option(prev);
    out.push_back(after_secret_option ? std::string(kRedacted) : redact_arg(argv[i]));
  }
  return out;
}

void Redactor::add_secret(std::string_view value) {
  if (value.size() < kMinSecretLength) return;
  if (std::find(secrets_.begin(), secrets_.end(), value) != secrets_.end()) return;
  secrets_.emplace_back(value);
  std::stable_sort(secrets_.begin(), secrets_.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
}

void Redactor::add_secret_environment(const std::vector<std::string>& entries) {
  for (const std::string& entry : entries) {
    std::size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    if (env_name_looks_secret(std::string_view(entry).substr(0, eq)))
      add_secret(std::string_view(entry).substr(eq + 1));
  }
}

std::string Redactor::remove_secrets(std::string_view s) const {
  std::string cur(s);
  for (const std::string& secret : secrets_) {
    std::size_t pos = cur.find(secret);
    if (pos == std::string::npos) continue;
    std::string next;
    std::size_t copied = 0;
    for (; pos != std::string::npos; pos = cur.find(secret, pos + secret.size())) {
      next.append(cur, copied, pos - copied);
      next += kRedacted;
      copied = pos + secret.size();
    }
    next.append(cur, copied);
    cur = std::move(next);
  }
  for (const std::string& secret : secrets_) cur = remove_cut_secret(cur, secret);
  return cur;
}

std::string Redactor::remove_cut_secret(const std::string& s, const std::string& secret) {
  std::string_view body = s;
  if (body.ends_with(kCutMarker)) body.remove_suffix(kCutMarker.size());
  const std::string_view head = std::string_view(secret).substr(0, kMinSecretLength);
  for (std::size_t pos = body.find(head); pos != std::string_view::npos;
       pos = body.find(head, pos + 1)) {
    const std::size_t tail = body.size() - pos;
    if (tail < secret.size() && std::string_view(secret).substr(0, tail) == body.substr(pos))
      return std::string(s.substr(0, pos)) + std::string(kRedacted) + s.substr(body.size());
  }
  return s;
}

std::string Redactor::redact(std::string_view s) const { return redact_arg(remove_secrets(s)); }

std::vector<std::string> Redactor::redact_argv(const std::vector<std::string>& argv) const {
  std::vector<std::string> removed;
  removed.reserve(argv.size());
  for (const std::string& a : argv) removed.push_back(remove_secrets(a));
  return aj::redact_argv(removed);
}

}  // namespace aj
