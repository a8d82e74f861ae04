// git on the host runs what a repository's metadata names: hooks, and
// commands in its config (core.fsmonitor runs on a plain `git status`). Where
// a profile keeps a .git's hooks or config read-only, this finds the rest of
// the metadata that decides which hooks and config git uses, so the plan can
// keep it read-only too, or, where nothing exists yet to bind over, watch it.
#pragma once

#include <string>
#include <vector>

#include "plan/host_facts.h"
#include "plan/mount_plan.h"

namespace aj {

struct GitProtection {
  std::vector<ExpandedPath> read_only;  // to add to the request, as optional paths
  // Directories to bind onto themselves (read-write, optional), so that they
  // cannot be renamed with the read-only binds inside them and others put in
  // their place: .git/modules and each submodule's git directory on the way,
  // .git/worktrees and each worktree's.
  std::vector<ExpandedPath> pinned;
  std::vector<WatchedPath> watched;  // to report changes of (Plan::watched)
  // Git directories beneath which symbolic links made during the session
  // are reported (Plan::link_watched).
  std::vector<WatchedPath> link_roots;
};

// Where the host's git finds the user's config: home (~/.gitconfig,
// ~/.config/git/config, and ~ in paths) and the caller's $XDG_CONFIG_HOME,
// $GIT_CONFIG_GLOBAL and $GIT_CONFIG_SYSTEM (empty when unset).
struct GitUserEnv {
  std::string home;
  std::string xdg_config_home;
  std::string config_global;
  std::string config_system;
};

GitUserEnv git_user_env(const std::string& home, const std::vector<std::string>& environ);

// Where the command may write: the workspace and the profile's other
// writable paths (the claude profile's ~/.claude). Git metadata that names a
// place in them (a .git file's git directory, an include, core.hooksPath)
// names something the command could write.
struct WritableAreas {
  std::string workspace;
  std::vector<std::string> others;

  // Whether p lies inside one of them (and is not one of them itself).
  bool holds(const std::string& p) const;
};

// read_only: the request's read-only paths (expanded); those ending in
// /.git/hooks or /.git/config name the repositories to protect. At most
// kMaxGitDirs git directories are looked at per repository. other_writable:
// the writable paths outside the workspace.
GitProtection protect_git_metadata(const std::vector<ExpandedPath>& read_only, const Disk& disk,
                                   const std::string& workspace, const GitUserEnv& user,
                                   const std::vector<std::string>& other_writable = {});

inline constexpr std::size_t kMaxGitDirs = 512;

struct GitConfigEntry {
  std::string section;  // lower case, without a subsection ("includeif")
  std::string key;      // lower case
  std::string value;    // unquoted, comment cut
};

// Every key = value of a git config file's text, in order.
std::vector<GitConfigEntry> git_config_entries(const std::string& config);

// The settings of a git config file that make git run a program or read more
// config (core.hooksPath, include.path, core.fsmonitor, filters, drivers,
// `!` aliases, ...), each as "section.key = value" (section without its
// subsection), in file order.
std::vector<std::string> git_code_settings(const std::string& config);

// The git directories of the submodules under git_dir/modules (nested ones
// included), found by their HEAD.
std::vector<std::string> submodule_git_dirs(const Disk& disk, const std::string& git_dir);

// The paths of the gitlinks (submodule entries, mode 160000) in the bytes of
// a git index, versions 2 and 3 (empty for anything else): what `git status`
// recurses into, whatever .gitmodules says.
std::vector<std::string> index_gitlinks(const std::string& index);

// Whether path names a git config file: config or config.worktree in a git
// directory, or a file named .gitconfig*.
bool looks_like_git_config(const std::string& path);

// core.<key> from the text of a git config file ("" when not set); key in
// lower case ("worktree", "hookspath").
std::string git_config_core(const std::string& config, const std::string& key);

}  // namespace aj
