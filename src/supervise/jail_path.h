// Paths as a jailed process sees them, looked up from the supervisor through
// the jail's root directory (a descriptor for it: /proc/PID/root).
#pragma once

#include <functional>
#include <string>

namespace aj {

// Whether the program an exec names (an absolute path, as the jail sees it)
// may exist there. False only when it certainly does not: libc's execvp and
// shells try every PATH entry, and only the one that exists runs. A path
// whose way goes through /proc (/dev/fd/3, /proc/self/fd/3) counts as
// existing, as does everything when root_fd is -1.
bool may_exist_in_jail(int root_fd, const std::string& path, int caller_tid = 0);

// The file a process's descriptor refers to, as the jail names it
// ("/usr/bin/echo", "/memfd:x (deleted)"); empty when unknown.
std::string fd_path_in_jail(int pid, int fd);

// path (absolute, or relative to dirfd or the working directory of pid) made
// absolute, as the process sees it, but not normalized: "/tmp/d/../x" may
// not be "/tmp/x" once d is a link. Empty when unknown.
std::string absolute_in_jail(int pid, int dirfd, const std::string& path);

// Where an absolute path leads in the jail once its symbolic
// links are followed (at most 40, as the kernel allows), without leaving
// root_fd: "/tmp/key" -> "/home/u/.ssh/id_rsa" for a link in /tmp. The last
// component is followed only with follow_last (an open without O_NOFOLLOW).
// ".." is taken after the link before it, as the kernel does. Components that
// do not exist are kept as written (normalized). Empty when it cannot be
// worked out (too many links, a magic /proc link, an unreadable directory).
// "self" and "thread-self" in a /proc name caller_tid's own entries (when
// caller_tid > 0), as the kernel resolves them for the caller. through_proc,
// when given, says whether the way went through /proc.
std::string resolve_in_jail(int root_fd, const std::string& path, bool follow_last,
                            int caller_tid = 0, bool* through_proc = nullptr);

// path with a leading /proc/self or /proc/thread-self naming the thread tid
// (as its own PID namespace numbers it) instead: looked up by the
// supervisor, those would name the supervisor. Other paths are returned as
// they are.
std::string proc_self_as(const std::string& path, int tid);

// /proc/self/root/x, /proc/thread-self/root/x and /proc/N/root/x name x in
// the jail's root (its processes share one: chroot is refused), and
// /proc/self/cwd/x (or thread-self) x in the caller's working directory,
// which cwd() gives (empty: unknown). The supervisor cannot follow these links
// through the jail's /proc itself (self names the looker). Any other path
// comes back as it is. Pure.
std::string through_proc_links(const std::string& path, const std::function<std::string()>& cwd);

}  // namespace aj
