#include "app_terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include "base/log.h"
#include "base/unique_fd.h"

namespace aj {

JailTerminal make_jail_terminal(const CliOptions& o) {
  JailTerminal t;
  if (o.share_terminal || o.dry_run) return t;
  UniqueFd controlling(::open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC));
  if (!controlling) return t;
  const pid_t session = ::getsid(0);
  for (int fd = 0; fd < 3; ++fd)
    if (::isatty(fd) && ::tcgetsid(fd) == session) t.stdio |= 1U << fd;
  // In the background (&), the terminal's settings are the job's that
  // holds it (a shell's line editor: no echo, no line editing): the
  // kernel's defaults are the better start.
  const bool foreground = ::tcgetpgrp(controlling.get()) == ::getpgrp();
  auto pair = open_pty_pair(controlling.get(), foreground);
  if (!pair) {
    log::warn("cannot make a terminal of the jail's own ({}): the command shares yours",
              pair.error().render());
    t.stdio = 0;
    return t;
  }
  t.pty = std::move(*pair);
  return t;
}

}  // namespace aj
