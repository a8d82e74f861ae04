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
};

// read_only: the request's read-only paths (expanded); those ending in
// /.git/hooks or /.git/config name the repositories to protect. At most
// kMaxGitDirs git directories are looked at per repository.
// home: the user's, for their git config (~/.gitconfig) and for ~ in paths.
GitProtection protect_git_metadata(const std::vector<ExpandedPath>& read_only, const Disk& disk,
                                   const std::string& workspace, const std::string& home);

inline constexpr std::size_t kMaxGitDirs = 512;

struct GitConfigEntry {
  std::string section;  // lower case, without a subsection ("includeif")
  std::string key;      // lower case
  std::string value;    // unquoted, comment cut
};

// Every key = value of a git config file's text, in order.
std::vector<GitConfigEntry> git_config_entries(const std::string& config);

// core.<key> from the text of a git config file ("" when not set); key in
// lower case ("worktree", "hookspath").
std::string git_config_core(const std::string& config, const std::string& key);

}  // namespace aj
