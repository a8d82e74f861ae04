#include "launch/descendants.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>

#include "base/digits.h"

namespace aj {
namespace {

// Appends the pids in `path` (a /proc/.../children file: "12 34 ") to pids
// (up to max); returns the new count.
int append_pids(const char* path, pid_t* pids, int count, int max) noexcept {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return count;
  char buf[4096];
  ssize_t got = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  pid_t cur = 0;
  bool in_num = false;
  for (ssize_t i = 0; i <= (got > 0 ? got : 0); ++i) {
    const bool digit = i < got && buf[i] >= '0' && buf[i] <= '9';
    if (digit) {
      cur = cur * 10 + (buf[i] - '0');
      in_num = true;
    } else if (in_num) {
      if (count < max) pids[count++] = cur;
      cur = 0;
      in_num = false;
    }
  }
  return count;
}

// Appends the children of every thread of process pid (0: this process).
int append_children(pid_t pid, pid_t* pids, int count, int max) noexcept {
  char task_dir[64] = "/proc/self";
  char* end = task_dir + 10;
  if (pid != 0) end = write_unsigned(task_dir + 6, static_cast<std::uint64_t>(pid));
  std::memcpy(end, "/task", 6);
  end += 5;
  int fd = ::open(task_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return count;
  // struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, name.
  constexpr std::size_t kNameOffset = 19;
  alignas(8) char ents[4096];
  long got;
  while ((got = ::syscall(SYS_getdents64, fd, ents, sizeof ents)) > 0) {
    for (long off = 0; off < got;) {
      unsigned short reclen;
      std::memcpy(&reclen, ents + off + 16, sizeof reclen);
      const char* name = ents + off + kNameOffset;
      off += reclen;
      const std::size_t len = std::strlen(name);
      if (name[0] < '0' || name[0] > '9' || len > 20) continue;
      char path[128];
      const auto dir_len = static_cast<std::size_t>(end - task_dir);
      std::memcpy(path, task_dir, dir_len);
      path[dir_len] = '/';
      std::memcpy(path + dir_len + 1, name, len);
      std::memcpy(path + dir_len + 1 + len, "/children", 10);
      count = append_pids(path, pids, count, max);
    }
  }
  ::close(fd);
  return count;
}

}  // namespace

// Without a PID namespace the kernel will not end the session for us. Each
// round finds every descendant (children of children, through each thread's
// /proc children list; the deepest ones are our children anyway once their
// parents die, as we are the subreaper), kills them all, and reaps; until
// none is left. A process with SIGKILL pending cannot fork, so every round
// leaves only what was forked before it, and a chain of any depth ends in a
// few rounds.
void kill_descendants() noexcept {
  constexpr int kMax = 4096;
  pid_t pids[kMax];
  while (true) {
    int n = append_children(0, pids, 0, kMax);
    if (n == 0) return;
    for (int i = 0; i < n && n < kMax; ++i) n = append_children(pids[i], pids, n, kMax);
    for (int i = 0; i < n; ++i) ::kill(pids[i], SIGKILL);
    int status;
    int reaped = 0;
    while (::waitpid(-1, &status, WNOHANG) > 0) ++reaped;
    if (reaped == 0) {
      // Still dying, or not yet handed to us: let them.
      struct timespec ms = {0, 1000000};
      ::nanosleep(&ms, nullptr);
    }
  }
}

}  // namespace aj
