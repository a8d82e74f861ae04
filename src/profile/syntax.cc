#include "profile/syntax.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <vector>

#include "policy/variables.h"

namespace aj {
namespace {

bool is_alpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

struct ErrnoName {
  std::string_view name;
  int value;
};

// A small table: the errnos that make sense as a seccomp or policy answer.
constexpr std::array<ErrnoName, 17> kErrnoNames = {{
    {"EPERM", EPERM},
    {"ENOENT", ENOENT},
    {"EIO", EIO},
    {"EAGAIN", EAGAIN},
    {"ENOMEM", ENOMEM},
    {"EACCES", EACCES},
    {"EFAULT", EFAULT},
    {"EBUSY", EBUSY},
    {"EEXIST", EEXIST},
    {"EINVAL", EINVAL},
    {"EROFS", EROFS},
    {"ENOSYS", ENOSYS},
    {"EOPNOTSUPP", EOPNOTSUPP},
    {"ENOTSUP", ENOTSUP},
    {"EAFNOSUPPORT", EAFNOSUPPORT},
    {"ENETUNREACH", ENETUNREACH},
    {"ECONNREFUSED", ECONNREFUSED},
}};

// One DNS label (or IPv4 octet): letters, digits, '-' and '_', 1..63 chars,
// not starting or ending with '-'.
bool is_label(std::string_view label) {
  if (label.empty() || label.size() > 63) return false;
  if (label.front() == '-' || label.back() == '-') return false;
  return std::all_of(label.begin(), label.end(),
                     [](char c) { return is_alpha(c) || is_digit(c) || c == '-' || c == '_'; });
}

bool is_host_name(std::string_view host) {
  if (host.empty() || host.size() > 253) return false;
  size_t i = 0;
  while (true) {
    size_t dot = host.find('.', i);
    std::string_view label = host.substr(i, dot == std::string_view::npos ? dot : dot - i);
    if (!is_label(label)) return false;
    if (dot == std::string_view::npos) return true;
    i = dot + 1;
  }
}

}  // namespace

Result<void> check_profile_path(std::string_view path) {
  const std::string quoted = "'" + std::string(path) + "'";
  if (path.empty()) return fail("empty path");
  AJ_TRY(check_variables(path));
  if (path[0] == '/') return {};
  if (path[0] == '~') {
    if (path.size() == 1 || path[1] == '/') return {};
    return fail(quoted + ": only '~' and '~/...' are supported, not '~user'");
  }
  for (std::string_view var : {"${HOME}", "${WORKSPACE}", "${TMPDIR}", "${STATE}"}) {
    if (path.substr(0, var.size()) == var) return {};
  }
  if (path.substr(0, 10) == "${SESSION}") {
    return fail(quoted + " is not an absolute path: ${SESSION} is a session id, not a directory");
  }
  return fail("relative path " + quoted +
              "; paths must start with '/', '~/' or a variable such as ${WORKSPACE}");
}

Result<std::string> check_host_pattern(std::string_view pattern) {
  const std::string quoted = "'" + std::string(pattern) + "'";
  std::string lower(pattern);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  });
  std::string_view host = lower;
  if (host == "*" || host.substr(0, 2) == "*:") {
    return fail("host pattern " + quoted + " allows every host; use mode = \"host\" instead");
  }
  size_t colon = host.find(':');
  if (colon != std::string_view::npos) {
    std::string_view port = host.substr(colon + 1);
    bool digits = !port.empty() && port.size() <= 5 &&
                  std::all_of(port.begin(), port.end(), [](char c) { return is_digit(c); });
    int value = digits ? std::stoi(std::string(port)) : 0;
    if (value < 1 || value > 65535) {
      return fail("malformed host pattern " + quoted +
                  ": the port must be a number from 1 to 65535");
    }
    host = host.substr(0, colon);
  }
  if (host.substr(0, 2) == "*.") host.remove_prefix(2);
  if (!is_host_name(host)) {
    return fail("malformed host pattern " + quoted +
                "; expected \"host\", \"*.suffix\" or \"host:port\"");
  }
  return lower;
}

bool is_env_name(std::string_view name) {
  if (name.empty() || is_digit(name[0])) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return is_alpha(c) || is_digit(c) || c == '_'; });
}

bool is_env_glob(std::string_view glob) {
  if (glob.empty() || is_digit(glob[0])) return false;
  return std::all_of(glob.begin(), glob.end(), [](char c) {
    return is_alpha(c) || is_digit(c) || c == '_' || c == '*' || c == '?';
  });
}

bool is_profile_name(std::string_view name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return is_alpha(c) || is_digit(c) || c == '.' || c == '_' || c == '-';
  });
}

std::optional<int> errno_from_name(std::string_view name) {
  for (const auto& e : kErrnoNames) {
    if (e.name == name) return e.value;
  }
  return std::nullopt;
}

std::string errno_name_list() {
  std::string out;
  for (const auto& e : kErrnoNames) {
    if (!out.empty()) out += ", ";
    out += e.name;
  }
  return out;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::optional<std::string_view> did_you_mean(std::string_view word,
                                             std::span<const std::string_view> candidates) {
  std::optional<std::string_view> best;
  size_t best_distance = 3;
  for (auto c : candidates) {
    size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace aj
