#include "plan/mount_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "policy/variables.h"

namespace aj {
namespace {

// On the same path the most restrictive request wins.
enum class Category { kTmpfs = 0, kReadWrite = 1, kReadOnly = 2, kHide = 3 };

struct Request {
  std::string path;
  Category category;
  SourceLoc where;
};

int depth(const std::string& path) {
  if (path == "/") return 0;
  return static_cast<int>(std::count(path.begin(), path.end(), '/'));
}

std::string location_prefix(const SourceLoc& where) {
  return where.file.empty() ? std::string() : where.str() + ": ";
}

// Paths under these are built by agentjail itself; a profile cannot bind them.
bool is_managed(const std::string& path) {
  return path == "/" || path_is_within(path, "/proc") || path_is_within(path, "/dev");
}

void add_builtin_proc(std::vector<MountOp>& ops) {
  ops.push_back({MountKind::kProc, "", "/proc", {}, 0555, false});
  // Host-wide knobs a root-invoked jail must not turn: the same set container
  // runtimes protect. Read-only where reading is useful, masked otherwise.
  for (const char* p : {"/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"})
    ops.push_back({MountKind::kRemountReadOnly, "", p, {}, 0, true});
  for (const char* p : {"/proc/kcore", "/proc/keys", "/proc/latency_stats", "/proc/timer_list",
                        "/proc/timer_stats", "/proc/sched_debug", "/proc/kallsyms", "/proc/kmsg",
                        // Root-only maps of the kernel's heap and of physical memory
                        // (readable to a root caller).
                        "/proc/slabinfo", "/proc/vmallocinfo", "/proc/pagetypeinfo",
                        "/proc/kpageflags", "/proc/kpagecount", "/proc/kpagecgroup"})
    ops.push_back({MountKind::kHideFile, "", p, {}, 0, true});
  for (const char* p : {"/proc/acpi", "/proc/scsi", "/proc/asound"})
    ops.push_back({MountKind::kHideDir, "", p, {}, 0, true});
}

void add_builtin_dev(std::vector<MountOp>& ops) {
  ops.push_back({MountKind::kTmpfs, "", "/dev", {}, 0755, false});
  for (const char* node : {"null", "zero", "full", "random", "urandom", "tty"}) {
    std::string path = std::string("/dev/") + node;
    ops.push_back({MountKind::kBindDevice, path, path, {}, 0, false});
  }
  ops.push_back({MountKind::kDevpts, "", "/dev/pts", {}, 0, false});
  ops.push_back({MountKind::kSymlink, "pts/ptmx", "/dev/ptmx", {}, 0, false});
  ops.push_back({MountKind::kTmpfs, "", "/dev/shm", {}, 01777, false});
  ops.push_back({MountKind::kSymlink, "/proc/self/fd", "/dev/fd", {}, 0, false});
  ops.push_back({MountKind::kSymlink, "/proc/self/fd/0", "/dev/stdin", {}, 0, false});
  ops.push_back({MountKind::kSymlink, "/proc/self/fd/1", "/dev/stdout", {}, 0, false});
  ops.push_back({MountKind::kSymlink, "/proc/self/fd/2", "/dev/stderr", {}, 0, false});
}

class Planner {
 public:
  Planner(const FilesystemRequest& req, const Disk& disk) : req_(req), disk_(disk) {}

  MountPlan run() {
    collect();
    pin_ancestors();
    std::vector<MountOp> builtins;
    add_builtin_proc(builtins);
    add_builtin_dev(builtins);
    // The terminal the command already holds on fds 0-2 gets a name, so that
    // ttyname()/tty(1) work (bubblewrap does the same); no other host tty.
    if (!req_.terminal.empty())
      builtins.push_back({MountKind::kBindDevice, req_.terminal, "/dev/console", {}, 0, true});
    std::vector<MountOp> requested;
    for (const auto& [path, r] : winners_) plan_one(r, requested);
    // Builtins first, then shallowest first: a nested mount lands on its parent.
    plan_.ops = std::move(builtins);
    plan_.ops.insert(plan_.ops.end(), requested.begin(), requested.end());
    std::stable_sort(plan_.ops.begin(), plan_.ops.end(), [](const MountOp& a, const MountOp& b) {
      return depth(a.target) < depth(b.target);
    });
    return std::move(plan_);
  }

 private:
  void error(const SourceLoc& where, const std::string& msg) {
    plan_.errors.push_back(location_prefix(where) + msg);
  }

  void add(const ExpandedPath& p, Category c) {
    if (is_managed(p.path)) {
      error(p.where, fmt::format("'{}' is built by agentjail and cannot be listed here", p.path));
      return;
    }
    auto it = winners_.find(p.path);
    if (it == winners_.end() && !is_clean_absolute(p.path)) ++unclean_requests_;
    if (it == winners_.end() || it->second.category < c) winners_[p.path] = {p.path, c, p.where};
  }

  void collect() {
    for (const auto& p : req_.optional) optional_.push_back(p.path);
    for (const auto& p : req_.tmpfs) add(p, Category::kTmpfs);
    if (!req_.workspace.empty()) add({req_.workspace, req_.workspace_where}, Category::kReadWrite);
    for (const auto& p : req_.read_write) add(p, Category::kReadWrite);
    for (const auto& p : req_.read_only) add(p, Category::kReadOnly);
    for (const auto& p : req_.hide) add(p, Category::kHide);
  }

  // Directories between a writable request and a read-only or hidden path
  // inside it are bound onto themselves (a mount point cannot be renamed):
  // renamed, one would take the protection along, and a directory of the
  // command's making put in its place would hold none.
  void pin_ancestors() {
    std::vector<Request> pins;
    for (const auto& [path, r] : winners_) {
      if (r.category != Category::kReadOnly && r.category != Category::kHide) continue;
      const Request* holder = writable_holder(path);
      if (!holder) continue;
      for (std::string p = path.substr(0, path.rfind('/'));
           p.size() > holder->path.size() && path_is_within(p, holder->path);
           p.resize(p.rfind('/')))
        if (!winners_.count(p)) pins.push_back({p, Category::kReadWrite, r.where});
    }
    for (const Request& pin : pins) {
      if (winners_.count(pin.path)) continue;
      winners_[pin.path] = pin;
      optional_.push_back(pin.path);  // one missing now has nothing to protect yet
    }
  }

  bool is_optional(const std::string& path) const {
    return std::find(optional_.begin(), optional_.end(), path) != optional_.end();
  }

  // The nearest requested ancestor (not the path itself), or nullptr.
  const Request* covering(const std::string& path) const {
    // Clean paths: look the ancestors up, nearest first, instead of testing
    // every request (this runs once per request, on every start).
    if (unclean_requests_ == 0 && is_clean_absolute(path)) {
      std::string ancestor = path;
      while (ancestor.size() > 1) {
        const std::size_t slash = ancestor.rfind('/');
        ancestor.resize(slash == 0 ? 1 : slash);
        if (auto it = winners_.find(ancestor); it != winners_.end()) return &it->second;
      }
      return nullptr;
    }
    const Request* best = nullptr;
    for (const auto& [p, r] : winners_) {
      if (p == path || !path_is_within(path, p)) continue;
      if (!best || p.size() > best->path.size()) best = &r;
    }
    return best;
  }

  bool covered_by_bind(const std::string& path) const {
    const Request* c = covering(path);
    return c && (c->category == Category::kReadOnly || c->category == Category::kReadWrite);
  }

  // The nearest requested path above path when it is writable (a link in it
  // is the command's to plant), or nullptr.
  const Request* writable_holder(const std::string& path) const {
    const Request* c = covering(path);
    return c && c->category == Category::kReadWrite ? c : nullptr;
  }

  // The outermost of the writable requests path lies in, one inside the
  // other (the workspace, then its .git), or nullptr.
  const Request* outermost_writable_holder(const std::string& path) const {
    const Request* found = nullptr;
    for (const Request* h = writable_holder(path); h; h = writable_holder(h->path)) found = h;
    return found;
  }

  // Whether the link at `path`, reading `text`, names `real` itself: its
  // target, made absolute, is already where the link leads (no link on the
  // way).
  static bool leads_there_at_once(const std::string& path, const std::string& text,
                                  const std::string& real) {
    const std::size_t slash = path.rfind('/');
    const std::string dir = slash == 0 ? "/" : path.substr(0, slash);
    const std::string target = text.starts_with("/") ? text : dir + "/" + text;
    return normalize_path(target) == real;
  }

  // Whether a hide, or a request the jail makes of its own (a tmpfs), lies
  // at or within path.
  bool holds_hidden_or_own(const std::string& path) const {
    for (const auto& [p, r] : winners_)
      if ((r.category == Category::kHide && path_is_within(p, path)) ||
          (r.category == Category::kTmpfs && p == path))
        return true;
    return false;
  }

  // A hide request that path lies within, or nullptr.
  const std::string* hidden_holding(const std::string& path) const {
    for (const auto& [p, r] : winners_)
      if (r.category == Category::kHide && path_is_within(path, p)) return &r.path;
    return nullptr;
  }

  void plan_one(const Request& r, std::vector<MountOp>& out) {
    if (r.category == Category::kTmpfs) {
      unsigned mode = (r.path == "/tmp" || r.path == "/var/tmp") ? 01777 : 0755;
      out.push_back({MountKind::kTmpfs, "", r.path, r.where, mode, false});
      return;
    }
    FileKind kind = disk_.kind(r.path);
    if (r.category == Category::kHide) {
      plan_hide(r, kind, out);
      return;
    }
    if (kind == FileKind::kMissing) {
      if (!is_optional(r.path))
        error(r.where, fmt::format("'{}' does not exist ({})", r.path,
                                   r.where.line == 0 ? "create it first"
                                                     : "list it in `optional` if that is fine"));
      else if (r.category == Category::kReadOnly && writable_holder(r.path))
        plan_.unguarded.push_back({r.path, r.where});
      return;
    }
    MountKind mk =
        r.category == Category::kReadOnly ? MountKind::kBindReadOnly : MountKind::kBindReadWrite;
    if (kind == FileKind::kSymlink && !covered_by_bind(r.path)) {
      // A top-level symlink such as /bin -> usr/bin: recreate it, do not follow.
      auto link = disk_.read_link(r.path);
      if (link) out.push_back({MountKind::kSymlink, *link, r.path, r.where, 0, false});
      // Where it leads is granted too, unless a bind already brings it in
      // (/usr for /bin): a grant of ~/.claude kept as a link to a dotfiles
      // checkout would otherwise dangle inside. The checks of any bind hold
      // (not out of the workspace, not to a hidden path); and not where a
      // path the jail hides lies within, or a path the jail makes of its own
      // (a link to the home, which holds ~/.ssh): the link then leads to
      // the jail's own, as before. Only a link that leads there at once:
      // one whose target goes through another link (one a session or a
      // cloned project planted in a writable path) is not followed.
      auto real = disk_.real_path(r.path);
      if (link && real && leads_there_at_once(r.path, *link, *real) && !covered_by_bind(*real) &&
          !holds_hidden_or_own(*real) && may_bind(r, *real))
        out.push_back({mk, *real, *real, r.where, 0, false});
      return;
    }
    auto real = disk_.real_path(r.path);
    if (!real) {
      if (!is_optional(r.path))
        error(r.where, fmt::format("'{}' is a dangling symlink", r.path));
      else if (r.category == Category::kReadOnly)
        refuse_writable_dangling(r);
      return;
    }
    if (!may_bind(r, *real)) return;
    out.push_back({mk, *real, *real, r.where, 0, false});
  }

  // Whether r's path may be bound from where it leads, `real`; if not, says
  // why. A link planted in the workspace (or any writable path) by an
  // earlier session must not pull a host path into the jail: what a path
  // inside a writable grant leads to stays inside that grant, and nothing
  // leads to a hidden path. Nor may a read-only file there have a second
  // name (a hard link) to write it through.
  bool may_bind(const Request& r, const std::string& real) {
    if (!req_.workspace.empty() && path_is_within(r.path, req_.workspace) &&
        !path_is_within(real, req_.workspace)) {
      error(r.where, fmt::format("'{}' resolves to '{}', outside the workspace", r.path, real));
      return false;
    }
    const Request* holder = outermost_writable_holder(r.path);
    if (real != r.path) {
      if (hidden_holding(real)) {
        error(r.where, fmt::format("'{}' resolves to '{}', which the profile hides", r.path, real));
        return false;
      }
      // (The writable path itself may be a link of the user's, ~/.claude to
      // a dotfiles directory: where it leads counts too. It is a mount point
      // in the jail, so the command cannot replace it.)
      if (holder && !path_is_within(real, holder->path) &&
          !path_is_within(real, disk_.real_path(holder->path).value_or(holder->path))) {
        error(r.where,
              fmt::format("'{}' resolves to '{}', outside the writable '{}' that holds it (a link "
                          "there could have been planted by an earlier session): replace the "
                          "link with what it points to, or grant '{}' in a profile of your own",
                          r.path, real, holder->path, real));
        return false;
      }
      if (r.category == Category::kReadOnly) note_links(r);
    }
    if (holder && r.category == Category::kReadOnly && disk_.kind(real) == FileKind::kFile) {
      if (const std::uint64_t links = disk_.link_count(real); links > 1) {
        error(r.where, fmt::format("'{}' has {} hard links: through another name the command "
                                   "could write it; remove the extra links (find -samefile)",
                                   real, links));
        return false;
      }
    }
    return true;
  }

  // An optional read-only path that is a link to nothing: nothing can be
  // bound, and where the link or what it names lies in a writable path, the
  // command could make the target and write it (a planted .git/hooks ->
  // ../tools/hooks). Refused, as a link leading out of the workspace is.
  void refuse_writable_dangling(const Request& r) {
    const std::string dir = r.path.substr(0, r.path.rfind('/'));
    const std::string text = disk_.read_link(r.path).value_or("");
    const std::string named =
        text.empty() ? r.path : normalize_path(text[0] == '/' ? text : dir + "/" + text);
    const Request* holder = writable_holder(r.path);
    if (!holder) holder = writable_holder(named);
    if (!holder && !(named != r.path && is_writable_request(named))) return;
    error(r.where,
          fmt::format("'{}' is a symbolic link to '{}', which does not exist, in or into the "
                      "writable '{}': the command could make it and write what the profile "
                      "keeps read-only; remove the link, or create what it names",
                      r.path, text, holder ? holder->path : named));
  }

  bool is_writable_request(const std::string& path) const {
    auto it = winners_.find(path);
    return it != winners_.end() && it->second.category == Category::kReadWrite;
  }

  // Each component of r.path that is a symbolic link (see MountPlan::links).
  void note_links(const Request& r) {
    for (std::size_t slash = r.path.find('/', 1);; slash = r.path.find('/', slash + 1)) {
      const std::string prefix = r.path.substr(0, slash);
      if (disk_.kind(prefix) == FileKind::kSymlink) plan_.links.push_back({prefix, r.where});
      if (slash == std::string::npos) break;
    }
  }

  void plan_hide(const Request& r, FileKind kind, std::vector<MountOp>& out) {
    if (kind == FileKind::kMissing) return;  // nothing to hide
    std::string target = r.path;
    if (kind == FileKind::kSymlink) {
      auto real = disk_.real_path(r.path);
      if (!real) return;  // dangling: nothing behind it
      target = *real;
      kind = disk_.kind(target);
    }
    // Only what a bind brings in from the host needs hiding; the empty root
    // and tmpfs mounts hold nothing of the host's.
    if (!covered_by_bind(target) && !covered_by_bind(r.path)) return;
    MountKind mk = kind == FileKind::kDirectory ? MountKind::kHideDir : MountKind::kHideFile;
    out.push_back({mk, "", target, r.where, 0, false});
  }

  const FilesystemRequest& req_;
  const Disk& disk_;
  std::map<std::string, Request> winners_;
  std::size_t unclean_requests_ = 0;  // winners_ keys normalize_path would change
  std::vector<std::string> optional_;
  MountPlan plan_;
};

}  // namespace

std::string MountOp::describe() const {
  switch (kind) {
    case MountKind::kBindReadOnly: return fmt::format("ro-bind '{}'", target);
    case MountKind::kBindReadWrite:
      return fmt::format("bind '{}'{}", target, noexec ? " (noexec)" : "");
    case MountKind::kBindDevice: return fmt::format("dev-bind '{}'", target);
    case MountKind::kTmpfs:
      return fmt::format("tmpfs '{}' (mode {:o}{})", target, mode, noexec ? ", noexec" : "");
    case MountKind::kHideDir: return fmt::format("hide dir '{}'", target);
    case MountKind::kHideFile: return fmt::format("hide file '{}'", target);
    case MountKind::kSymlink: return fmt::format("symlink '{}' -> '{}'", target, source);
    case MountKind::kProc: return fmt::format("proc '{}'", target);
    case MountKind::kDevpts: return fmt::format("devpts '{}'", target);
    case MountKind::kRemountReadOnly: return fmt::format("read-only '{}'", target);
  }
  return target;
}

MountPlan build_mount_plan(const FilesystemRequest& req, const Disk& disk) {
  return Planner(req, disk).run();
}

const MountOp* mount_covering(const MountPlan& plan, const std::string& path) {
  const MountOp* best = nullptr;
  for (const auto& op : plan.ops) {
    if (!path_is_within(path, op.target)) continue;
    // On equal targets the later op was mounted on top.
    if (!best || op.target.size() >= best->target.size()) best = &op;
  }
  return best;
}

bool visible_from_host(const MountPlan& plan, const std::string& path) {
  const MountOp* best = mount_covering(plan, path);
  return best &&
         (best->kind == MountKind::kBindReadOnly || best->kind == MountKind::kBindReadWrite);
}

}  // namespace aj
