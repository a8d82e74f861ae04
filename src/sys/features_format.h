// Rendering a Features report: a human table and one JSON object. Pure (no
// system headers): tests feed it made-up Features.
#pragma once

#include <string>
#include <vector>

#include "sys/features.h"

namespace aj {

// What a Landlock ABI offers, cumulative: "fs" (1), "refer" (2), "truncate"
// (3), "tcp" (4), "ioctl_dev" (5), "scope_abstract_unix", "scope_signal" (6),
// "logging" (7). Empty for ABI 0.
std::vector<std::string> landlock_feature_names(int abi);

// "EPERM (Operation not permitted)"; "" for 0.
std::string errno_text(int err);

// Why a failed user-namespace attempt (caller or unprivileged) failed, from
// the errno and the sysctls; "" when it worked or no known cause fits.
std::string userns_explanation(const Features& f, const FeatureAttempt& a);

// Why a failed overlay attempt failed; "" when it worked or no known cause fits.
std::string overlay_explanation(const FeatureAttempt& a);

struct FeatureRow {
  std::string name;
  std::string status;
  std::string detail;
  bool operator==(const FeatureRow&) const = default;
};

// One row per feature, in a fixed order: kernel, user namespaces (and as uid
// 65534 when root), landlock, seccomp filter, seccomp user notification,
// cgroups, overlay (and as uid 65534), tiocsti.
std::vector<FeatureRow> feature_rows(const Features& f);

// The rows as aligned columns "name  status  detail", one per line.
std::string format_features_text(const Features& f);

// One JSON object (ends with a newline). "user_namespaces" comes first and its
// first boolean, "available", answers for the invoking user.
std::string format_features_json(const Features& f);

}  // namespace aj
