// One layer of configuration: a parsed profile file, or the command line.
// Layers are merged in order (profile/merge.h) into a Policy.
//
// Merge rules: scalars set in a later layer override; lists append; an entry
// written "!value" removes an equal inherited entry; a section's
// `replace = ["key", ...]` empties those inherited lists before this layer's
// entries are added.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "policy/policy.h"

namespace aj {

template <typename T>
struct ListEdit {
  bool reset = false;           // named in this section's `replace`
  std::vector<Item<T>> remove;  // "!value" entries, stored without the '!'
  std::vector<Item<T>> add;
};

struct ProfileLayer {
  std::string file;  // the profile's path, or "command line"

  // [profile]
  StringList extends;
  std::optional<Item<std::string>> description;
  ListEdit<std::string> require;

  struct Filesystem {
    std::optional<Item<WorkspaceMode>> workspace;
    ListEdit<std::string> read_only, read_write, exec, hide, tmpfs, optional;
  } filesystem;

  struct Network {
    std::optional<Item<NetMode>> mode;
    ListEdit<std::string> allow;
    std::optional<Item<bool>> deny_private;
    ListEdit<std::uint16_t> tcp_connect, tcp_bind;
  } network;

  struct Seccomp {
    std::optional<Item<SeccompDefault>> default_action;
    ListEdit<std::string> deny, allow;
    std::optional<Item<SeccompAction>> action;
    std::optional<Item<int>> errno_value;
  } seccomp;

  LimitsPolicy limits;  // all scalars: a later layer's value wins

  struct Environment {
    ListEdit<std::string> keep, pass;
    std::vector<std::pair<std::string, Item<std::string>>> set;  // later wins per name
    std::vector<Item<std::string>> unset;  // names removed from an inherited `set`
  } environment;

  JournalPolicy journal;  // all scalars: a later layer's value wins
};

}  // namespace aj
