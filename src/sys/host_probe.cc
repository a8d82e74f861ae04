#include "sys/host_probe.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <pwd.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>

#include "base/unique_fd.h"
#include "sys/dir_entries.h"
#include "sys/landlock.h"
#include "sys/read_file.h"

namespace aj {

FileKind RealDisk::kind(const std::string& path) const {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return FileKind::kMissing;
  if (S_ISDIR(st.st_mode)) return FileKind::kDirectory;
  if (S_ISREG(st.st_mode)) return FileKind::kFile;
  if (S_ISLNK(st.st_mode)) return FileKind::kSymlink;
  return FileKind::kOther;
}

std::uint64_t RealDisk::link_count(const std::string& path) const {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return 1;
  return static_cast<std::uint64_t>(st.st_nlink);
}

std::optional<std::string> RealDisk::read_link(const std::string& path) const {
  return aj::read_link(path);
}

std::optional<std::string> RealDisk::real_path(const std::string& path) const {
  char buf[PATH_MAX];
  if (!::realpath(path.c_str(), buf)) return std::nullopt;
  return std::string(buf);
}

std::vector<std::string> RealDisk::list_dir(const std::string& path) const {
  DIR* d = ::opendir(path.c_str());
  if (d == nullptr) return {};
  std::vector<std::string> out = entry_names(d);
  ::closedir(d);
  return out;
}

std::optional<std::string> RealDisk::read_text(const std::string& path, std::size_t max) const {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat st;
  if (!fd || ::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  // Grow from the size fstat saw rather than zero-filling `max` bytes: the
  // files read here are small, and start-up pays for every page touched.
  std::string out;
  std::size_t got = 0;
  const std::size_t expected = static_cast<std::size_t>(st.st_size > 0 ? st.st_size : 0);
  out.resize(std::min(max, std::max<std::size_t>(expected + 1, 4096)));
  while (got < max) {
    if (got == out.size()) out.resize(std::min(max, out.size() * 2));
    ssize_t n = ::read(fd.get(), out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  out.resize(got);
  return out;
}

std::string new_session_id() {
  unsigned char bytes[8] = {};
  size_t got = 0;
  while (got < sizeof bytes) {
    ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  std::string out;
  for (unsigned char b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return (v && *v) ? std::string(v) : fallback;
}

}  // namespace

Result<HostFacts> probe_host(char** environ_ptr) {
  HostFacts f;
  f.uid = ::getuid();
  f.gid = ::getgid();
  // The password database only when HOME is unset: asking it costs a read
  // of nsswitch.conf and /etc/passwd on every start.
  const char* home = std::getenv("HOME");
  std::string pw_home;
  if (home == nullptr || *home == '\0')
    if (struct passwd* pw = ::getpwuid(f.uid)) pw_home = pw->pw_dir ? pw->pw_dir : "";
  f.home = env_or("HOME", pw_home.empty() ? "/" : pw_home);
  // Where the home really is: reached through a link (Fedora Atomic's
  // /home -> var/home, a HOME of the user's making), "~/.ssh" would name a
  // path the jail's mounts do not see, and a workspace in the home would not
  // be recognised as the home (getcwd gives the real path).
  if (char* real = ::realpath(f.home.c_str(), nullptr)) {
    f.home = real;
    std::free(real);
  }
  char cwd[PATH_MAX];
  if (!::getcwd(cwd, sizeof cwd)) return sys_error("getcwd", "", errno);
  f.cwd = cwd;
  f.tmpdir = env_or("TMPDIR", "/tmp");
  f.state_dir = env_or("XDG_STATE_HOME", f.home + "/.local/state") + "/agentjail";
  f.session_id = new_session_id();
  for (char** e = environ_ptr; e && *e; ++e) f.environ.emplace_back(*e);
  f.landlock_abi = landlock_abi_version();
  for (int fd = 0; fd <= 2 && f.terminal.empty(); ++fd) {
    char name[PATH_MAX];
    if (::isatty(fd) && ::ttyname_r(fd, name, sizeof name) == 0) f.terminal = name;
  }
  for (const char* name : {"max_inotify_instances", "max_inotify_watches", "max_fanotify_groups",
                           "max_fanotify_marks"})
    if (auto v = read_sysctl(std::string("/proc/sys/user/") + name))
      f.user_limits.push_back({name, *v});
  int tty = ::open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);
  f.controlling_terminal = tty >= 0;
  if (tty >= 0) ::close(tty);
  struct utsname u;
  if (::uname(&u) == 0) f.kernel_release = u.release;
  return f;
}

}  // namespace aj
