// Human-readable rendering of a Plan (for --dry-run). Never prints values of
// environment variables: a passed credential must not land in a terminal log.
#pragma once

#include <string>

#include "plan/plan.h"

namespace aj {

std::string format_plan(const Plan& plan);

}  // namespace aj
