#include "app.h"

#include <unistd.h>

#include "app_commands.h"
#include "base/exit_codes.h"
#include "base/log.h"
#include "cli/cli.h"

namespace aj {

int app_main(int argc, char** argv) {
  // A setuid/setgid agentjail would hand the caller's jail the owner's power.
  if (::geteuid() != ::getuid() || ::getegid() != ::getgid()) {
    log::error("refusing to run setuid or setgid: agentjail needs no privileges");
    return kExitSetupFailed;
  }
  CliParse parsed = parse_cli(argc, argv);
  if (!parsed.options) return parsed.exit_code;
  const CliOptions& o = *parsed.options;
  if (o.quiet)
    log::set_level(log::Level::kQuiet);
  else if (o.verbose > 0)
    log::set_level(log::Level::kVerbose);

  switch (o.subcommand) {
    case Subcommand::kRun: return command_run(o);
    case Subcommand::kCheck: return command_check(o);
    case Subcommand::kExplain: return command_explain(o);
    case Subcommand::kFeatures: return command_features(o);
    case Subcommand::kProfiles: return command_profiles(o);
    case Subcommand::kJournal: return command_journal(o);
    case Subcommand::kSessions: return command_sessions(o);
  }
  return kExitSetupFailed;
}

}  // namespace aj
