#include "supervise/notify.h"

#include <errno.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "policy/variables.h"
#include "seccomp/bpf_eval.h"
#include "seccomp/names.h"
#include "seccomp/notify_program.h"
#include "supervise/jail_path.h"
#include "supervise/target.h"
#include "sys/seccomp_uapi.h"

namespace aj {
namespace {

bool wants_write(std::uint64_t flags) {
  return (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC)) != 0;
}

}  // namespace

void NotifyHandler::metadata_call(int pid, int nr, const std::uint64_t a[6], void* resp_ptr) {
  auto* resp = static_cast<struct seccomp_notif_resp*>(resp_ptr);
  resp->flags = 0;
  std::string given;
  const int parg = MetadataGuard::path_arg(nr);
  if (parg >= 0) {
    Remote mem(pid);
    ReadStatus read;
    given = read_string(mem, a[parg], &read);
    if (read.unreadable) {
      refuse_unreadable(pid, nr, "path", a[parg], resp);
      return;
    }
  }
  // Everything above was read through the caller's pid: the call must still
  // be waiting when the change is made, or that pid may be another process.
  const std::uint64_t id = resp->id;
  const MetadataCall call =
      metadata_guard_->perform(proc_fd_.get(), pid, nr, a, given, [this, id]() mutable {
        return ::ioctl(listener_.get(), SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
      });
  resp->error = -call.err;
  if (call.refused && sink_) {
    const int dirfd = parg <= 0 ? AT_FDCWD : static_cast<int>(a[0]);
    const std::string named =
        given.empty() ? call.path : normalize_path(absolute_in_jail(pid, dirfd, given));
    sink_->fs_denied(pid, {named.empty() ? call.path : named, call.path == named ? "" : call.path,
                           MetadataGuard::access_of(nr), "built in", call.reason,
                           "supervisor (metadata guard)"});
  }
}

std::vector<int> traced_open_syscalls() { return {SYS_open, SYS_openat, SYS_openat2, SYS_creat}; }

void NotifyHandler::trace_open(int pid, int nr, const std::uint64_t a[6], void* resp_ptr) {
  auto* resp = static_cast<struct seccomp_notif_resp*>(resp_ptr);
  resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
  Remote mem(pid);
  int dirfd = AT_FDCWD;
  std::uint64_t path_addr = a[0], flags = a[1];
  if (nr == SYS_openat || nr == SYS_openat2) {
    dirfd = static_cast<int>(a[0]);
    path_addr = a[1];
    flags = a[2];
  }
  if (nr == SYS_openat2) {
    struct open_how how = {};
    if (mem.read(a[2], &how, sizeof how) != sizeof how) return;
    flags = how.flags;
  }
  if (nr == SYS_creat) flags = O_WRONLY | O_CREAT | O_TRUNC;
  ReadStatus read;
  const std::string given = read_string(mem, path_addr, &read);
  if (read.unreadable) {
    refuse_unreadable(pid, nr, "path", path_addr, resp);
    return;
  }
  const std::string named = absolute_in_jail(pid, dirfd, given);
  if (named.empty()) {
    // Relative to a directory whose path cannot be read (deeper than
    // PATH_MAX, or not a directory of the filesystem): no verdict can be
    // reached, so none is given in its favour.
    resp->flags = 0;
    resp->error = -EACCES;
    if (sink_)
      sink_->fs_denied(pid, {given, "", wants_write(flags) ? "write" : "read", "built in",
                             "relative to a directory whose path cannot be read: not judged, "
                             "refused"});
    return;
  }
  std::string path = normalize_path(named);
  bool write = wants_write(flags);
  std::string verdict = trace_(path, write);
  std::string leads_to;
  if (verdict.empty()) {
    // Where the path leads counts too: a link in /tmp to a hidden key is
    // refused and recorded like the key itself. The links may change before
    // the kernel follows them; then Landlock and the mounts decide, as for
    // every open allowed here.
    const bool follow_last =
        !(flags & O_NOFOLLOW) && (flags & (O_CREAT | O_EXCL)) != (O_CREAT | O_EXCL);
    // /proc/self/root and /proc/self/cwd first (as the caller sees them),
    // then any other /proc/self link named as the caller's own process.
    const std::string through = proc_self_as(
        through_proc_links(named, [pid] { return absolute_in_jail(pid, AT_FDCWD, "."); }), pid);
    leads_to = resolve_in_jail(jail_root(pid), through, follow_last, pid);
    if (leads_to.empty() || leads_to == path) return;
    verdict = trace_(leads_to, write);
    if (verdict.empty()) return;
    path = named;  // by name it was allowed: record the name as given
  }
  resp->flags = 0;
  resp->error = -EACCES;
  auto tab = verdict.find('\t');
  if (sink_)
    sink_->fs_denied(pid, {path, leads_to, write ? "write" : "read", verdict.substr(0, tab),
                           tab == std::string::npos ? "" : verdict.substr(tab + 1)});
}

std::string describe_syscall_args(const std::string& name, const std::uint64_t a[6]) {
  if (name == "ioctl") {
    auto req = static_cast<std::uint32_t>(a[1]);
    static const std::pair<std::uint32_t, const char*> kKnown[] = {
        {0x5412, "TIOCSTI "},
        {0x541C, "TIOCLINUX "},
        {0x40086602, "FS_IOC_SETFLAGS "},
        {0x40046602, "FS_IOC32_SETFLAGS "},
        {0x401c5820, "FS_IOC_FSSETXATTR "},
        {0x40806685, "FS_IOC_ENABLE_VERITY "}};
    const char* known = "";
    for (auto [value, name] : kKnown)
      if (req == value) known = name;
    return fmt::format("fd={} request={}(0x{:x})", static_cast<int>(a[0]), known, a[1]);
  }
  if (name == "socket" || name == "socketpair") {
    static const std::pair<int, const char*> kFamilies[] = {
        {1, "AF_UNIX"},    {2, "AF_INET"},   {10, "AF_INET6"}, {16, "AF_NETLINK"},
        {17, "AF_PACKET"}, {40, "AF_VSOCK"}, {38, "AF_ALG"},   {31, "AF_BLUETOOTH"}};
    const char* fam = "";
    for (auto [n, s] : kFamilies)
      if (static_cast<std::uint64_t>(n) == a[0]) fam = s;
    return fmt::format("family={}({}) type={} protocol={}", fam, a[0], a[1], a[2]);
  }
  if (name == "clone" || name == "unshare") return fmt::format("flags=0x{:x}", a[0]);
  if (name == "chmod" || name == "fchmod" || name == "creat" || name == "mknod")
    return fmt::format("mode=0{:o}", a[1] & 0xffff);
  if (name == "fchmodat" || name == "fchmodat2" || name == "mknodat")
    return fmt::format("mode=0{:o}", a[2] & 0xffff);
  if (name == "open")
    return fmt::format("flags=0{:o} mode=0{:o}", a[1] & 0xffffffff, a[2] & 0xffff);
  if (name == "openat")
    return fmt::format("flags=0{:o} mode=0{:o}", a[2] & 0xffffffff, a[3] & 0xffff);
  if (name == "ptrace") return fmt::format("request={} pid={}", a[0], static_cast<int>(a[1]));
  if (name == "kill" || name == "tkill")
    return fmt::format("pid={} sig={}", static_cast<int>(a[0]), a[1]);
  return fmt::format("args=0x{:x},0x{:x},0x{:x}", a[0], a[1], a[2]);
}

NotifyHandler::NotifyHandler(const BpfProgram& enforcing, EventSink* sink)
    : enforcing_(enforcing),
      sink_(sink),
      proc_fd_(::open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC)) {
  struct seccomp_notif_sizes sizes = {};
  if (::syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) != 0) {
    sizes.seccomp_notif = sizeof(struct seccomp_notif);
    sizes.seccomp_notif_resp = sizeof(struct seccomp_notif_resp);
  }
  req_buf_.resize(std::max<std::size_t>(sizes.seccomp_notif, sizeof(struct seccomp_notif)));
  resp_buf_.resize(
      std::max<std::size_t>(sizes.seccomp_notif_resp, sizeof(struct seccomp_notif_resp)));
}

void NotifyHandler::attach(UniqueFd listener) {
  listener_ = std::move(listener);
  // Wake the notified thread on the supervisor's CPU: ~4 µs per round trip
  // instead of up to ~46 µs. Older kernels lack it; that only costs time.
  std::uint64_t flags = SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP;
  ::ioctl(listener_.get(), SECCOMP_IOCTL_NOTIF_SET_FLAGS, flags);
}

bool NotifyHandler::handle_one() {
  auto* req = reinterpret_cast<struct seccomp_notif*>(req_buf_.data());
  auto* resp = reinterpret_cast<struct seccomp_notif_resp*>(resp_buf_.data());
  std::memset(req_buf_.data(), 0, req_buf_.size());
  if (::ioctl(listener_.get(), SECCOMP_IOCTL_NOTIF_RECV, req) != 0) {
    if (errno == EINTR || errno == ENOENT) return true;  // target gone meanwhile
    return false;
  }
  ++handled_;
  std::memset(resp_buf_.data(), 0, resp_buf_.size());
  resp->id = req->id;

  SeccompData data{};
  static_assert(sizeof data == sizeof req->data, "seccomp_data layout");
  std::memcpy(&data, &req->data, sizeof data);
  std::uint32_t verdict = bpf_evaluate(enforcing_, data).value_or(SECCOMP_RET_ERRNO | EPERM);
  const int pid = static_cast<int>(req->pid);
  const bool is_exec = data.nr == SYS_execve || data.nr == SYS_execveat;

  // Calls notified before the enforcing program ran (execs, trace mode's
  // opens) get its answer first: continuing them must never skip a refusal.
  const std::uint32_t action = verdict & SECCOMP_RET_ACTION_FULL;
  if (terminal_guard_ && TerminalGuard::handles(data.nr, data.args)) {
    // The terminal's ioctls are refused by the filter, setpgid and setsid
    // notified: let through unless the terminal or group is another job's
    // (terminal_guard.h).
    const int err = terminal_guard_->check(pid, data.nr, data.args);
    resp->flags = err == 0 ? SECCOMP_USER_NOTIF_FLAG_CONTINUE : 0;
    resp->error = -err;
    if (err != 0 && sink_) {
      const char* request = TerminalGuard::terminal_request(data.nr, data.args);
      if (request)
        sink_->syscall_denied(pid, "ioctl",
                              fmt::format("request={} (another job holds the terminal's "
                                          "foreground: a background jail may not take, change "
                                          "or leave the terminal)",
                                          request),
                              err);
      else if (data.nr == SYS_setsid)
        sink_->syscall_denied(pid, "setsid",
                              "(another job holds the terminal's foreground: a background jail "
                              "may not leave the terminal's session)",
                              err);
      else
        sink_->syscall_denied(
            pid, "setpgid",
            fmt::format("pid={} pgid={} (a process group outside the session)",
                        static_cast<int>(data.args[0]), static_cast<int>(data.args[1])),
            err);
    }
  } else if (action == SECCOMP_RET_ERRNO) {
    int err = static_cast<int>(verdict & SECCOMP_RET_DATA);
    resp->error = -err;
    resp->flags = 0;
    std::string name = seccomp_syscall_name(data.nr);
    if (sink_ && is_journaled_refusal(verdict))
      sink_->syscall_denied(pid, name, describe_syscall_args(name, data.args), err);
  } else if (action == SECCOMP_RET_KILL_PROCESS || action == SECCOMP_RET_KILL_THREAD) {
    // The profile's kill action: the whole process, as seccomp would.
    if (::ioctl(listener_.get(), SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) == 0) ::kill(pid, SIGKILL);
    resp->error = -EPERM;
    resp->flags = 0;
  } else if (metadata_guard_ && MetadataGuard::handles(data.nr)) {
    metadata_call(pid, data.nr, data.args, resp);
  } else if (signal_guard_ && SignalGuard::handles(data.nr)) {
    // The target is an integer the kernel reads again as it is: a check,
    // then CONTINUE, uses what was checked.
    const int err = signal_guard_->check(proc_fd_.get(), data.nr, data.args);
    resp->flags = err == 0 ? SECCOMP_USER_NOTIF_FLAG_CONTINUE : 0;
    resp->error = -err;
    if (err != 0 && sink_) {
      const std::string name = seccomp_syscall_name(data.nr);
      sink_->syscall_denied(pid, name,
                            describe_syscall_args(name, data.args) + " (outside the session)", err);
    }
  } else if (is_exec) {
    Remote mem(pid);
    bool at = data.nr == SYS_execveat;
    std::string path;
    std::vector<std::string> argv;
    const std::uint64_t path_addr = data.args[at ? 1 : 0], argv_addr = data.args[at ? 2 : 1];
    const ExecArgsStatus read = read_exec_args(mem, path_addr, argv_addr, &path, &argv);
    const int dirfd = at ? static_cast<int>(data.args[0]) : AT_FDCWD;
    const bool fexecve = at && path.empty() && (data.args[4] & AT_EMPTY_PATH) != 0;
    // The notification must still be live for what we read to be its own.
    bool valid = ::ioctl(listener_.get(), SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) == 0;
    if (valid) jail_root(pid);
    if (valid && (read.path.unreadable || read.argv.unreadable)) {
      refuse_unreadable(pid, data.nr, read.path.unreadable ? "path" : "argv",
                        read.path.unreadable ? path_addr : argv_addr, resp);
      return send(resp);
    }
    // Everything the event needs is gathered while the exec waits: once it
    // goes on, this thread may not run again until the new program has run
    // (it may be woken on our CPU and keep it), and a short program may be
    // gone, reaped, with the jail's mounts, by then.
    const bool record = valid && sink_ && (fexecve || exec_may_run(pid, dirfd, &path));
    if (record && fexecve) {  // the descriptor is the program
      path = fd_path_in_jail(pid, dirfd);
      if (path.empty()) path = fmt::format("fd:{}", dirfd);
    }
    const ProcessIds ids = record ? process_ids(proc_fd_.get(), pid) : ProcessIds{pid, 0};
    resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
    // Observation only: unless the journal is required, the exec goes on
    // before its event is written (the next notification still waits for
    // it, which keeps the order).
    const bool before = sink_ != nullptr && sink_->record_before_continue();
    if (!before && !send(resp)) return false;
    if (record) sink_->exec(ids.pid, ids.ppid, path, argv);
    return !before || send(resp);
  } else if (trace_) {
    // Trace mode: a denial is the supervisor's EACCES; an allowed open
    // continues and is enforced by Landlock and the mounts as before.
    trace_open(pid, data.nr, data.args, resp);
  } else {
    resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
  }
  return send(resp);
}

// The kernel can read memory the supervisor cannot (the vvar page, with a
// file named after the bytes there; memfd_secret, holding the arguments):
// continuing would let the call run unseen or with arguments the journal
// does not show, so it is refused, and the refusal recorded.
void NotifyHandler::refuse_unreadable(int pid, int nr, const char* what, std::uint64_t addr,
                                      void* resp_ptr) {
  auto* resp = static_cast<struct seccomp_notif_resp*>(resp_ptr);
  resp->flags = 0;
  resp->error = -EFAULT;
  if (sink_)
    sink_->syscall_denied(pid, seccomp_syscall_name(nr),
                          fmt::format("{} at 0x{:x} unreadable by the supervisor", what, addr),
                          EFAULT);
}

bool NotifyHandler::exec_may_run(int pid, int dirfd, std::string* path) {
  if (path->empty()) return false;  // ENOENT, certainly
  const std::string absolute = absolute_in_jail(pid, dirfd, *path);
  if (absolute.empty()) return true;  // cannot tell: record it
  // Relative to a descriptor: the name alone would not say which file.
  if (dirfd != AT_FDCWD && (*path)[0] != '/') *path = normalize_path(absolute);
  if (may_exist_in_jail(root_fd_.get(), absolute, pid)) return true;
  // A relative name may still lead somewhere its text does not: from a
  // working directory that was removed ("... (deleted)"), "../x" is found.
  // Asked of the directory itself; a false "may run" only records one more
  // attempt, a false "cannot" would hide a program that ran.
  if ((*path)[0] == '/') return false;
  const std::string base = dirfd == AT_FDCWD ? fmt::format("/proc/{}/cwd", pid)
                                             : fmt::format("/proc/{}/fd/{}", pid, dirfd);
  UniqueFd dir(::open(base.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!dir) return true;
  UniqueFd found(::openat(dir.get(), path->c_str(), O_PATH | O_CLOEXEC));
  return found || (errno != ENOENT && errno != ENOTDIR);
}

int NotifyHandler::jail_root(int pid) {
  if (!root_fd_) {
    char root[64];
    std::snprintf(root, sizeof root, "/proc/%d/root", pid);
    root_fd_.reset(::open(root, O_PATH | O_DIRECTORY | O_CLOEXEC));
  }
  return root_fd_.get();
}

bool NotifyHandler::send(void* resp) {
  if (::ioctl(listener_.get(), SECCOMP_IOCTL_NOTIF_SEND, resp) != 0 && errno != ENOENT) {
    return errno == EINTR;
  }
  return true;
}

}  // namespace aj
