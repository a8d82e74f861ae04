// The jail's terminal: with a controlling terminal, one of its own that the
// supervisor relays (supervise/terminal_relay.h), unless --share-terminal
// asks for the caller's itself, or no pseudo-terminal can be made.
#pragma once

#include <optional>

#include "cli/cli.h"
#include "sys/pty.h"

namespace aj {

struct JailTerminal {
  std::optional<PtyPair> pty;  // made: the jail gets a terminal of its own
  unsigned stdio = 0;          // bit N: descriptor N is the controlling terminal
  // agentjail is one of several programs of its job (a pipeline): the
  // terminal is theirs too, so it is neither made raw nor, at the end,
  // given back settings another of them may have set since.
  bool job_shared = false;
};

// Nothing without a controlling terminal, with --share-terminal or --dry-run,
// or in a pipeline (job_shared: the relay's raw mode would be forced on the
// others, a password prompt's among them). A pair that cannot be made is
// warned about. Without a pair the jail shares the caller's terminal, under
// the terminal guard (supervise/terminal_guard.h).
JailTerminal make_jail_terminal(const CliOptions& o);

}  // namespace aj
