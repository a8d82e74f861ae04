#include "app_terminal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <set>

#include "base/log.h"
#include "base/unique_fd.h"
#include "sys/read_file.h"

namespace aj {

namespace {

bool is_pipe(int fd) {
  struct stat st;
  return ::fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

// A process's parent and process group, from /proc/PID/stat.
bool parent_and_group(pid_t pid, pid_t* parent, pid_t* group) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
  const auto stat = read_file(path);
  // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
  const std::size_t close = stat ? stat->rfind(')') : std::string::npos;
  char state = 0;
  int ppid = 0, pgrp = 0;
  if (close == std::string::npos ||
      std::sscanf(stat->c_str() + close + 1, " %c %d %d", &state, &ppid, &pgrp) != 3)
    return false;
  *parent = ppid;
  *group = pgrp;
  return true;
}

// Another process in our process group but our own ancestors (a script
// without job control that runs us waits, and stays in the group): a shell
// puts a pipeline's programs in one. They are placed there before they run,
// so the others are found even when they start after us.
bool others_in_process_group() {
  const pid_t group = ::getpgrp();
  std::set<pid_t> ours = {::getpid()};
  for (pid_t p = ::getppid(), parent, g; p > 1 && ours.insert(p).second;)
    p = parent_and_group(p, &parent, &g) ? parent : 0;
  DIR* dir = ::opendir("/proc");
  if (!dir) return false;
  bool found = false;
  while (const struct dirent* e = ::readdir(dir)) {
    if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
    const pid_t pid = static_cast<pid_t>(std::atoi(e->d_name));
    pid_t parent = 0, pgrp = 0;
    if (!ours.count(pid) && parent_and_group(pid, &parent, &pgrp) && pgrp == group) {
      found = true;
      break;
    }
  }
  ::closedir(dir);
  return found;
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
