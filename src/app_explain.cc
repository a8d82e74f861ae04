// `agentjail explain` and `agentjail features` (filled in below).
#include <iostream>

#include "app_commands.h"
#include "base/exit_codes.h"
#include "plan/plan_print.h"

namespace aj {

int command_explain(const CliOptions& o) {
  auto prepared = prepare(o);
  if (!prepared) return kExitSetupFailed;
  std::cout << format_plan(prepared->plan);
  return 0;
}

int command_features(const CliOptions&) { return 0; }

}  // namespace aj
