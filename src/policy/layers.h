// The enforcement layers a profile may `require` (or `--require` on the command
// line): agentjail refuses to start when a required layer is not active.
#pragma once

#include <span>
#include <string_view>

namespace aj {

struct LayerInfo {
  std::string_view name;
  std::string_view description;
};

// In documentation order.
std::span<const LayerInfo> known_layers();
bool is_known_layer(std::string_view name);
// "userns, landlock, ..." for error messages.
std::string_view known_layer_list();

}  // namespace aj
