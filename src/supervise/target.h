// What the supervisor reads from a notified process, while its syscall
// waits: strings and argv from its memory, and its parent.
#pragma once

#include <sys/types.h>
#include <sys/uio.h>

#include <cstdint>
#include <string>
#include <vector>

#include "base/unique_fd.h"

namespace aj {

// The notified process's memory: process_vm_readv (one syscall, no fd),
// falling back to /proc/PID/mem where that is refused.
class Remote {
 public:
  explicit Remote(int pid) : pid_(pid) {}
  ssize_t read(std::uint64_t addr, void* buf, std::size_t n);
  // Several ranges at once; where process_vm_readv is refused, one by one.
  ssize_t read_vec(const struct iovec* local, const struct iovec* remote, std::size_t n);

 private:
  int pid_;
  UniqueFd mem_;
};

// How far reads of a process's strings got; each read only ever sets a flag.
struct ReadStatus {
  // Memory that could not be read ended a string or argv's pointer array
  // early. The kernel can read pages process_vm_readv cannot (the vvar page,
  // memfd_secret), so what was read need not be what the kernel will see.
  bool unreadable = false;
  // A string longer than 4096 bytes, or argv longer than 256 elements: the
  // text ends in "...[+more bytes]", the list in "[+more]".
  bool cut = false;
};

// A NUL-terminated string at addr (see ReadStatus for what is kept).
std::string read_string(Remote& mem, std::uint64_t addr, ReadStatus* status = nullptr);

// An exec's path and argv, and how far each read got.
struct ExecArgsStatus {
  ReadStatus path, argv;
};
ExecArgsStatus read_exec_args(Remote& mem, std::uint64_t path_addr, std::uint64_t argv_addr,
                              std::string* path, std::vector<std::string>* argv);

struct ProcessIds {
  int pid = 0;   // the process (thread group) of the notified thread
  int ppid = 0;  // its parent; 0 when unknown
};

// The process a notified thread belongs to, and its parent. proc_fd: an
// open /proc, for kernels without PIDFD_GET_INFO.
ProcessIds process_ids(int proc_fd, int tid);

// The same from /proc/TID/status, for kernels without PIDFD_GET_INFO (before
// 6.13, e.g. Debian 12's 6.1). {tid, 0} when it cannot be read.
ProcessIds process_ids_from_proc(int proc_fd, int tid);

// Every process /proc lists now (its numeric entries).
std::vector<int> listed_processes(int proc_fd);

// pid's process group, from /proc/PID/stat, or -1 when it is gone.
int process_group_from_proc(int proc_fd, int pid);

}  // namespace aj
