#include "supervise/jail_path.h"

#include <errno.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "base/unique_fd.h"
#include "policy/variables.h"
#include "sys/mount_api.h"
#include "sys/read_file.h"

namespace aj {
namespace {

constexpr int kMaxLinks = 40;         // the kernel's MAXSYMLINKS
constexpr int kMaxComponents = 2048;  // PATH_MAX worth of one-letter names

int open_in(int dir, const std::string& path, std::uint64_t flags, std::uint64_t resolve) {
  return sys::openat2(dir, path.c_str(), flags | O_CLOEXEC, resolve);
}

// Pushes the components of path onto todo so that the first comes off first.
void push_components(const std::string& path, std::vector<std::string>* todo) {
  std::vector<std::string> parts;
  std::size_t i = 0;
  while (i < path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    if (j > i) parts.push_back(path.substr(i, j - i));
    i = j + 1;
  }
  todo->insert(todo->end(), parts.rbegin(), parts.rend());
}

// The last number of a /proc/PID/status line ("NSpid:\t12\t3"): the id in
// the innermost PID namespace.
std::string innermost_id(const std::string& status, std::string_view key) {
  const std::size_t at = status.find(std::string(key) + ":");
  if (at == std::string::npos) return {};
  const std::size_t end = status.find('\n', at);
  const std::string line = status.substr(at, end == std::string::npos ? end : end - at);
  const std::size_t last = line.find_last_of(" \t");
  return last == std::string::npos ? std::string() : line.substr(last + 1);
}

// What "self" or "thread-self" in /proc names for the thread tid, relative
// to /proc and as its own PID namespace numbers it ("12", "12/task/13").
// Empty when tid is gone or the name is another.
std::string own_entry_in_proc(std::string_view self, int tid) {
  if (self != "self" && self != "thread-self") return {};
  const std::string status = read_file(fmt::format("/proc/{}/status", tid)).value_or("");
  const std::string tgid = innermost_id(status, "NStgid"), id = innermost_id(status, "NSpid");
  if (tgid.empty() || id.empty()) return {};
  return self == "self" ? tgid : tgid + "/task/" + id;
}

// dir is the root of a proc filesystem (its root inode is 1).
bool is_proc_root(int dir) {
  struct statfs fs;
  struct stat st;
  return ::fstatfs(dir, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC && ::fstat(dir, &st) == 0 &&
         st.st_ino == 1;
}

}  // namespace

bool may_exist_in_jail(int root_fd, const std::string& path, int caller_tid) {
  if (root_fd < 0 || path.empty() || path[0] != '/') return true;
  UniqueFd f(open_in(root_fd, path, O_PATH, RESOLVE_IN_ROOT));
  if (f || (errno != ENOENT && errno != ENOTDIR)) return true;
  // Followed as the caller would (its /proc/self, not ours): what that
  // reaches may exist where the lookup above found nothing.
  // Through /proc, the text of a descriptor's link may name a file the
  // supervisor cannot reach (a memfd, another mount namespace's), so any way
  // through /proc counts as existing.
  bool through_proc = false;
  const std::string leads_to = resolve_in_jail(root_fd, path, true, caller_tid, &through_proc);
  if (leads_to.empty() || through_proc) return true;
  if (leads_to == normalize_path(path)) return false;  // no link: looked up above
  UniqueFd g(open_in(root_fd, leads_to, O_PATH, RESOLVE_IN_ROOT));
  return g || (errno != ENOENT && errno != ENOTDIR);
}

std::string fd_path_in_jail(int pid, int fd) {
  if (fd < 0) return {};
  return read_link(fmt::format("/proc/{}/fd/{}", pid, fd)).value_or("");
}

std::string absolute_in_jail(int pid, int dirfd, const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  const std::string base = dirfd == AT_FDCWD
                               ? read_link(fmt::format("/proc/{}/cwd", pid)).value_or("")
                               : fd_path_in_jail(pid, dirfd);
  if (base.empty() || base[0] != '/') return {};
  return base + "/" + path;
}

std::string resolve_in_jail(int root_fd, const std::string& path, bool follow_last, int caller_tid,
                            bool* through_proc) {
  if (path.empty() || path[0] != '/') return {};
  if (through_proc) *through_proc = path_is_within(path, "/proc");
  // Most paths hold no link at all: one lookup says so. (With O_PATH and
  // O_NOFOLLOW a link in last place is opened, not refused.)
  {
    UniqueFd whole(open_in(root_fd, path, O_PATH | (follow_last ? 0 : O_NOFOLLOW),
                           RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS));
    if (whole || errno == ENOENT || errno == ENOTDIR) return normalize_path(path);
    if (errno != ELOOP) return {};
  }
  // A link on the way: walk it one component at a time, from the root.
  std::vector<std::string> todo;
  push_components(path, &todo);
  std::string done;  // resolved so far, without links; "" is the root
  UniqueFd dir(::fcntl(root_fd, F_DUPFD_CLOEXEC, 0));
  if (!dir) return {};
  int links = 0, steps = 0;
  while (!todo.empty()) {
    if (++steps > kMaxComponents) return {};
    std::string name = std::move(todo.back());
    todo.pop_back();
    if (name == ".") continue;
    if (name == "..") {
      done.erase(done.empty() ? 0 : done.rfind('/'));
      dir.reset(done.empty() ? ::fcntl(root_fd, F_DUPFD_CLOEXEC, 0)
                             : open_in(root_fd, done, O_PATH | O_DIRECTORY,
                                       RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS));
      if (!dir) return {};
      continue;
    }
    char target[PATH_MAX];
    const bool last = todo.empty();
    ssize_t n = last && !follow_last
                    ? (errno = EINVAL, -1)  // taken as it is, like a name that is no link
                    : ::readlinkat(dir.get(), name.c_str(), target, sizeof target);
    // /proc/self, read by the supervisor, names the supervisor (or nothing,
    // in the jail's own /proc): however it is reached (/dev/fd, a link the
    // command made), it is the caller's own entry.
    if (caller_tid > 0 && (name == "self" || name == "thread-self") &&
        (n >= 0 || errno == ENOENT)) {
      const int saved = errno;
      const std::string own = is_proc_root(dir.get()) ? own_entry_in_proc(name, caller_tid) : "";
      if (!own.empty()) n = static_cast<ssize_t>(own.copy(target, sizeof target - 1));
      errno = saved;
    }
    if (n >= 0) {  // a link: what it names replaces it
      if (++links > kMaxLinks || n == 0 || static_cast<std::size_t>(n) >= sizeof target) return {};
      std::string to(target, static_cast<std::size_t>(n));
      push_components(to, &todo);
      if (to[0] == '/') {
        done.clear();
        dir.reset(::fcntl(root_fd, F_DUPFD_CLOEXEC, 0));
        if (!dir) return {};
      }
      continue;
    }
    done += "/" + name;
    if (through_proc && done == "/proc") *through_proc = true;
    if (errno != EINVAL) break;  // missing (or unreadable): the rest stays as written
    if (todo.empty()) break;
    UniqueFd next(::openat(dir.get(), name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!next) break;  // not a directory, or gone: the rest stays as written
    dir = std::move(next);
  }
  for (auto it = todo.rbegin(); it != todo.rend(); ++it) done += "/" + *it;
  return done.empty() ? "/" : normalize_path(done);
}

std::string proc_self_as(const std::string& path, int tid) {
  for (const std::string_view who : {"/proc/self", "/proc/thread-self"}) {
    if (path.compare(0, who.size(), who) != 0) continue;
    if (path.size() > who.size() && path[who.size()] != '/') continue;
    const std::string own = own_entry_in_proc(who.substr(6), tid);
    if (own.empty()) return path;
    return "/proc/" + own + path.substr(who.size());
  }
  return path;
}

std::string through_proc_links(const std::string& path, const std::function<std::string()>& cwd) {
  // "/proc/<who>/<link>" and what follows, taken apart without clean-up:
  // the rest keeps its ".." for resolve_in_jail to take after the link.
  constexpr std::string_view kProc = "/proc/";
  if (path.compare(0, kProc.size(), kProc) != 0) return path;
  const std::size_t who_end = path.find('/', kProc.size());
  if (who_end == std::string::npos) return path;
  const std::string who = path.substr(kProc.size(), who_end - kProc.size());
  const std::size_t link_end = std::min(path.find('/', who_end + 1), path.size());
  const std::string link = path.substr(who_end + 1, link_end - who_end - 1);
  const std::string rest = path.substr(link_end);  // "" or "/..."
  const bool self = who == "self" || who == "thread-self";
  const bool numeric = !who.empty() && who.find_first_not_of("0123456789") == std::string::npos;
  if (link == "root" && (self || numeric)) return rest.empty() ? "/" : rest;
  if (link == "cwd" && self) {
    const std::string dir = cwd();
    if (!dir.empty() && dir[0] == '/') return dir + rest;
  }
  return path;
}

}  // namespace aj
