#include "sys/cgroup.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>

namespace aj {
namespace {

constexpr const char* kWanted[] = {"memory", "pids", "cpu"};

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(sep, start);
    if (end == std::string_view::npos) end = text.size();
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::vector<std::string> words(std::string_view text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t j = i;
    while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j]))) ++j;
    if (j > i) out.emplace_back(text.substr(i, j - i));
    i = j;
  }
  return out;
}

bool contains(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::optional<std::uint64_t> parse_u64(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
    if (v > (~std::uint64_t{0} - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescape_octal(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      const char a = s[i + 1], b = s[i + 2], c = s[i + 3];
      if (a >= '0' && a <= '3' && b >= '0' && b <= '7' && c >= '0' && c <= '7') {
        out += static_cast<char>((a - '0') * 64 + (b - '0') * 8 + (c - '0'));
        i += 3;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += sep;
    out += item;
  }
  return out;
}

}  // namespace

// ---- parsers ----

std::vector<ProcCgroupEntry> parse_proc_cgroup(std::string_view text) {
  std::vector<ProcCgroupEntry> out;
  for (std::string_view line : split(text, '\n')) {
    const size_t c1 = line.find(':');
    if (c1 == std::string_view::npos) continue;
    const size_t c2 = line.find(':', c1 + 1);
    if (c2 == std::string_view::npos) continue;
    const auto id = parse_u64(line.substr(0, c1));
    const std::string_view path = line.substr(c2 + 1);  // a path may itself hold ':'
    if (!id || path.empty() || path[0] != '/') continue;
    ProcCgroupEntry e;
    e.hierarchy = static_cast<int>(*id);
    for (std::string_view c : split(line.substr(c1 + 1, c2 - c1 - 1), ',')) {
      if (!c.empty()) e.controllers.emplace_back(c);
    }
    e.path = std::string(path);
    out.push_back(std::move(e));
  }
  return out;
}

std::vector<CgroupMount> parse_cgroup_mounts(std::string_view mountinfo) {
  std::vector<CgroupMount> out;
  for (std::string_view line : split(mountinfo, '\n')) {
    const std::vector<std::string_view> f = split(line, ' ');
    // ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPER
    auto dash = std::find(f.begin() + std::min<size_t>(6, f.size()), f.end(), "-");
    if (f.size() < 10 || dash == f.end() || f.end() - dash < 4) continue;
    const std::string_view fstype = dash[1];
    if (fstype != "cgroup" && fstype != "cgroup2") continue;
    CgroupMount m;
    m.root = unescape_octal(f[3]);
    m.mount_point = unescape_octal(f[4]);
    m.v2 = fstype == "cgroup2";
    for (std::string_view o : split(f[5], ',')) m.read_only = m.read_only || o == "ro";
    for (std::string_view o : split(dash[3], ',')) {
      if (o == "ro") m.read_only = true;
      if (!m.v2 && !o.empty() && o != "rw" && o != "ro") m.controllers.emplace_back(o);
    }
    out.push_back(std::move(m));
  }
  return out;
}

std::string cgroup_dir_for(const CgroupMount& mount, std::string_view own_path) {
  std::string_view root = mount.root;
  if (root.size() > 1 && root.back() == '/') root.remove_suffix(1);
  std::string_view rest;
  if (root == "/") {
    rest = own_path == "/" ? std::string_view{} : own_path;
  } else if (own_path == root) {
    rest = {};
  } else if (own_path.size() > root.size() && own_path.substr(0, root.size()) == root &&
             own_path[root.size()] == '/') {
    rest = own_path.substr(root.size());
  } else {
    return {};  // our group lies outside what this mount shows
  }
  return mount.mount_point + std::string(rest);
}

std::map<std::string, std::uint64_t> parse_flat_keyed(std::string_view text) {
  std::map<std::string, std::uint64_t> out;
  for (std::string_view line : split(text, '\n')) {
    const std::vector<std::string> w = words(line);
    if (w.size() != 2) continue;
    if (auto v = parse_u64(w[1])) out[w[0]] = *v;
  }
  return out;
}

const char* to_string(CgroupSupport::Kind kind) {
  switch (kind) {
    case CgroupSupport::Kind::kNone: return "none";
    case CgroupSupport::Kind::kV2: return "v2";
    case CgroupSupport::Kind::kV1: return "v1";
  }
  return "?";
}

// ---- detection ----

namespace {

struct Found {
  std::vector<std::string> usable;  // of kWanted
  std::vector<std::string> notes;   // why the others are not
};

std::vector<pid_t> parse_pids(std::string_view text) {
  std::vector<pid_t> out;
  for (const std::string& w : words(text)) {
    if (auto v = parse_u64(w)) out.push_back(static_cast<pid_t>(*v));
  }
  return out;
}

// cgroup v2: our group (the "0::" line) must offer the controllers in
// cgroup.controllers and let us create a child. A controller not yet in
// cgroup.subtree_control can be enabled unless the group holds processes
// other than us: the "no internal processes" rule then makes the write
// fail (the true root group is exempt); we alone can move into a leaf first.
Found detect_v2(CgroupFs& fs, const std::vector<CgroupMount>& mounts,
                const std::vector<ProcCgroupEntry>& entries, CgroupSupport& s) {
  Found found;
  auto own = std::find_if(entries.begin(), entries.end(), [](const ProcCgroupEntry& e) {
    return e.hierarchy == 0 && e.controllers.empty();
  });
  if (own == entries.end()) {
    found.notes.push_back("cgroup v2: this process is in no v2 group");
    return found;
  }
  std::string dir;
  const CgroupMount* mount = nullptr;
  for (const CgroupMount& m : mounts) {
    if (!m.v2) continue;
    dir = cgroup_dir_for(m, own->path);
    if (!dir.empty()) {
      mount = &m;
      break;
    }
  }
  if (mount == nullptr) {
    found.notes.push_back(
        fmt::format("cgroup v2: our group {} is under no cgroup2 mount", own->path));
    return found;
  }
  if (mount->read_only) {
    found.notes.push_back(fmt::format("cgroup v2: {} is mounted read-only", mount->mount_point));
    return found;
  }
  const std::vector<std::string> avail = words(fs.read(dir + "/cgroup.controllers").value_or(""));
  const std::vector<std::string> enabled =
      words(fs.read(dir + "/cgroup.subtree_control").value_or(""));
  std::vector<std::string> offered, absent;
  for (const char* c : kWanted) (contains(avail, c) ? offered : absent).emplace_back(c);
  if (offered.empty()) {
    found.notes.push_back(fmt::format("cgroup v2 ({}): offers no memory, pids or cpu controller{}",
                                      dir,
                                      avail.empty() ? "" : " (only " + join(avail, ", ") + ")"));
    return found;
  }
  if (int err = fs.probe_create(dir); err != 0) {
    found.notes.push_back(
        fmt::format("cgroup v2: cannot create a group under {}: {}", dir, std::strerror(err)));
    return found;
  }
  std::vector<std::string> need;
  for (const auto& c : offered) {
    if (!contains(enabled, c)) need.push_back(c);
  }
  bool blocked = false, move_self = false;
  // The true root group has no cgroup.type; "0::/" alone may be the root of
  // a cgroup namespace (a container), which is an ordinary group.
  const bool is_root = !fs.read(dir + "/cgroup.type").has_value();
  if (!need.empty() && !is_root) {
    const std::vector<pid_t> procs = parse_pids(fs.read(dir + "/cgroup.procs").value_or(""));
    const pid_t self = fs.self_pid();
    blocked = std::any_of(procs.begin(), procs.end(), [&](pid_t p) { return p != self; });
    move_self = !blocked && !procs.empty();
  }
  for (const auto& c : offered) {
    if (!blocked || !contains(need, c)) found.usable.push_back(c);
  }
  if (blocked) {
    found.notes.push_back(fmt::format(
        "cgroup v2 ({}): {} not delegated to child groups and the group holds other processes "
        "(run agentjail in a delegated scope of its own: systemd-run --user --scope -p "
        "Delegate=yes agentjail ...)",
        dir, join(need, ", ")));
  }
  if (!absent.empty()) {
    found.notes.push_back(fmt::format("cgroup v2 ({}): no {} controller", dir, join(absent, ", ")));
  }
  s.base = dir;
  if (!blocked) s.v2_enable = need;
  s.v2_move_self = move_self && !blocked;
  return found;
}

// cgroup v1: for each controller, its hierarchy's mount and our group in it.
Found detect_v1(CgroupFs& fs, const std::vector<CgroupMount>& mounts,
                const std::vector<ProcCgroupEntry>& entries, CgroupSupport& s) {
  Found found;
  for (const char* c : kWanted) {
    auto mount = std::find_if(mounts.begin(), mounts.end(), [&](const CgroupMount& m) {
      return !m.v2 && contains(m.controllers, c);
    });
    auto own = std::find_if(entries.begin(), entries.end(), [&](const ProcCgroupEntry& e) {
      return e.hierarchy != 0 && contains(e.controllers, c);
    });
    if (mount == mounts.end() || own == entries.end()) {
      found.notes.push_back(fmt::format("cgroup v1: no {} hierarchy", c));
      continue;
    }
    const std::string dir = cgroup_dir_for(*mount, own->path);
    std::string note;
    if (dir.empty()) {
      note = fmt::format("cgroup v1: our {} group {} is not visible at {}", c, own->path,
                         mount->mount_point);
    } else if (mount->read_only) {
      note = fmt::format("cgroup v1: {} is mounted read-only", mount->mount_point);
    } else if (int err = fs.probe_create(dir); err != 0) {
      note = fmt::format("cgroup v1: cannot create a group under {}: {}", dir, std::strerror(err));
    }
    if (!note.empty()) {
      found.notes.push_back(std::move(note));
      continue;
    }
    found.usable.push_back(c);
    (c == std::string_view("memory") ? s.v1_memory_base
     : c == std::string_view("pids") ? s.v1_pids_base
                                     : s.v1_cpu_base) = dir;
  }
  return found;
}

void set_flags(CgroupSupport& s, const std::vector<std::string>& usable) {
  s.memory = contains(usable, "memory");
  s.pids = contains(usable, "pids");
  s.cpu = contains(usable, "cpu");
}

}  // namespace

CgroupSupport detect_cgroups(CgroupFs& fs) {
  const auto mounts = parse_cgroup_mounts(fs.read("/proc/self/mountinfo").value_or(""));
  const auto entries = parse_proc_cgroup(fs.read("/proc/self/cgroup").value_or(""));
  if (mounts.empty()) return CgroupSupport{.reason = "no cgroup filesystem is mounted"};

  CgroupSupport v2;
  const Found f2 = detect_v2(fs, mounts, entries, v2);
  CgroupSupport v1;
  Found f1;
  // v1 only when v2 leaves something out: probing v1 creates directories.
  if (f2.usable.size() < std::size(kWanted)) f1 = detect_v1(fs, mounts, entries, v1);

  // One version per session; the one that serves more controllers (v2 on a tie).
  // Mixed hosts (some controllers on each) are rare: systemd's hybrid mode
  // leaves v2 empty.
  std::vector<std::string> notes = f2.notes;
  CgroupSupport out;
  if (!f2.usable.empty() && f2.usable.size() >= f1.usable.size()) {
    out = std::move(v2);
    out.kind = CgroupSupport::Kind::kV2;
    set_flags(out, f2.usable);
  } else if (!f1.usable.empty()) {
    out = std::move(v1);
    out.kind = CgroupSupport::Kind::kV1;
    set_flags(out, f1.usable);
    out.base = !out.v1_pids_base.empty()     ? out.v1_pids_base
               : !out.v1_memory_base.empty() ? out.v1_memory_base
                                             : out.v1_cpu_base;
    notes.insert(notes.end(), f1.notes.begin(), f1.notes.end());
  } else {
    notes.insert(notes.end(), f1.notes.begin(), f1.notes.end());
  }
  out.reason = join(notes, "; ");
  return out;
}

namespace {

std::optional<std::string> read_whole(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return std::nullopt;
  std::string out;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

class HostCgroupFs : public CgroupFs {
 public:
  std::optional<std::string> read(const std::string& path) override { return read_whole(path); }
  // Permission to create a group, asked without creating one: a mkdir and
  // rmdir per controller cost about 2 ms of every start. A refusal that only
  // mkdir would reveal still surfaces, as an error of create_session_cgroup
  // (and the run falls back to rlimits, saying so).
  int probe_create(const std::string& dir) override {
    if (::faccessat(AT_FDCWD, dir.c_str(), W_OK | X_OK, AT_EACCESS) != 0) return errno;
    return 0;
  }
  pid_t self_pid() override { return ::getpid(); }
};

}  // namespace

CgroupSupport detect_cgroups() {
  HostCgroupFs fs;
  return detect_cgroups(fs);
}

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
    const std::vector<pid_t> pids = parse_pids(read_whole(g.dir + "/cgroup.procs").value_or(""));
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
    return parse_flat_keyed(read_whole(path).value_or(""));
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
          const auto w = words(read_whole(g.dir + f).value_or(""));
          if (!w.empty()) ev.memory_max_hits += parse_u64(w[0]).value_or(0);
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
