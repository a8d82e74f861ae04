#include "plan/plan_print.h"

#include <fmt/format.h>

#include "base/utf8.h"

namespace aj {

std::string format_plan(const Plan& plan) {
  std::string out;
  auto line = [&out](std::string_view key, const std::string& value) {
    out += fmt::format("{:<10} {}\n", key, value);
  };
  line("session", plan.session_id);
  line("workspace", plan.workspace.empty() ? "(none)" : plan.workspace + " (read-write)");
  line("cwd", plan.cwd);
  std::string network = "host";
  if (plan.new_netns)
    network = fmt::format("{} (own namespace, loopback only)", to_string(plan.net));
  else if (builtin_seccomp_options(plan).no_inet_sockets)
    network = fmt::format("{} (no namespace: no sockets, socketpair only)", to_string(plan.net));
  line("network", network);
  line("ids", fmt::format("uid {} gid {} ({})", plan.uid, plan.gid,
                          plan.user_namespace ? "mapped to themselves" : "no user namespace"));
  std::string cmd;
  for (const auto& a : plan.argv) cmd += (cmd.empty() ? "" : " ") + a;
  line("command", cmd);
  // Without a mount namespace nothing is mounted: the command sees the
  // host's paths, limited by Landlock to the grants these would have made.
  if (!plan.user_namespace)
    out +=
        "mounts:    none (no mount namespace: the host's own paths, limited by Landlock; "
        "hides and read-only paths inside writable ones are not enforced)\n";
  else
    out += "mounts:\n";
  int i = 0;
  for (const auto& op : plan.user_namespace ? plan.mounts.ops : std::vector<MountOp>{}) {
    std::string where = op.where.file.empty() ? "built in" : op.where.str();
    out += fmt::format("  {:>3}  {:<48} {}{}\n", i++, terminal_safe(op.describe()), where,
                       op.optional ? " (optional)" : "");
  }
  if (!plan.watched.empty()) {
    out += "watched (changes reported when the command ends):\n";
    for (const auto& w : plan.watched)
      out += fmt::format("       {}: {}\n", terminal_safe(w.path), w.why);
  }
  if (!plan.link_watched.empty()) {
    out += "new symbolic links reported beneath:\n";
    for (const auto& w : plan.link_watched)
      out += fmt::format("       {}: {}\n", terminal_safe(w.path), w.why);
  }
  std::string names;
  for (const auto& e : plan.env) names += (names.empty() ? "" : " ") + e.substr(0, e.find('='));
  line("env", names);
  if (!plan.dropped_secret_names.empty()) {
    std::string dropped;
    for (const auto& n : plan.dropped_secret_names) dropped += (dropped.empty() ? "" : " ") + n;
    line("withheld", dropped + " (secret-looking; list in [environment] pass to allow)");
  }
  return out;
}

}  // namespace aj
