#include "policy/variables.h"

#include <vector>

namespace aj {
namespace {

constexpr std::string_view kKnownList = "${HOME}, ${WORKSPACE}, ${TMPDIR}, ${STATE}, ${SESSION}";

const std::string* lookup(const Variables& vars, std::string_view name) {
  if (name == "HOME") return &vars.home;
  if (name == "WORKSPACE") return &vars.workspace;
  if (name == "TMPDIR") return &vars.tmpdir;
  if (name == "STATE") return &vars.state;
  if (name == "SESSION") return &vars.session;
  return nullptr;
}

// Calls on_text for literal runs and on_var for each ${NAME}; stops at the first
// syntax error. Keeps check_variables and expand_variables in agreement.
template <typename OnText, typename OnVar>
Result<void> scan(std::string_view raw, OnText on_text, OnVar on_var) {
  size_t i = 0;
  while (i < raw.size()) {
    size_t open = raw.find("${", i);
    if (open == std::string_view::npos) {
      on_text(raw.substr(i));
      break;
    }
    on_text(raw.substr(i, open - i));
    size_t close = raw.find('}', open + 2);
    if (close == std::string_view::npos) {
      return fail("unterminated '${' in '" + std::string(raw) + "'");
    }
    std::string_view name = raw.substr(open + 2, close - open - 2);
    if (!is_known_variable(name)) {
      return fail("unknown variable '${" + std::string(name) + "}'; known variables are " +
                  std::string(kKnownList));
    }
    AJ_TRY(on_var(name));
    i = close + 1;
  }
  return {};
}

}  // namespace

bool is_known_variable(std::string_view name) {
  for (auto known : kVariableNames) {
    if (known == name) return true;
  }
  return false;
}

Result<void> check_variables(std::string_view raw) {
  return scan(
      raw, [](std::string_view) {}, [](std::string_view) -> Result<void> { return {}; });
}

Result<std::string> expand_variables(std::string_view raw, const Variables& vars) {
  std::string out;
  auto append_var = [&](std::string_view name) -> Result<void> {
    const std::string* value = lookup(vars, name);
    if (value == nullptr || value->empty()) {
      return fail("variable '${" + std::string(name) + "}' has no value here");
    }
    out += *value;
    return {};
  };
  if (!raw.empty() && raw[0] == '~') {
    if (raw.size() > 1 && raw[1] != '/') {
      return fail("'" + std::string(raw) + "': only '~' and '~/...' are supported, not '~user'");
    }
    AJ_TRY(append_var("HOME"));
    raw.remove_prefix(1);
  }
  AJ_TRY(scan(
      raw, [&](std::string_view text) { out += text; }, append_var));
  return out;
}

std::string normalize_path(std::string_view path) {
  const bool absolute = !path.empty() && path[0] == '/';
  std::vector<std::string_view> parts;
  size_t i = 0;
  while (i <= path.size()) {
    size_t slash = path.find('/', i);
    if (slash == std::string_view::npos) slash = path.size();
    std::string_view part = path.substr(i, slash - i);
    i = slash + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..") {
        parts.pop_back();
      } else if (!absolute) {
        parts.push_back(part);  // a relative path may climb above its start
      }
      continue;
    }
    parts.push_back(part);
  }
  std::string out = absolute ? "/" : "";
  for (size_t k = 0; k < parts.size(); ++k) {
    if (k > 0) out += '/';
    out += parts[k];
  }
  if (out.empty()) out = ".";
  return out;
}

// The planner asks path_is_within thousands of times with such paths, so
// they skip the copies.
bool is_clean_absolute(std::string_view s) {
  if (s.empty() || s[0] != '/') return false;
  if (s.size() == 1) return true;
  if (s.back() == '/') return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '/') continue;
    std::string_view rest = s.substr(i + 1);
    if (rest.empty() || rest[0] == '/') return false;
    if (rest == "." || rest.rfind("./", 0) == 0) return false;
    if (rest == ".." || rest.rfind("../", 0) == 0) return false;
  }
  return true;
}

bool path_is_within(std::string_view path, std::string_view dir) {
  if (is_clean_absolute(path) && is_clean_absolute(dir)) {
    if (dir == "/") return true;
    if (path.size() < dir.size() || path.compare(0, dir.size(), dir) != 0) return false;
    return path.size() == dir.size() || path[dir.size()] == '/';
  }
  std::string p = normalize_path(path);
  std::string d = normalize_path(dir);
  if ((p[0] == '/') != (d[0] == '/')) return false;
  if (d == "/") return true;
  if (d == ".") return p != ".." && p.rfind("../", 0) != 0;
  if (p.size() < d.size() || p.compare(0, d.size(), d) != 0) return false;
  return p.size() == d.size() || p[d.size()] == '/';
}

}  // namespace aj
