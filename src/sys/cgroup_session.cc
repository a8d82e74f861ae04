// A session's cgroups: creating them, placing the jail, reading what the
// limits did, and removing them (see cgroup.h; detection is in cgroup.cc).
#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <ctime>

#include "sys/cgroup.h"
#include "sys/cgroup_text.h"
#include "sys/read_file.h"

namespace aj {

// ---- a session's groups ----

namespace {

bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

Result<void> write_text(const std::string& path, std::string_view text) {
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
  if (!fd) return sys_error("open", path, errno);
  if (::write(fd.get(), text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    return sys_error("write", path, errno);
  }
  return {};
}

void sleep_us(long us) {
  timespec ts{us / 1000000, (us % 1000000) * 1000L};
  while (::nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

void sleep_ms(long ms) { sleep_us(ms * 1000); }

// v2 controllers reach a child group only through the parent's
// cgroup.subtree_control; a group holding processes cannot enable them, so
// the supervisor first moves into a leaf of its own (detect_v2 checked that
// it is alone in base).
Result<void> prepare_v2(const CgroupSupport& s) {
  if (s.v2_enable.empty()) return {};
  if (s.v2_move_self) {
    const std::string leaf = fmt::format("{}/agentjail-supervisor-{}", s.base, ::getpid());
    if (::mkdir(leaf.c_str(), 0755) != 0 && errno != EEXIST) return sys_error("mkdir", leaf, errno);
    AJ_TRY(write_text(leaf + "/cgroup.procs", std::to_string(::getpid())));
  }
  std::string ctl;
  for (const auto& c : s.v2_enable) ctl += (ctl.empty() ? "+" : " +") + c;
  return write_text(s.base + "/cgroup.subtree_control", ctl);
}

Result<void> write_v2_limits(const CgroupSupport& s, const std::string& dir,
                             const CgroupLimits& limits) {
  if (s.memory && limits.memory_max) {
    AJ_TRY(write_text(dir + "/memory.max", std::to_string(*limits.memory_max)));
    // Without this a hog swaps instead of dying, and swap hurts neighbours too.
    if (exists(dir + "/memory.swap.max")) AJ_TRY(write_text(dir + "/memory.swap.max", "0"));
  }
  if (s.pids && limits.pids_max) {
    AJ_TRY(write_text(dir + "/pids.max", std::to_string(*limits.pids_max)));
  }
  if (s.cpu && limits.cpu_max) {
    AJ_TRY(write_text(dir + "/cpu.max",
                      fmt::format("{} {}", limits.cpu_max->quota_us, limits.cpu_max->period_us)));
  }
  return {};
}

Result<void> write_v1_limits(const std::string& controller, const std::string& dir,
                             const CgroupLimits& limits) {
  if (controller == "memory") {
    const std::string v = std::to_string(*limits.memory_max);
    AJ_TRY(write_text(dir + "/memory.limit_in_bytes", v));
    // memory+swap: present only with swap accounting; must not be below the
    // memory limit, hence written second.
    if (exists(dir + "/memory.memsw.limit_in_bytes")) {
      AJ_TRY(write_text(dir + "/memory.memsw.limit_in_bytes", v));
    }
  } else if (controller == "pids") {
    AJ_TRY(write_text(dir + "/pids.max", std::to_string(*limits.pids_max)));
  } else if (controller == "cpu") {
    AJ_TRY(write_text(dir + "/cpu.cfs_period_us", std::to_string(limits.cpu_max->period_us)));
    AJ_TRY(write_text(dir + "/cpu.cfs_quota_us", std::to_string(limits.cpu_max->quota_us)));
  }
  return {};
}

Result<void> add_group(SessionCgroup& cg, std::string controller, std::string dir) {
  remove_stale_groups(dir.substr(0, dir.rfind('/')));
  if (::mkdir(dir.c_str(), 0755) != 0) return sys_error("mkdir", dir, errno);
  cg.groups.push_back({std::move(controller), std::move(dir), UniqueFd(), UniqueFd()});
  return {};
}

Result<void> open_procs(SessionCgroup& cg) {
  for (auto& g : cg.groups) {
    const std::string path = g.dir + "/cgroup.procs";
    g.procs.reset(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
    if (!g.procs) return sys_error("open", path, errno);
    const bool v2 = g.controller.empty();
    const std::string entry = v2 ? g.dir : g.dir + "/tasks";
    g.entry.reset(v2 ? ::open(entry.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)
                     : ::open(entry.c_str(), O_WRONLY | O_CLOEXEC));
    if (!g.entry) return sys_error("open", entry, errno);
  }
  return {};
}

Result<void> populate(const CgroupSupport& s, const std::string& name, const CgroupLimits& limits,
                      SessionCgroup& cg) {
  if (s.kind == CgroupSupport::Kind::kV2) {
    AJ_TRY(prepare_v2(s));
    const std::string dir = s.base + "/" + name;
    AJ_TRY(add_group(cg, "", dir));
    AJ_TRY(write_v2_limits(s, dir, limits));
  } else if (s.kind == CgroupSupport::Kind::kV1) {
    const struct {
      const char* controller;
      bool wanted;
      const std::string& base;
    } hierarchies[] = {
        {"memory", s.memory && limits.memory_max.has_value(), s.v1_memory_base},
        {"pids", s.pids && limits.pids_max.has_value(), s.v1_pids_base},
        {"cpu", s.cpu && limits.cpu_max.has_value(), s.v1_cpu_base},
    };
    for (const auto& h : hierarchies) {
      if (!h.wanted || h.base.empty()) continue;
      const std::string dir = h.base + "/" + name;
      AJ_TRY(add_group(cg, h.controller, dir));
      AJ_TRY(write_v1_limits(h.controller, dir, limits));
    }
  }
  return open_procs(cg);
}

// SIGKILL to everything listed, until the group is empty: a process may fork
// between our read and our kill, so one pass is not enough.
void kill_all(const SessionCgroup::Group& g, bool v2) {
  const bool has_kill = v2 && exists(g.dir + "/cgroup.kill");
  if (has_kill) (void)write_text(g.dir + "/cgroup.kill", "1");
  for (int pass = 0; pass < 200; ++pass) {
    const std::vector<pid_t> pids =
        cgroup_text::parse_pids(read_file(g.dir + "/cgroup.procs").value_or(""));
    if (pids.empty()) return;
    if (!has_kill) {
      for (pid_t p : pids) {
        if (p != ::getpid()) ::kill(p, SIGKILL);
      }
    }
    sleep_ms(10);
  }
}

}  // namespace

int remove_stale_groups(const std::string& base, long min_age_s) {
  DIR* dir = ::opendir(base.c_str());
  if (dir == nullptr) return 0;
  const std::time_t now = std::time(nullptr);
  int removed = 0;
  while (const struct dirent* e = ::readdir(dir)) {
    const std::string_view name = e->d_name;
    if (!name.starts_with("agentjail-")) continue;
    const std::string path = base + "/" + e->d_name;
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    if (now - st.st_mtime < min_age_s) continue;  // may be a session starting now
    const auto procs = read_file(path + "/cgroup.procs");
    if (!procs || !cgroup_text::parse_pids(*procs).empty()) continue;
    // A group that still holds processes or child groups refuses rmdir.
    if (::rmdir(path.c_str()) == 0) ++removed;
  }
  ::closedir(dir);
  return removed;
}

std::vector<int> SessionCgroup::procs_fds() const {
  std::vector<int> out;
  for (const auto& g : groups) out.push_back(g.procs.get());
  return out;
}

std::vector<int> SessionCgroup::v1_task_fds() const {
  std::vector<int> out;
  for (const auto& g : groups)
    if (!g.controller.empty()) out.push_back(g.entry.get());
  return out;
}

int SessionCgroup::v2_clone_into_fd() const {
  for (const auto& g : groups)
    if (g.controller.empty()) return g.entry.get();
  return -1;
}

Result<SessionCgroup> create_session_cgroup(const CgroupSupport& support,
                                            std::string_view session_id,
                                            const CgroupLimits& limits) {
  if (session_id.empty() || session_id.size() > 128 ||
      session_id.find_first_of("/\n") != std::string_view::npos || session_id[0] == '.') {
    return fail(fmt::format("invalid session id for a cgroup name: '{}'", session_id));
  }
  SessionCgroup cg;
  cg.kind = support.kind;
  const std::string name = fmt::format("agentjail-{}", session_id);
  if (auto r = populate(support, name, limits, cg); !r) {
    for (auto& g : cg.groups) {
      g.procs.reset();
      g.entry.reset();
      ::rmdir(g.dir.c_str());
    }
    return unexpected(std::move(r).error().with_context("cgroup"));
  }
  return cg;
}

Result<void> cgroup_add_pid(const SessionCgroup& cgroup, pid_t pid) {
  const std::string text = std::to_string(pid);
  for (const auto& g : cgroup.groups) {
    if (::write(g.procs.get(), text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
      return sys_error("write", g.dir + "/cgroup.procs", errno);
    }
  }
  return {};
}

int cgroup_enter_self(const int* procs_fds, std::size_t n, std::size_t* failed_index) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    if (::write(procs_fds[i], "0", 1) != 1) {
      if (failed_index != nullptr) *failed_index = i;
      return errno;
    }
  }
  return 0;
}

CgroupEvents read_cgroup_events(const SessionCgroup& cgroup) {
  CgroupEvents ev;
  auto keyed = [](const std::string& path) {
    return parse_flat_keyed(read_file(path).value_or(""));
  };
  auto get = [](const std::map<std::string, std::uint64_t>& m, const char* key) {
    auto it = m.find(key);
    return it == m.end() ? std::uint64_t{0} : it->second;
  };
  for (const auto& g : cgroup.groups) {
    const bool v2 = g.controller.empty();
    if (v2 || g.controller == "memory") {
      if (v2) {
        const auto mem = keyed(g.dir + "/memory.events");
        ev.memory_max_hits += get(mem, "max");
        ev.oom_kills += get(mem, "oom_kill");
      } else {
        // With memsw set, a charge may fail on memory+swap first: count both.
        for (const char* f : {"/memory.failcnt", "/memory.memsw.failcnt"}) {
          const auto w = cgroup_text::words(read_file(g.dir + f).value_or(""));
          if (!w.empty()) ev.memory_max_hits += cgroup_text::parse_u64(w[0]).value_or(0);
        }
        ev.oom_kills += get(keyed(g.dir + "/memory.oom_control"), "oom_kill");
      }
    }
    if (v2 || g.controller == "pids") ev.pids_max_hits += get(keyed(g.dir + "/pids.events"), "max");
    if (v2 || g.controller == "cpu")
      ev.cpu_throttled += get(keyed(g.dir + "/cpu.stat"), "nr_throttled");
  }
  return ev;
}

Result<void> destroy_session_cgroup(SessionCgroup& cgroup) {
  std::optional<Error> first_error;
  for (auto& g : cgroup.groups) {
    g.procs.reset();
    g.entry.reset();
    kill_all(g, cgroup.kind == CgroupSupport::Kind::kV2);
    // A killed task leaves the group a moment after the signal: retry EBUSY,
    // first after 0.1 ms (usually enough: a fixed 10 ms wait was most of a
    // short session's run time), backing off to 10 ms, about 2 s in all.
    int err = 0;
    long wait_us = 100;
    for (int attempt = 0; attempt < 220; ++attempt) {
      err = ::rmdir(g.dir.c_str()) == 0 ? 0 : errno;
      if (err != EBUSY) break;
      sleep_us(wait_us);
      wait_us = std::min(wait_us * 2, 10000L);
    }
    if (err != 0 && err != ENOENT && !first_error) {
      first_error = sys_error("rmdir", g.dir, err).error;
    }
  }
  cgroup.groups.clear();
  if (first_error) return unexpected(std::move(*first_error).with_context("cgroup"));
  return {};
}

}  // namespace aj
