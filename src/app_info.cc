// `agentjail check` and `agentjail profiles`.
#include <fmt/format.h>

#include <iostream>

#include "app_commands.h"
#include "base/exit_codes.h"
#include "base/log.h"
#include "profile/loader.h"
#include "seccomp/filter.h"
#include "seccomp/names.h"

namespace aj {

int command_check(const CliOptions& o) {
  auto search = profile_search_path(o);
  int bad = 0;
  for (const auto& name : o.check_profiles) {
    auto diags = check_profile(name, search, seccomp_name_is_known);
    if (diags.empty()) {
      // What only the merged policy shows (a [seccomp] deny of execve).
      auto loaded = load_policy(name, search, {}, seccomp_name_is_known);
      auto seccomp = loaded.policy ? check_seccomp_policy(loaded.policy->seccomp) : Result<void>{};
      if (loaded.diagnostics.empty() && seccomp) {
        log::warn("{}: ok", name);
        continue;
      }
      diags = std::move(loaded.diagnostics);
      if (!seccomp) std::cerr << seccomp.error().render() << '\n';
    }
    ++bad;
    print_diagnostics(diags);
  }
  if (bad) log::error("{} of {} profiles invalid", bad, o.check_profiles.size());
  return bad ? kExitCheckFailed : 0;
}

int command_profiles(const CliOptions& o) {
  for (const auto& p : list_profiles(profile_search_path(o))) {
    std::cout << fmt::format("{:<16} {:<12} {}{}\n", p.name, p.label, p.path,
                             p.shadowed ? " (shadowed)" : "");
  }
  return 0;
}

}  // namespace aj
