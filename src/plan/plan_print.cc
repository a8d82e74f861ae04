#include "plan/plan_print.h"

#include <fmt/format.h>

#include "base/json.h"
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

namespace {

std::string json_watched(const std::vector<WatchedPath>& list) {
  std::string out = "[";
  for (const auto& w : list)
    out += fmt::format("{}{{\"path\":{},\"why\":{}}}", out.size() > 1 ? "," : "",
                       json_string(w.path), json_string(w.why));
  return out + "]";
}

std::string json_strings(const std::vector<std::string>& list) {
  std::string out = "[";
  for (const auto& s : list) out += (out.size() > 1 ? "," : "") + json_string(s);
  return out + "]";
}

}  // namespace

std::string plan_json_members(const Plan& plan) {
  std::string mounts = "[";
  // Without a mount namespace nothing is mounted (see format_plan).
  for (const auto& op : plan.user_namespace ? plan.mounts.ops : std::vector<MountOp>{})
    mounts += fmt::format("{}{{\"op\":{},\"rule\":{},\"optional\":{}}}",
                          mounts.size() > 1 ? "," : "", json_string(op.describe()),
                          json_string(op.where.file.empty() ? "built in" : op.where.str()),
                          op.optional ? "true" : "false");
  mounts += "]";
  std::vector<std::string> env;
  for (const auto& e : plan.env) env.push_back(e.substr(0, e.find('=')));
  return fmt::format(
      "\"session\":{},\"cwd\":{},\"user_namespace\":{},\"ids\":{{\"uid\":{},\"gid\":{},"
      "\"mapped_to_themselves\":{}}},\"command\":{},\"mounts\":{},\"watched\":{},"
      "\"links_watched\":{},\"env\":{},\"withheld\":{}",
      json_string(plan.session_id), json_string(plan.cwd), plan.user_namespace ? "true" : "false",
      plan.uid, plan.gid, plan.user_namespace ? "true" : "false", json_strings(plan.argv), mounts,
      json_watched(plan.watched), json_watched(plan.link_watched), json_strings(env),
      json_strings(plan.dropped_secret_names));
}

}  // namespace aj
