// Layers (profiles in `extends` order, then the command line) -> one Policy.
// Pure.
#pragma once

#include <vector>

#include "policy/policy.h"
#include "profile/diagnostic.h"
#include "profile/layer.h"

namespace aj {

// Applies each layer in order over the defaults of Policy:
// - a scalar set in a layer overrides the value so far (with its location);
// - a list first drops everything inherited when the section's `replace`
//   names it, then drops inherited entries equal to a "!value" removal, then
//   appends its entries, skipping values already present (the first one, and
//   its location, is kept). Equality is on the value as written: "~/.ssh" and
//   "${HOME}/.ssh" are different entries, and a removal that matches no
//   inherited entry is added to `unmatched` (when given) as an error with a
//   hint at an entry spelt differently;
// - environment.set: `unset` names are removed from the inherited table, then
//   this layer's `set` entries override per name;
// - `extends` and the file name do not merge: policy.chain lists each layer's
//   file in order.
Policy merge_layers(const std::vector<ProfileLayer>& layers,
                    std::vector<Diagnostic>* unmatched = nullptr);

}  // namespace aj
