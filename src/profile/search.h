// Where profiles are found by name. Never the workspace or the current
// directory: a hostile repository must not be able to loosen its own jail.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"

namespace aj {

struct SearchDir {
  std::string path;
  std::string label;  // "--profile-dir", "user", "system", "installed", "source tree"
  bool operator==(const SearchDir&) const = default;
};

// Everything the search path depends on, so tests can inject it.
struct SearchInputs {
  std::optional<std::string> profile_dir;      // --profile-dir
  std::optional<std::string> xdg_config_home;  // $XDG_CONFIG_HOME
  std::optional<std::string> home;             // $HOME
  bool in_build_tree = false;                  // add the source tree's profiles/
};

// In order: --profile-dir, $XDG_CONFIG_HOME/agentjail/profiles (when set and
// absolute, else $HOME/.config/agentjail/profiles), /etc/agentjail/profiles,
// AJ_DATADIR/profiles, and AJ_SOURCE_PROFILES when in_build_tree.
std::vector<SearchDir> make_search_path(const SearchInputs& in);

// The real environment ($XDG_CONFIG_HOME, $HOME) plus the given options.
SearchInputs search_inputs_from_env(std::optional<std::string> profile_dir, bool in_build_tree);

// True when exe_dir is a meson build directory (it holds build.ninja), i.e.
// agentjail runs uninstalled and should also look in the source profiles/.
bool is_build_tree(const std::string& exe_dir);

// Finds a profile:
// - an argument containing '/' or ending in ".toml" is a path; a relative one
//   is taken relative to relative_to_dir (or as given when that is empty);
//   it must name an existing regular file;
// - otherwise it is a bare name ([A-Za-z0-9._-]+) looked up as NAME.toml in
//   each search directory in order; the first regular file wins. A candidate
//   equal to `exclude` (the profile doing the extending) is skipped, so a user
//   profile "default.toml" may say extends = "default" to build on the
//   shadowed system one.
Result<std::string> resolve_profile(std::string_view name_or_path,
                                    const std::vector<SearchDir>& search,
                                    std::string_view relative_to_dir,
                                    std::string_view exclude = {});

struct FoundProfile {
  std::string name;  // file name without ".toml"
  std::string path;
  std::string label;      // the SearchDir's label
  bool shadowed = false;  // an earlier directory has a profile of the same name
  bool operator==(const FoundProfile&) const = default;
};

// Every *.toml regular file in the search path, sorted by name and, for equal
// names, in search order (the first is the one used; later ones are shadowed).
// Missing or unreadable directories are skipped.
std::vector<FoundProfile> list_profiles(const std::vector<SearchDir>& search);

}  // namespace aj
