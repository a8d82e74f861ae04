#include "profile/search.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "config.h"
#include "profile/syntax.h"

namespace aj {
namespace {

namespace fs = std::filesystem;

bool is_regular_file(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

bool same_file(const std::string& a, std::string_view b) {
  if (b.empty()) return false;
  std::error_code ec;
  return fs::equivalent(a, fs::path(b), ec) && !ec;
}

bool ends_with_toml(std::string_view s) {
  return s.size() >= 5 && s.substr(s.size() - 5) == ".toml";
}

std::string join_dirs(const std::vector<SearchDir>& search) {
  std::string out;
  for (const auto& d : search) {
    if (!out.empty()) out += ", ";
    out += d.path;
  }
  return out;
}

}  // namespace

std::vector<SearchDir> make_search_path(const SearchInputs& in) {
  std::vector<SearchDir> out;
  if (in.profile_dir && !in.profile_dir->empty()) out.push_back({*in.profile_dir, "--profile-dir"});
  // The XDG spec says a relative $XDG_CONFIG_HOME is invalid and to be ignored.
  if (in.xdg_config_home && !in.xdg_config_home->empty() && (*in.xdg_config_home)[0] == '/') {
    out.push_back({*in.xdg_config_home + "/agentjail/profiles", "user"});
  } else if (in.home && !in.home->empty() && (*in.home)[0] == '/') {
    out.push_back({*in.home + "/.config/agentjail/profiles", "user"});
  }
  out.push_back({"/etc/agentjail/profiles", "system"});
  out.push_back({std::string(AJ_DATADIR) + "/profiles", "installed"});
  if (in.in_build_tree) out.push_back({AJ_SOURCE_PROFILES, "source tree"});
  return out;
}

SearchInputs search_inputs_from_env(std::optional<std::string> profile_dir, bool in_build_tree) {
  SearchInputs in;
  in.profile_dir = std::move(profile_dir);
  if (const char* v = std::getenv("XDG_CONFIG_HOME")) in.xdg_config_home = v;
  if (const char* v = std::getenv("HOME")) in.home = v;
  in.in_build_tree = in_build_tree;
  return in;
}

bool is_build_tree(const std::string& exe_dir) { return is_regular_file(exe_dir + "/build.ninja"); }

Result<std::string> resolve_profile(std::string_view name_or_path,
                                    const std::vector<SearchDir>& search,
                                    std::string_view relative_to_dir, std::string_view exclude) {
  std::string arg(name_or_path);
  if (arg.find('/') != std::string::npos || ends_with_toml(arg)) {
    std::string path = arg;
    if (arg[0] != '/' && !relative_to_dir.empty()) path = std::string(relative_to_dir) + "/" + arg;
    if (!is_regular_file(path)) return fail("profile file '" + path + "' not found");
    return path;
  }
  if (!is_profile_name(arg)) {
    return fail("invalid profile name '" + arg +
                "': a name is made of letters, digits, '.', '_' and '-' (or give a path)");
  }
  for (const auto& dir : search) {
    std::string candidate = dir.path + "/" + arg + ".toml";
    if (is_regular_file(candidate) && !same_file(candidate, exclude)) return candidate;
  }
  return fail("profile '" + arg + "' not found in " + join_dirs(search));
}

std::vector<FoundProfile> list_profiles(const std::vector<SearchDir>& search) {
  std::vector<FoundProfile> out;
  for (const auto& dir : search) {
    std::error_code ec;
    std::vector<FoundProfile> here;
    for (fs::directory_iterator it(dir.path, ec), end; !ec && it != end; it.increment(ec)) {
      std::string file = it->path().filename().string();
      std::string path = dir.path + "/" + file;
      if (!ends_with_toml(file) || !is_regular_file(path)) continue;
      std::string name = file.substr(0, file.size() - 5);
      if (!is_profile_name(name)) continue;  // resolve_profile could not load it by name
      here.push_back({name, path, dir.label, false});
    }
    std::sort(here.begin(), here.end(),
              [](const FoundProfile& a, const FoundProfile& b) { return a.name < b.name; });
    for (auto& p : here) {
      p.shadowed = std::any_of(out.begin(), out.end(),
                               [&](const FoundProfile& o) { return o.name == p.name; });
      out.push_back(std::move(p));
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const FoundProfile& a, const FoundProfile& b) { return a.name < b.name; });
  return out;
}

}  // namespace aj
