// `agentjail check` and `agentjail profiles`.
#include <fmt/format.h>

#include <iostream>

#include "app_commands.h"
#include "base/exit_codes.h"
#include "base/log.h"
#include "journal/summary.h"
#include "profile/loader.h"
#include "seccomp/filter.h"
#include "seccomp/names.h"

namespace aj {

namespace {

enum class Verdict { kOk, kNotHere, kRefused };

// What run would make of a valid profile. Settings not enforced yet: it
// refuses them anywhere. Then the jail this host and directory would get is
// built, and what stops it printed (a path missing and not optional, a
// shared directory as the workspace, a required layer this host lacks): a
// problem of this place, not of the profile.
Verdict as_run_here(const CliOptions& o, const std::string& name, const Policy& policy) {
  const auto refused = not_yet_enforced(policy);
  for (const auto& r : refused) std::cerr << display_safe(r) << '\n';
  if (!refused.empty()) return Verdict::kRefused;
  CliOptions as_run = o;
  as_run.profile = name;
  const auto prepared = prepare(as_run);
  if (!prepared) return Verdict::kNotHere;
  const auto missing =
      missing_required(prepared->policy, prepared->plan, session_cgroup_possible(prepared->plan));
  for (const auto& m : missing) std::cerr << display_safe(m) << '\n';
  return missing.empty() ? Verdict::kOk : Verdict::kNotHere;
}

}  // namespace

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
        switch (as_run_here(o, name, *loaded.policy)) {
          case Verdict::kOk: log::warn("{}: ok", name); continue;
          case Verdict::kNotHere:
            log::warn("{}: valid, but run would refuse it on this host in this directory (above)",
                      name);
            continue;
          case Verdict::kRefused:
            log::error("{}: asks for protection this version cannot enforce; run refuses it", name);
            ++bad;
            continue;
        }
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
  const auto search = profile_search_path(o);
  const auto found = list_profiles(search);
  if (found.empty()) {
    // A copied binary finds neither the source tree's nor installed ones.
    std::string where;
    for (const auto& d : search) where += (where.empty() ? "" : ", ") + d.path;
    log::warn(
        "no profiles found (looked in: {}); install agentjail (meson install) or use "
        "--profile-dir",
        where);
  }
  for (const auto& p : found) {
    std::cout << fmt::format("{:<16} {:<14} {}{}\n", p.name, p.label, p.path,
                             p.shadowed ? " (shadowed)" : "");
  }
  return 0;
}

}  // namespace aj
