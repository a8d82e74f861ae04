#include "app_terminal.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <set>

#include "base/log.h"
#include "base/unique_fd.h"
#include "supervise/target.h"

namespace aj {

namespace {

bool is_pipe(int fd) {
  struct stat st;
  return ::fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

// Another process in our process group but our own ancestors (a script
// without job control that runs us waits, and stays in the group): a shell
// puts a pipeline's programs in one. They are placed there before they run,
// so the others are found even when they start after us.
bool others_in_process_group() {
  const UniqueFd proc(::open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!proc) return false;
  std::set<int> ours = {::getpid()};
  for (int p = ::getppid(); p > 1 && ours.insert(p).second;)
    p = process_ids_from_proc(proc.get(), p).ppid;
  const pid_t group = ::getpgrp();
  for (int pid : listed_processes(proc.get()))
    if (!ours.count(pid) && process_group_from_proc(proc.get(), pid) == group) return true;
  return false;
}

}  // namespace

JailTerminal make_jail_terminal(const CliOptions& o) {
  JailTerminal t;
  if (o.dry_run) return t;
  UniqueFd controlling(::open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC));
  if (!controlling) return t;
  // Our output into a pipe: a reader after us (less, a password prompt) may
  // be using the terminal, even one not in our group yet.
  t.job_shared = is_pipe(STDOUT_FILENO) || others_in_process_group();
  if (o.share_terminal || t.job_shared) {
    if (t.job_shared && !o.share_terminal)
      log::info("agentjail is part of a pipeline: the command shares the terminal");
    return t;
  }
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
