// Trace mode's question, answered from the plan alone: would the policy let
// the command open this path (inside the jail's view) for reading or writing,
// and which rule decides? Pure; the supervisor asks it for every open.
#pragma once

#include <string>

#include "plan/plan.h"

namespace aj {

struct AccessDecision {
  bool allowed = true;
  std::string rule;    // the profile item (file:line:col), "built in", or "not granted"
  std::string reason;  // for a denial: "hidden", "read-only", "not in the view"
};

// path: absolute and normalized, as seen inside the jail.
AccessDecision check_open(const Plan& plan, const std::string& path, bool write);

}  // namespace aj
