#pragma once

namespace aj {
// Parses argv, runs the chosen subcommand, returns the process exit code.
int app_main(int argc, char** argv);
}  // namespace aj
