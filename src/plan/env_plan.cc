#include "plan/env_plan.h"

#include <algorithm>
#include <set>

namespace aj {
namespace {

// Matched against the upper-cased name. A false positive costs the user one
// line in `pass`; a false negative leaks a credential to a hostile agent, so
// the list is broad on purpose.
constexpr std::string_view kSecretGlobs[] = {
    "*TOKEN*",
    "*SECRET*",
    "*PASSWORD*",
    "*PASSWD*",
    "*PASSPHRASE*",
    "*_KEY",
    "*_KEY_*",
    "*APIKEY*",
    "*API_KEY*",
    "*_ACCESS_KEY*",
    "*CREDENTIAL*",
    "*PRIVATE*",
    "*SESSION*",
    "*AUTH*",
    "*COOKIE*",
    "AWS_*",
    "GITHUB_*",
    "GH_*",
    "GITLAB_*",
    "AZURE_*",
    "*_PAT",
    "NPM_TOKEN",
    "SSH_AUTH_SOCK",             // a socket into the host's ssh-agent
    "DBUS_SESSION_BUS_ADDRESS",  // the host's session bus
    "GOOGLE_APPLICATION_CREDENTIALS",
};

// Exact names that a broad glob above catches but that carry no secret: our
// own session id (set by us anyway) and git's identity (*AUTH* would take it,
// and agents commit). Kept tiny and exact: every entry here is a hole.
constexpr std::string_view kNotSecret[] = {
    "AGENTJAIL_SESSION",
    "GIT_AUTHOR_NAME",
    "GIT_AUTHOR_EMAIL",
    "GIT_AUTHOR_DATE",
};

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

bool keep_matches(const StringList& keep, std::string_view name) {
  return std::any_of(keep.begin(), keep.end(),
                     [&](const Item<std::string>& k) { return env_glob_match(k.value, name); });
}

bool listed_exactly(const StringList& list, std::string_view name) {
  return std::any_of(list.begin(), list.end(),
                     [&](const Item<std::string>& k) { return k.value == name; });
}

}  // namespace

bool env_glob_match(std::string_view glob, std::string_view name) {
  // Iterative matcher with one backtrack point (the last `*`): linear-ish and
  // no recursion, whatever the pattern.
  size_t g = 0, n = 0;
  size_t star = std::string_view::npos, star_n = 0;
  while (n < name.size()) {
    if (g < glob.size() && (glob[g] == '?' || glob[g] == name[n])) {
      ++g;
      ++n;
    } else if (g < glob.size() && glob[g] == '*') {
      star = g++;
      star_n = n;
    } else if (star != std::string_view::npos) {
      g = star + 1;
      n = ++star_n;
    } else {
      return false;
    }
  }
  while (g < glob.size() && glob[g] == '*') ++g;
  return g == glob.size();
}

std::string env_value(const std::vector<std::string>& entries, std::string_view name) {
  for (const auto& e : entries)
    if (e.size() > name.size() && e.compare(0, name.size(), name) == 0 && e[name.size()] == '=')
      return e.substr(name.size() + 1);
  return {};
}

bool env_name_looks_secret(std::string_view name) {
  const std::string up = upper(name);
  for (std::string_view ok : kNotSecret) {
    if (up == ok) return false;
  }
  for (std::string_view pattern : kSecretGlobs) {
    if (env_glob_match(pattern, up)) return true;
  }
  return false;
}

EnvPlan build_env(const EnvironmentPolicy& policy, const std::vector<std::string>& host_environ,
                  std::string_view session_id, const std::map<std::string, std::string>& forced) {
  std::map<std::string, std::string> env;  // sorted by name: deterministic output
  std::set<std::string> dropped;
  for (const std::string& entry : host_environ) {
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) continue;  // not NAME=VALUE
    std::string name = entry.substr(0, eq);
    if (env.count(name) != 0 || dropped.count(name) != 0) continue;  // first wins, as getenv
    if (listed_exactly(policy.pass, name)) {
      env.emplace(std::move(name), entry.substr(eq + 1));
    } else if (keep_matches(policy.keep, name)) {
      if (env_name_looks_secret(name)) {
        dropped.insert(std::move(name));
      } else {
        env.emplace(std::move(name), entry.substr(eq + 1));
      }
    }
  }
  for (const auto& [name, value] : policy.set) env[name] = value.value;
  for (const auto& [name, value] : forced) env[name] = value;
  env.insert_or_assign("AGENTJAIL", std::string(1, '1'));
  env.insert_or_assign("AGENTJAIL_SESSION", std::string(session_id));

  EnvPlan plan;
  plan.entries.reserve(env.size());
  for (const auto& [name, value] : env) plan.entries.push_back(name + "=" + value);
  plan.dropped_secret_names.assign(dropped.begin(), dropped.end());
  return plan;
}

}  // namespace aj
