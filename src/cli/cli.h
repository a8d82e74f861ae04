// Command-line parsing (the only CLI11 user). Produces plain values; the
// policy-shaped options become one more ProfileLayer (cli_layer.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace aj {

enum class Subcommand { kRun, kCheck, kExplain, kFeatures, kProfiles, kJournal, kSessions };

struct CliOptions {
  Subcommand subcommand = Subcommand::kRun;

  // Profile selection and policy overrides (run, explain).
  std::optional<std::string> profile;
  std::optional<std::string> profile_dir;
  std::optional<std::string> workspace;
  std::vector<std::string> ro, rw, hide, tmpfs, env, require;
  std::optional<std::string> net;
  std::optional<std::string> timeout;
  bool no_userns = false;
  bool share_terminal = false;      // the jail shares the caller's terminal (no relay)
  std::optional<int> landlock_abi;  // use at most this Landlock ABI (as on an older kernel)
  std::vector<int> pass_fds;

  bool dry_run = false;
  bool json = false;
  int verbose = 0;
  bool quiet = false;

  std::vector<std::string> command;         // run: COMMAND [ARGS...]
  std::vector<std::string> check_profiles;  // check: PROFILE...

  // run: where the journal goes (PATH, "-" or "fd:N"), and trace mode.
  std::optional<std::string> journal_target;
  bool trace = false;

  // journal [FILE|SESSION|--last] [--denied] [--event TYPE] [--follow] [--json]
  std::optional<std::string> journal_source;  // empty (or journal_last): the newest session
  bool journal_last = false;
  bool journal_denied = false;
  std::vector<std::string> journal_events;
  bool journal_follow = false;
};

struct CliParse {
  std::optional<CliOptions> options;  // empty: exit with exit_code (help, version, error)
  int exit_code = 0;
};

// Parses argv. "--help" and "--version" print and yield exit code 0; a usage
// error prints one line and yields 125, agentjail's own-failure code.
CliParse parse_cli(int argc, const char* const* argv);

// The text of `agentjail --help` for each subcommand (for the docs lint test).
std::string cli_help(const std::string& subcommand);

}  // namespace aj
