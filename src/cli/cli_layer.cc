#include "cli/cli_layer.h"

#include <fmt/format.h>

#include "base/units.h"
#include "policy/layers.h"

namespace aj {
namespace {

SourceLoc from_option(const char* option) {
  return {fmt::format("command line ({})", option), 0, 0};
}

std::string absolute(const std::string& path, const std::string& cwd) {
  if (path.empty() || path[0] == '/' || path[0] == '~' || path[0] == '$') return path;
  return cwd + "/" + path;
}

// "--ro PATH" adds; "--ro '!PATH'" removes an inherited entry, as in a profile.
void add_paths(ListEdit<std::string>& edit, const std::vector<std::string>& paths,
               const char* option, const std::string& cwd) {
  for (const auto& p : paths) {
    if (!p.empty() && p[0] == '!')
      edit.remove.push_back({absolute(p.substr(1), cwd), from_option(option)});
    else
      edit.add.push_back({absolute(p, cwd), from_option(option)});
  }
}

Result<NetMode> parse_net(const std::string& v) {
  if (v == "none") return NetMode::kNone;
  if (v == "loopback") return NetMode::kLoopback;
  if (v == "host") return NetMode::kHost;
  if (v == "proxy") return NetMode::kProxy;
  return fail(fmt::format("--net: unknown mode '{}' (expected none, loopback or host)", v));
}

bool valid_env_name(const std::string& name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name)
    if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
      return false;
  return true;
}

}  // namespace

Result<ProfileLayer> cli_layer(const CliOptions& o, const std::string& cwd) {
  ProfileLayer layer;
  layer.file = "command line";
  add_paths(layer.filesystem.read_only, o.ro, "--ro", cwd);
  add_paths(layer.filesystem.read_write, o.rw, "--rw", cwd);
  add_paths(layer.filesystem.hide, o.hide, "--hide", cwd);
  add_paths(layer.filesystem.tmpfs, o.tmpfs, "--tmpfs", cwd);
  if (o.net) layer.network.mode = Item<NetMode>{AJ_TRY(parse_net(*o.net)), from_option("--net")};
  for (const auto& e : o.env) {
    auto eq = e.find('=');
    std::string name = e.substr(0, eq);
    if (!valid_env_name(name))
      return fail(fmt::format("--env: '{}' is not a valid variable name", name));
    if (eq == std::string::npos)
      layer.environment.pass.add.push_back({name, from_option("--env")});
    else
      layer.environment.set.push_back({name, {e.substr(eq + 1), from_option("--env")}});
  }
  if (o.timeout) {
    auto ms = parse_duration_ms(*o.timeout);
    if (!ms || *ms == 0)
      return fail(fmt::format("--timeout: '{}' is not a duration (e.g. 90s, 2h)", *o.timeout));
    layer.limits.wall_time_ms = Item<std::uint64_t>{*ms, from_option("--timeout")};
  }
  for (const auto& r : o.require) {
    if (!is_known_layer(r)) return fail(fmt::format("--require: unknown layer '{}'", r));
    layer.require.add.push_back({r, from_option("--require")});
  }
  return layer;
}

}  // namespace aj
