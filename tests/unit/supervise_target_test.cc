// The process ids of a notified thread, read the way kernels without
// PIDFD_GET_INFO (before 6.13, e.g. Debian 12's 6.1) need, checked against
// what this process knows of itself.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <thread>

#include "base/unique_fd.h"
#include "supervise/target.h"

namespace aj {
namespace {

UniqueFd open_proc() { return UniqueFd(::open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC)); }

TEST_CASE("process ids from /proc: the leader is its own process, with its parent") {
  UniqueFd proc = open_proc();
  REQUIRE(proc.valid());
  ProcessIds ids = process_ids_from_proc(proc.get(), ::gettid());
  CHECK(ids.pid == ::getpid());
  CHECK(ids.ppid == ::getppid());
}

TEST_CASE("process ids from /proc: another thread is recorded as its process") {
  UniqueFd proc = open_proc();
  REQUIRE(proc.valid());
  pid_t tid = 0;
  ProcessIds ids;
  std::thread t([&] {
    tid = ::gettid();
    ids = process_ids_from_proc(proc.get(), tid);
  });
  t.join();
  CHECK(tid != ::getpid());
  CHECK(ids.pid == ::getpid());
  CHECK(ids.ppid == ::getppid());
}

TEST_CASE("process ids from /proc: a child's parent is this process; a reaped one is unknown") {
  UniqueFd proc = open_proc();
  REQUIRE(proc.valid());
  int ready[2];
  REQUIRE(::pipe2(ready, O_CLOEXEC) == 0);
  pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(ready[1]);
    char c;
    (void)::read(ready[0], &c, 1);  // until the parent has looked
    ::_exit(0);
  }
  ProcessIds ids = process_ids_from_proc(proc.get(), child);
  CHECK(ids.pid == child);
  CHECK(ids.ppid == ::getpid());
  ::close(ready[0]);
  ::close(ready[1]);
  REQUIRE(::waitpid(child, nullptr, 0) == child);
  ProcessIds gone = process_ids_from_proc(proc.get(), child);
  CHECK(gone.pid == child);
  CHECK(gone.ppid == 0);
}

TEST_CASE("process ids: the pidfd path and the /proc path agree") {
  UniqueFd proc = open_proc();
  REQUIRE(proc.valid());
  ProcessIds fast = process_ids(proc.get(), ::gettid());
  ProcessIds slow = process_ids_from_proc(proc.get(), ::gettid());
  CHECK(fast.pid == slow.pid);
  CHECK(fast.ppid == slow.ppid);
}

}  // namespace
}  // namespace aj
