// The policy-shaped command-line options as one more ProfileLayer, merged
// after the profile chain (same schema, applied last).
#pragma once

#include <string>

#include "base/error.h"
#include "cli/cli.h"
#include "profile/layer.h"

namespace aj {

// Relative paths are taken relative to cwd; "~" and ${VARS} are kept for the
// planner to expand like profile values.
Result<ProfileLayer> cli_layer(const CliOptions& options, const std::string& cwd);

}  // namespace aj
