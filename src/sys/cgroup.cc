// Reading the host's cgroup setup: the pure parsers and detection (see
// cgroup.h; a session's own groups are in cgroup_session.cc).
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

#include "sys/cgroup_text.h"
#include "sys/read_file.h"

namespace aj {

using cgroup_text::parse_pids;
using cgroup_text::parse_u64;
using cgroup_text::words;

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

bool contains(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
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
    found.notes.push_back(
        fmt::format("cgroup v2 ({}): offers no memory, pids or cpu controller{}", dir,
                    avail.empty() ? "" : " (only " + fmt::to_string(fmt::join(avail, ", ")) + ")"));
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
        dir, fmt::join(need, ", ")));
  }
  if (!absent.empty()) {
    found.notes.push_back(
        fmt::format("cgroup v2 ({}): no {} controller", dir, fmt::join(absent, ", ")));
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
  out.reason = fmt::to_string(fmt::join(notes, "; "));
  return out;
}

namespace {

class HostCgroupFs : public CgroupFs {
 public:
  std::optional<std::string> read(const std::string& path) override { return read_file(path); }
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

}  // namespace aj
