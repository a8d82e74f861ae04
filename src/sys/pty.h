// A new pseudo-terminal pair: the jail's own terminal, whose master the
// supervisor keeps (supervise/terminal_relay.h).
#pragma once

#include <string>

#include "base/error.h"
#include "base/unique_fd.h"

namespace aj {

struct PtyPair {
  UniqueFd master;         // non-blocking
  UniqueFd slave;          // opened through the master (TIOCGPTPEER)
  std::string slave_path;  // /dev/pts/N of the host's devpts
};

// Opens a pair from /dev/ptmx. The slave starts with the window size of
// `like` (a terminal, or -1 for the kernel's defaults) and, with
// copy_settings, its settings too, so the command finds the terminal as the
// user had it (not when another job holds it: they would be that job's).
Result<PtyPair> open_pty_pair(int like, bool copy_settings);

}  // namespace aj
