// Rendering of a Plan: readable (for --dry-run and explain) or JSON. Never prints values of
// environment variables: a passed credential must not land in a terminal log.
#pragma once

#include <string>

#include "plan/plan.h"

namespace aj {

std::string format_plan(const Plan& plan);

// The same facts as JSON object members (no braces): "session", "cwd",
// "user_namespace", "ids", "command", "mounts", "watched", "links_watched",
// "env" and "withheld" (names only).
std::string plan_json_members(const Plan& plan);

}  // namespace aj
