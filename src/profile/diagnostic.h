// A problem found in a profile, pinned to where it was written.
#pragma once

#include <string>
#include <vector>

#include "policy/policy.h"

namespace aj {

struct Diagnostic {
  SourceLoc where;
  std::string message;

  // "FILE:LINE:COL: message"; just the message when where is empty.
  std::string str() const;
  bool operator==(const Diagnostic&) const = default;
};

// Orders by file, then line, then column, keeping equal positions in the order
// they were found (toml++ hands out a table's keys sorted, not in file order).
void sort_diagnostics(std::vector<Diagnostic>* diags);

}  // namespace aj
