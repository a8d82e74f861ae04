// The filesystem stage of the child: executes the mount plan inside the new
// mount namespace and pivots into the result. Allocation-free.
#pragma once

#include "launch/child_spec.h"

namespace aj {

struct ChildFailure {
  ChildStage stage;
  int index;
  int err;
};

// Returns true on success; on failure fills *failure.
bool build_filesystem(const ChildSpec& spec, ChildFailure* failure) noexcept;

}  // namespace aj
