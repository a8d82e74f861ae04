// `agentjail features`: what this kernel offers, each feature tried.
#include <iostream>

#include "app_commands.h"
#include "base/exit_codes.h"
#include "sys/features.h"
#include "sys/features_format.h"

namespace aj {

int command_features(const CliOptions& o) {
  Features f = probe_features();
  std::cout << (o.json ? format_features_json(f) : format_features_text(f));
  std::cout.flush();
  return std::cout ? 0 : kExitSetupFailed;
}

}  // namespace aj
