#include "supervise/target.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "journal/redact.h"
#include "sys/dir_entries.h"
#include "sys/pidfd_uapi.h"

namespace aj {
namespace {

constexpr std::size_t kMaxString = 4096;  // the journal's cap on one string
constexpr std::size_t kMaxArgs = 256;
constexpr std::string_view kCutString = kCutMarker;
constexpr std::string_view kCutList = "[+more]";

// The pointer array argv points at (up to the terminating null).
std::vector<std::uint64_t> read_pointers(Remote& mem, std::uint64_t addr, ReadStatus* status) {
  std::vector<std::uint64_t> out;
  std::uint64_t ptrs[64];
  while (addr != 0) {
    std::uint64_t at = addr + out.size() * 8;
    std::size_t want = std::min<std::size_t>(sizeof ptrs, 4096 - (at % 4096));
    ssize_t n = mem.read(at, ptrs, want);
    if (n < 8) {
      status->unreadable = true;
      break;
    }
    for (std::size_t k = 0; k < static_cast<std::size_t>(n) / 8; ++k) {
      if (ptrs[k] == 0) return out;
      if (out.size() == kMaxArgs) {
        status->cut = true;
        return out;
      }
      out.push_back(ptrs[k]);
    }
  }
  return out;
}

// The strings at `addrs`, each as read_string would give it, in as few
// syscalls as possible: one process_vm_readv takes the first bytes of every
// string (up to its page's end, which is mapped if the string starts there);
// only a string longer than that is read again on its own.
std::vector<std::string> read_strings(Remote& mem, const std::vector<std::uint64_t>& addrs,
                                      ReadStatus* status) {
  constexpr std::size_t kChunk = 256;
  constexpr std::size_t kBatch = 64;
  std::vector<std::string> out(addrs.size());
  std::vector<char> buf(kChunk * kBatch);
  for (std::size_t first = 0; first < addrs.size(); first += kBatch) {
    const std::size_t count = std::min(kBatch, addrs.size() - first);
    struct iovec local[kBatch], remote[kBatch];
    for (std::size_t i = 0; i < count; ++i) {
      std::uint64_t a = addrs[first + i];
      std::size_t len = std::min<std::size_t>(kChunk, 4096 - (a % 4096));
      local[i] = {buf.data() + i * kChunk, len};
      remote[i] = {reinterpret_cast<void*>(a), len};
    }
    ssize_t got = mem.read_vec(local, remote, count);
    std::size_t left = got > 0 ? static_cast<std::size_t>(got) : 0;
    for (std::size_t i = 0; i < count; ++i) {
      std::size_t have = std::min(left, local[i].iov_len);
      left -= have;
      const char* s = buf.data() + i * kChunk;
      const void* nul = std::memchr(s, '\0', have);
      if (nul != nullptr)
        out[first + i].assign(s, static_cast<const char*>(nul));
      else
        out[first + i] = read_string(mem, addrs[first + i], status);  // longer, or not read
    }
  }
  return out;
}

}  // namespace

ssize_t Remote::read(std::uint64_t addr, void* buf, std::size_t n) {
  struct iovec local = {buf, n};
  struct iovec remote = {reinterpret_cast<void*>(addr), n};
  ssize_t r = ::process_vm_readv(pid_, &local, 1, &remote, 1, 0);
  if (r >= 0 || (errno != ENOSYS && errno != EPERM)) return r;
  if (!mem_) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/mem", pid_);
    mem_.reset(::open(path, O_RDONLY | O_CLOEXEC));
    if (!mem_) return -1;
  }
  return ::pread(mem_.get(), buf, n, static_cast<off_t>(addr));
}

ssize_t Remote::read_vec(const struct iovec* local, const struct iovec* remote, std::size_t n) {
  ssize_t r = ::process_vm_readv(pid_, local, n, remote, n, 0);
  if (r >= 0 || (errno != ENOSYS && errno != EPERM)) return r;
  ssize_t total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ssize_t got = read(reinterpret_cast<std::uint64_t>(remote[i].iov_base), local[i].iov_base,
                       remote[i].iov_len);
    if (got < 0) return total > 0 ? total : got;
    total += got;
    if (static_cast<std::size_t>(got) < remote[i].iov_len) break;
  }
  return total;
}

// Reads a NUL-terminated string from the target's memory.
std::string read_string(Remote& mem, std::uint64_t addr, ReadStatus* status) {
  std::string out;
  char buf[512];
  while (addr != 0) {
    // Only a byte past the cap, with no NUL yet, shows the string is longer.
    if (out.size() > kMaxString) {  // kept visibly short of the journal's cap
      out.resize(kMaxString - kCutString.size());
      out += kCutString;
      if (status) status->cut = true;
      break;
    }
    // Stop at the page end so an unmapped next page does not fail the read.
    std::size_t to_page_end = 4096 - (addr % 4096);
    ssize_t n = mem.read(addr, buf, std::min(sizeof buf, to_page_end));
    if (n <= 0) {
      if (status) status->unreadable = true;
      break;
    }
    const char* end = static_cast<const char*>(std::memchr(buf, '\0', static_cast<size_t>(n)));
    out.append(buf, end ? static_cast<size_t>(end - buf) : static_cast<size_t>(n));
    if (end) break;
    addr += static_cast<std::uint64_t>(n);
  }
  return out;
}

// A page of the target's memory, as far as it could be read.
struct Page {
  std::uint64_t base = 0;
  std::size_t len = 0;
  char data[4096];
};

// The string at addr when the page holds all of it, NUL included.
bool string_in(const Page& page, std::uint64_t addr, std::string* out) {
  if (addr < page.base || addr >= page.base + page.len) return false;
  const char* s = page.data + (addr - page.base);
  const void* nul = std::memchr(s, '\0', page.base + page.len - addr);
  if (nul == nullptr) return false;
  out->assign(s, static_cast<std::size_t>(static_cast<const char*>(nul) - s));
  return true;
}

// An exec's path and argv. One process_vm_readv takes the whole pages that
// hold the path and argv's pointer array (a whole page costs what a few bytes
// of it cost); the strings argv points at usually sit there too (a shell
// keeps a command's words together), so most execs need no second call.
// Whatever the pages do not hold whole is read on its own.
ExecArgsStatus read_exec_args(Remote& mem, std::uint64_t path_addr, std::uint64_t argv_addr,
                              std::string* path, std::vector<std::string>* argv) {
  ExecArgsStatus status;
  Page pages[2];
  pages[0].base = path_addr & ~std::uint64_t{4095};
  pages[1].base = argv_addr & ~std::uint64_t{4095};
  const std::size_t count = pages[1].base == pages[0].base ? 1 : 2;
  struct iovec local[2], remote[2];
  for (std::size_t i = 0; i < count; ++i) {
    local[i] = {pages[i].data, sizeof pages[i].data};
    remote[i] = {reinterpret_cast<void*>(pages[i].base), sizeof pages[i].data};
  }
  // Whole iovecs or nothing: an unreadable page ends the transfer there.
  ssize_t got = mem.read_vec(local, remote, count);
  std::size_t left = got > 0 ? static_cast<std::size_t>(got) : 0;
  for (std::size_t i = 0; i < count; ++i) {
    pages[i].len = std::min(left, sizeof pages[i].data);
    left -= pages[i].len;
  }
  const Page& argv_page = pages[count - 1];
  auto in_pages = [&](std::uint64_t addr, std::string* out) {
    return string_in(pages[0], addr, out) || (count == 2 && string_in(pages[1], addr, out));
  };

  if (!in_pages(path_addr, path)) *path = read_string(mem, path_addr, &status.path);

  std::vector<std::uint64_t> addrs;
  bool ended = false;
  if (argv_addr != 0 && argv_addr + 8 <= argv_page.base + argv_page.len) {
    for (std::uint64_t at = argv_addr; at + 8 <= argv_page.base + argv_page.len; at += 8) {
      std::uint64_t ptr;
      std::memcpy(&ptr, argv_page.data + (at - argv_page.base), sizeof ptr);
      if (ptr == 0 || addrs.size() == kMaxArgs) {
        status.argv.cut = ptr != 0;
        ended = true;
        break;
      }
      addrs.push_back(ptr);
    }
  }
  if (!ended) addrs = read_pointers(mem, argv_addr, &status.argv);
  const bool list_cut = status.argv.cut;  // no string has been read yet

  argv->assign(addrs.size(), std::string());
  std::vector<std::uint64_t> elsewhere;
  std::vector<std::size_t> where;
  for (std::size_t i = 0; i < addrs.size(); ++i) {
    if (in_pages(addrs[i], &(*argv)[i])) continue;
    elsewhere.push_back(addrs[i]);
    where.push_back(i);
  }
  if (!elsewhere.empty()) {
    std::vector<std::string> rest = read_strings(mem, elsewhere, &status.argv);
    for (std::size_t k = 0; k < rest.size(); ++k) (*argv)[where[k]] = std::move(rest[k]);
  }
  if (list_cut) argv->emplace_back(kCutList);
  return status;
}

// PIDFD_GET_INFO costs about a tenth of opening, reading and parsing
// /proc/PID/stat, and this read sits on every exec's critical path.
ProcessIds process_ids(int proc_fd, int tid) {
  static bool have_pidfd_info = true;
  if (have_pidfd_info) {
    // A thread other than the leader (EINVAL, or ENOENT since Linux 6.9)
    // needs PIDFD_THREAD (O_EXCL, Linux 6.9); else /proc below.
    UniqueFd pidfd(static_cast<int>(::syscall(SYS_pidfd_open, tid, 0)));
    if (!pidfd && (errno == EINVAL || errno == ENOENT))
      pidfd.reset(static_cast<int>(::syscall(SYS_pidfd_open, tid, O_EXCL)));
    if (!pidfd && errno == ESRCH) return {tid, 0};  // gone
    if (pidfd) {
      uapi::pidfd_info info = {};
      info.mask = uapi::kPidfdInfoPid;
      if (::ioctl(pidfd.get(), uapi::kPidfdGetInfo, &info) == 0)
        return {static_cast<int>(info.tgid), static_cast<int>(info.ppid)};
      if (errno == ESRCH) return {tid, 0};
      if (errno == ENOTTY || errno == EINVAL || errno == EOPNOTSUPP) have_pidfd_info = false;
    }
  }
  return process_ids_from_proc(proc_fd, tid);
}

// /proc/TID/stat has the parent but not the process: a thread other than the
// leader would be recorded under its own id. status names both, and escapes
// the command name, so one of its lines cannot pose as another.
ProcessIds process_ids_from_proc(int proc_fd, int tid) {
  char path[64];
  std::snprintf(path, sizeof path, "%d/status", tid);
  UniqueFd fd(::openat(proc_fd, path, O_RDONLY | O_CLOEXEC));
  if (!fd) return {tid, 0};
  char buf[1024];  // Name, Umask, State, Tgid, Ngid, Pid, PPid come first
  ssize_t n = ::read(fd.get(), buf, sizeof buf - 1);
  if (n <= 0) return {tid, 0};
  buf[n] = '\0';
  ProcessIds ids{tid, 0};
  for (const char* line = buf; line != nullptr;) {
    int value;
    if (std::sscanf(line, "Tgid: %d", &value) == 1) ids.pid = value;
    if (std::sscanf(line, "PPid: %d", &value) == 1) ids.ppid = value;
    line = std::strchr(line, '\n');
    if (line) ++line;
  }
  return ids;
}

std::vector<int> listed_processes(int proc_fd) {
  std::vector<int> pids;
  UniqueFd dir_fd(::openat(proc_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  DIR* dir = dir_fd ? ::fdopendir(dir_fd.get()) : nullptr;
  if (!dir) return pids;
  dir_fd.release();
  for (const std::string& name : entry_names(dir))
    if (name[0] >= '1' && name[0] <= '9') pids.push_back(std::atoi(name.c_str()));
  ::closedir(dir);
  return pids;
}

// "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
int process_group_from_proc(int proc_fd, int pid) {
  char path[64];
  std::snprintf(path, sizeof path, "%d/stat", pid);
  UniqueFd fd(::openat(proc_fd, path, O_RDONLY | O_CLOEXEC));
  if (!fd) return -1;
  char buf[512];
  const ssize_t n = ::read(fd.get(), buf, sizeof buf - 1);
  if (n <= 0) return -1;
  buf[n] = '\0';
  const char* close = std::strrchr(buf, ')');
  int ppid = 0, pgrp = -1;
  char state = 0;
  if (!close || std::sscanf(close + 1, " %c %d %d", &state, &ppid, &pgrp) != 3) return -1;
  return pgrp;
}

}  // namespace aj
