#include "sys/pty.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>

namespace aj {

Result<PtyPair> open_pty_pair(int like, bool copy_settings) {
  PtyPair pair;
  pair.master.reset(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK));
  if (!pair.master) return sys_error("open", "/dev/ptmx", errno);
  if (::grantpt(pair.master.get()) != 0) return sys_error("grantpt", "/dev/ptmx", errno);
  if (::unlockpt(pair.master.get()) != 0) return sys_error("unlockpt", "/dev/ptmx", errno);
  // Through the master, not by name: the name could be another devpts's.
  pair.slave.reset(::ioctl(pair.master.get(), TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (!pair.slave) return sys_error("ioctl TIOCGPTPEER", "/dev/ptmx", errno);
  char name[PATH_MAX];
  if (::ptsname_r(pair.master.get(), name, sizeof name) != 0)
    return sys_error("ptsname", "/dev/ptmx", errno);
  pair.slave_path = name;
  struct termios settings;
  if (like >= 0 && copy_settings && ::tcgetattr(like, &settings) == 0)
    ::tcsetattr(pair.slave.get(), TCSANOW, &settings);
  struct winsize size;
  if (like >= 0 && ::ioctl(like, TIOCGWINSZ, &size) == 0)
    ::ioctl(pair.master.get(), TIOCSWINSZ, &size);
  return pair;
}

}  // namespace aj
