#include "cli/cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cstring>
#include <iostream>

#include "base/exit_codes.h"
#include "config.h"

namespace aj {
namespace {

constexpr std::array<const char*, 7> kSubcommands = {"run",      "check",   "explain", "features",
                                                     "profiles", "journal", "sessions"};

void add_profile_selection(CLI::App* app, CliOptions& o) {
  app->add_option("-p,--profile", o.profile, "Profile name or path (default: default)")
      ->type_name("NAME|PATH");
  app->add_option("--profile-dir", o.profile_dir, "Look for profiles here first")->type_name("DIR");
}

// The options that are one more policy layer over the profile.
void add_policy_options(CLI::App* app, CliOptions& o) {
  add_profile_selection(app, o);
  app->add_option("-w,--workspace", o.workspace, "Workspace directory (default: current directory)")
      ->type_name("DIR");
  app->add_option("--ro", o.ro, "Also bind PATH read-only")->type_name("PATH");
  app->add_option("--rw", o.rw, "Also bind PATH read-write")->type_name("PATH");
  app->add_option("--hide", o.hide, "Hide PATH behind an empty file or directory")
      ->type_name("PATH");
  app->add_option("--tmpfs", o.tmpfs, "Mount a private tmpfs at PATH")->type_name("PATH");
  app->add_option("--net", o.net, "Network: none (loopback only) or host")
      ->type_name("none|loopback|host");
  app->add_option("-e,--env", o.env, "Pass NAME from the host, or set NAME=VALUE")
      ->type_name("NAME[=VALUE]");
  app->add_option("--timeout", o.timeout, "Wall-clock limit (e.g. 90s, 2h); exit 124")
      ->type_name("DURATION");
  app->add_flag("--no-userns", o.no_userns,
                "Do not use user namespaces (Landlock, seccomp and limits only)");
  app->add_flag("--share-terminal", o.share_terminal,
                "Give the command your terminal itself, not a relayed one of its own");
  app->add_option("--landlock-abi", o.landlock_abi,
                  "Use at most Landlock ABI N, as an older kernel would (0: none)")
      ->type_name("N")
      ->check(CLI::Range(0, 7));
  app->add_option("--require", o.require, "Refuse to start unless LAYER is active")
      ->type_name("LAYER");
  app->add_option("--pass-fd", o.pass_fds, "Keep inherited file descriptor N open")->type_name("N");
}

void add_verbosity(CLI::App* app, CliOptions& o) {
  app->add_flag("-v,--verbose", o.verbose, "More diagnostics (repeatable)");
  app->add_flag("-q,--quiet", o.quiet, "Only errors");
}

struct Apps {
  CLI::App root{"agentjail: run a command inside a setuid-free sandbox", "agentjail"};
  CLI::App* run = nullptr;
  CLI::App* check = nullptr;
  CLI::App* explain = nullptr;
  CLI::App* features = nullptr;
  CLI::App* profiles = nullptr;
  CLI::App* journal = nullptr;
  CLI::App* sessions = nullptr;
};

void define_root(Apps& a) {
  a.root.set_version_flag("--version", std::string("agentjail ") + AJ_VERSION);
  a.root.require_subcommand(0, 1);
  a.root.footer(
      "Usage: agentjail [run] [OPTIONS] [--] COMMAND [ARGS...]\n"
      "The options of run: agentjail run --help\n"
      "Exit status: the command's own; 128+N if it died of signal N; 124 timeout;\n"
      "125 agentjail failed; 126 command not executable; 127 command not found.");
}

void define_run(Apps& a, CliOptions& o) {
  a.run = a.root.add_subcommand("run", "Run COMMAND in the jail (the default subcommand)");
  add_policy_options(a.run, o);
  a.run->add_flag("-n,--dry-run", o.dry_run, "Print the plan and run nothing");
  a.run
      ->add_option("--journal", o.journal_target,
                   "Write the journal to PATH, - (standard output), fd:N, or nowhere")
      ->type_name("PATH|-|fd:N|off");
  a.run->add_flag("--trace", o.trace, "Also journal the file opens the policy denies");
  add_verbosity(a.run, o);
  // The command is split off before CLI11 sees argv (split_command below); this
  // positional only documents it in --help.
  a.run->add_option("command", o.command, "The command and its arguments")
      ->type_name("COMMAND [ARGS...]");
}

void define_check(Apps& a, CliOptions& o) {
  a.check = a.root.add_subcommand("check", "Validate profiles; exit 0 if all are valid");
  a.check->add_option("--profile-dir", o.profile_dir, "Look for profiles here first")
      ->type_name("DIR");
  a.check->add_option("profiles", o.check_profiles, "Profile names or paths")->required();
  add_verbosity(a.check, o);
}

void define_explain(Apps& a, CliOptions& o) {
  a.explain = a.root.add_subcommand("explain", "Show the effective policy and what it assumes");
  add_policy_options(a.explain, o);
  a.explain->add_flag("--json", o.json, "Machine-readable output");
  add_verbosity(a.explain, o);
}

void define_features(Apps& a, CliOptions& o) {
  a.features = a.root.add_subcommand("features", "Show what this kernel offers");
  a.features->add_flag("--json", o.json, "Machine-readable output");
  add_verbosity(a.features, o);
}

void define_profiles(Apps& a, CliOptions& o) {
  a.profiles = a.root.add_subcommand("profiles", "List profiles and where each was found");
  add_profile_selection(a.profiles, o);
  add_verbosity(a.profiles, o);
}

void define_sessions(Apps& a, CliOptions& o) {
  a.sessions = a.root.add_subcommand("sessions", "List recorded sessions, the newest last");
  add_verbosity(a.sessions, o);
}

void define_journal(Apps& a, CliOptions& o) {
  a.journal = a.root.add_subcommand("journal", "Show a session's journal (the newest by default)");
  // --last and a source exclude each other (checked by command_journal: a
  // CLI11 `excludes` would clutter the help's option column).
  a.journal->add_option("source", o.journal_source, "A journal file or a session id (prefix)")
      ->type_name("FILE|SESSION");
  a.journal->add_flag("--last", o.journal_last, "The newest recorded session (the default)");
  a.journal->add_flag("--denied", o.journal_denied, "Only events whose decision is deny");
  // One TYPE per --event: greedy, it would take the session id after it.
  a.journal->add_option("--event", o.journal_events, "Only events of TYPE (repeatable)")
      ->type_name("TYPE")
      ->allow_extra_args(false);
  a.journal->add_flag("-f,--follow", o.journal_follow, "Keep reading until the session ends");
  a.journal->add_flag("--json", o.json, "Print the events' JSON lines");
  add_verbosity(a.journal, o);
}

// Defines the subcommand `name`, or every one for an empty name (the
// top-level help lists them all). Only what is parsed is built: defining
// every option of every subcommand cost about 0.1 ms of each start.
void define(Apps& a, CliOptions& o, std::string_view name = {}) {
  if (name.empty() || name == "run") define_run(a, o);
  if (name.empty() || name == "check") define_check(a, o);
  if (name.empty() || name == "explain") define_explain(a, o);
  if (name.empty() || name == "features") define_features(a, o);
  if (name.empty() || name == "profiles") define_profiles(a, o);
  if (name.empty() || name == "journal") define_journal(a, o);
  if (name.empty() || name == "sessions") define_sessions(a, o);
}

bool is_subcommand(const char* arg) {
  for (const char* s : kSubcommands)
    if (std::strcmp(arg, s) == 0) return true;
  return false;
}

// `agentjail [OPTIONS] COMMAND` means `agentjail run [OPTIONS] COMMAND`.
std::vector<std::string> with_default_subcommand(int argc, const char* const* argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  bool top_level_only =
      !args.empty() && (args[0] == "--help" || args[0] == "-h" || args[0] == "--version");
  if (!args.empty() && !top_level_only && !is_subcommand(args[0].c_str()))
    args.insert(args.begin(), "run");
  return args;
}

// Everything after "--", or from the first argument that is neither an option
// nor an option's value, is the command: `agentjail bash -c 'x'` must not
// treat -c as ours.
std::vector<std::string> split_command(CLI::App* run, std::vector<std::string>& args,
                                       bool* after_dashes) {
  *after_dashes = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      *after_dashes = true;
      std::vector<std::string> cmd(args.begin() + static_cast<long>(i) + 1, args.end());
      args.resize(i);
      return cmd;
    }
    if (a.size() > 1 && a[0] == '-') {
      if (a.find('=') != std::string::npos) continue;  // --opt=value
      const CLI::Option* opt = run->get_option_no_throw(a);
      if (opt && opt->get_expected_min() > 0) ++i;  // skip its value
      continue;
    }
    std::vector<std::string> cmd(args.begin() + static_cast<long>(i), args.end());
    args.resize(i);
    return cmd;
  }
  return {};
}

}  // namespace

CliParse parse_cli(int argc, const char* const* argv) {
  CliOptions o;
  Apps a;
  define_root(a);
  std::vector<std::string> args = with_default_subcommand(argc, argv);
  if (args.empty()) {
    std::cerr << "agentjail: no command given; try 'agentjail --help'\n";
    return {std::nullopt, kExitSetupFailed};
  }
  std::vector<std::string> command;
  if (!is_subcommand(args[0].c_str())) {
    define(a, o);  // --help or --version
  } else if (args[0] != "run") {
    define(a, o, args[0]);
  } else {
    define(a, o, "run");
    bool after_dashes = false;
    bool implied_run = argc > 1 && std::string_view(argv[1]) != "run";
    command = split_command(a.run, args, &after_dashes);
    // `agentjail -v check default`: options first, then a subcommand. To run
    // a program that is called like a subcommand, put it after "--".
    if (implied_run && !after_dashes && !command.empty() && command[0] != "run" &&
        is_subcommand(command[0].c_str())) {
      args[0] = command[0];
      args.insert(args.end(), command.begin() + 1, command.end());
      command.clear();
      define(a, o, args[0]);
    }
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes the vector reversed
  try {
    a.root.parse(args);
  } catch (const CLI::CallForHelp& e) {
    return {std::nullopt, a.root.exit(e)};
  } catch (const CLI::CallForAllHelp& e) {
    return {std::nullopt, a.root.exit(e)};
  } catch (const CLI::CallForVersion& e) {
    return {std::nullopt, a.root.exit(e)};
  } catch (const CLI::ParseError& e) {
    std::cerr << "agentjail: " << e.what() << "; try 'agentjail --help'\n";
    return {std::nullopt, kExitSetupFailed};
  }
  auto parsed = [](const CLI::App* app) { return app != nullptr && app->parsed(); };
  if (parsed(a.run)) {
    o.subcommand = Subcommand::kRun;
    o.command = std::move(command);
    if (o.command.empty()) {
      std::cerr << "agentjail: no command given; try 'agentjail --help'\n";
      return {std::nullopt, kExitSetupFailed};
    }
  } else if (parsed(a.check)) {
    o.subcommand = Subcommand::kCheck;
  } else if (parsed(a.explain)) {
    o.subcommand = Subcommand::kExplain;
  } else if (parsed(a.features)) {
    o.subcommand = Subcommand::kFeatures;
  } else if (parsed(a.profiles)) {
    o.subcommand = Subcommand::kProfiles;
  } else if (parsed(a.journal)) {
    o.subcommand = Subcommand::kJournal;
  } else if (parsed(a.sessions)) {
    o.subcommand = Subcommand::kSessions;
  }
  return {std::move(o), 0};
}

std::string cli_help(const std::string& subcommand) {
  CliOptions o;
  Apps a;
  define_root(a);
  define(a, o);
  if (subcommand.empty()) return a.root.help();
  return a.root.get_subcommand(subcommand)->help();
}

}  // namespace aj
