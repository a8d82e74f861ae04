// Finds a profile, follows its `extends` chain, parses every file and merges
// them (plus extra layers such as the command line) into one Policy.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "policy/policy.h"
#include "profile/diagnostic.h"
#include "profile/layer.h"
#include "profile/search.h"
#include "profile/toml_profile.h"

namespace aj {

struct LoadResult {
  std::optional<Policy> policy;         // set only when diagnostics is empty
  std::vector<Diagnostic> diagnostics;  // every problem in every file of the chain
};

// name_or_path is resolved with resolve_profile (a relative path against the
// current directory). `extends` is followed depth-first: each parent (and its
// own parents) is merged before the child, in list order; a file reached
// twice through different branches is merged once, at its first place. An
// `extends` entry that is a relative path is relative to the extending file's
// directory. A cycle or a missing parent is reported at the `extends` entry.
// Diagnostics are grouped per file, the named profile first, then its parents
// in the order they were reached; a file's own are sorted by position.
// extra_layers are merged last, in order (the command line). A "!" removal
// that matches no inherited entry is a diagnostic too (profile/merge.h).
LoadResult load_policy(std::string_view name_or_path, const std::vector<SearchDir>& search,
                       const std::vector<ProfileLayer>& extra_layers,
                       const NameValidator& is_known_syscall_or_group);

// Everything `agentjail check PROFILE` reports: the diagnostics of loading the
// profile and its whole chain, and its removals that match nothing (empty
// when it is valid).
std::vector<Diagnostic> check_profile(std::string_view name_or_path,
                                      const std::vector<SearchDir>& search,
                                      const NameValidator& is_known_syscall_or_group);

// The layers of a profile's chain in merge order, not merged (for `explain`,
// which shows where each value came from). Returns the same diagnostics as
// load_policy minus those of extra layers; *layers is only meaningful when
// none are returned.
std::vector<Diagnostic> load_chain(std::string_view name_or_path,
                                   const std::vector<SearchDir>& search,
                                   const NameValidator& is_known_syscall_or_group,
                                   std::vector<ProfileLayer>* layers);

}  // namespace aj
