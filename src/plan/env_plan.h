// The payload's environment: cleared, then rebuilt from the policy's
// allowlist. Pure: the host environment comes in as a list of strings.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "policy/policy.h"

namespace aj {

struct EnvPlan {
  std::vector<std::string> entries;               // "NAME=VALUE", sorted by name
  std::vector<std::string> dropped_secret_names;  // for the report: names only, never values
};

// Rules, in increasing precedence:
//   1. a host variable whose name matches a `keep` entry (exact or glob) is
//      copied, unless its name looks like a secret;
//   2. a host variable named exactly in `pass` is copied whatever it looks like
//      (absent on the host: absent inside);
//   3. `set` entries (written by the profile author, not taken from the host);
//   4. `forced` entries the plan decides (HOME, TMPDIR, ...);
//   5. AGENTJAIL=1 and AGENTJAIL_SESSION=<session_id>.
// A secret-looking name listed in `keep` by its exact name is still dropped:
// `keep` lists are routinely copied between profiles and extended by globs, so
// `pass` is the one explicit door through which a credential enters, and
// auditing a profile's `pass` list finds every one of them.
EnvPlan build_env(const EnvironmentPolicy& policy, const std::vector<std::string>& host_environ,
                  std::string_view session_id, const std::map<std::string, std::string>& forced);

// The value of NAME among "NAME=VALUE" entries; empty when it is not there.
std::string env_value(const std::vector<std::string>& entries, std::string_view name);

// Whether a variable name looks like it holds a credential (case-insensitive).
bool env_name_looks_secret(std::string_view name);

// Shell-style glob over a whole name: `*` matches any run, `?` one character.
// Case-sensitive, like variable names. No character classes.
bool env_glob_match(std::string_view glob, std::string_view name);

}  // namespace aj
