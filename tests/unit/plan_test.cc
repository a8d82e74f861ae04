// Plan building with fake host facts and a fake disk: the mount list's order
// and kinds, symlinks, missing paths, hides, the workspace, and the command
// line as the last layer.
#include "plan/plan.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "cli/cli.h"
#include "cli/cli_layer.h"
#include "plan/git_protect.h"
#include "plan/plan_print.h"
#include "plan/report.h"
#include "profile/merge.h"

namespace aj {
namespace {

class FakeDisk final : public Disk {
 public:
  std::map<std::string, FileKind> kinds;
  std::map<std::string, std::string> links;       // symlink -> text
  std::map<std::string, std::string> real;        // path -> realpath when it differs
  std::map<std::string, std::string> texts;       // file -> content (read_text)
  std::map<std::string, std::uint64_t> links_to;  // file -> st_nlink, when not 1
  std::vector<std::string> dangling;              // symlinks leading nowhere

  std::uint64_t link_count(const std::string& p) const override {
    auto it = links_to.find(p);
    return it == links_to.end() ? 1 : it->second;
  }

  FileKind kind(const std::string& p) const override {
    auto it = kinds.find(p);
    return it == kinds.end() ? FileKind::kMissing : it->second;
  }
  std::optional<std::string> read_link(const std::string& p) const override {
    auto it = links.find(p);
    if (it == links.end()) return std::nullopt;
    return it->second;
  }
  std::optional<std::string> real_path(const std::string& p) const override {
    if (kind(p) == FileKind::kMissing) return std::nullopt;
    if (std::find(dangling.begin(), dangling.end(), p) != dangling.end()) return std::nullopt;
    auto it = real.find(p);
    return it == real.end() ? p : it->second;
  }
  std::optional<std::string> read_text(const std::string& p, std::size_t max) const override {
    auto it = texts.find(p);
    if (it == texts.end()) return std::nullopt;
    return it->second.substr(0, max);
  }
  std::vector<std::string> list_dir(const std::string& p) const override {
    std::vector<std::string> out;
    for (const auto& [path, k] : kinds) {
      if (path.size() > p.size() + 1 && path.starts_with(p + "/") &&
          path.find('/', p.size() + 1) == std::string::npos)
        out.push_back(path.substr(p.size() + 1));
    }
    return out;
  }
};

HostFacts facts() {
  HostFacts f;
  f.uid = 1000;
  f.gid = 1000;
  f.home = "/home/u";
  f.cwd = "/home/u/proj";
  f.tmpdir = "/tmp";
  f.state_dir = "/home/u/.local/state/agentjail";
  f.session_id = "0123456789abcdef";
  f.environ = {"PATH=/usr/bin:/bin", "HOME=/home/u", "GITHUB_TOKEN=ghp_x", "TERM=xterm"};
  f.landlock_abi = 7;
  return f;
}

FakeDisk disk() {
  FakeDisk d;
  for (const char* dir :
       {"/usr", "/etc", "/home/u", "/home/u/proj", "/home/u/proj/.git", "/home/u/proj/.git/hooks",
        "/home/u/.ssh", "/opt", "/home/u/.local/state/agentjail/sessions"})
    d.kinds[dir] = FileKind::kDirectory;
  d.kinds["/home/u/proj/.git/config"] = FileKind::kFile;
  d.kinds["/etc/shadow"] = FileKind::kFile;
  d.kinds["/bin"] = FileKind::kSymlink;
  d.links["/bin"] = "usr/bin";
  d.real["/bin"] = "/usr/bin";
  return d;
}

// The workspace without a repository yet.
FakeDisk disk_without_repository() {
  FakeDisk d = disk();
  for (const char* p : {"/home/u/proj/.git", "/home/u/proj/.git/hooks", "/home/u/proj/.git/config"})
    d.kinds.erase(p);
  return d;
}

Item<std::string> at(const char* v, int line) { return {v, {"p.toml", line, 1}}; }

Policy policy(std::vector<Item<std::string>> read_write = {}) {
  ProfileLayer l;
  l.filesystem.read_write.add = std::move(read_write);
  l.file = "p.toml";
  l.filesystem.workspace = Item<WorkspaceMode>{WorkspaceMode::kBind, {"p.toml", 1, 1}};
  l.filesystem.read_only.add = {at("/usr", 2), at("/etc", 2), at("/bin", 2),
                                at("${WORKSPACE}/.git/hooks", 3),
                                at("${WORKSPACE}/.git/config", 3)};
  l.filesystem.optional.add = {at("${WORKSPACE}/.git/hooks", 3), at("${WORKSPACE}/.git/config", 3)};
  l.filesystem.tmpfs.add = {at("/tmp", 4), at("~", 4)};
  l.filesystem.hide.add = {at("~/.ssh", 5), at("/etc/shadow", 5)};
  l.filesystem.exec.add = {at("/usr", 6), at("${WORKSPACE}", 6)};
  l.environment.keep.add = {at("PATH", 7), at("TERM", 7), at("GITHUB_*", 7)};
  return merge_layers({l});
}

std::vector<std::string> describe(const Plan& p) {
  std::vector<std::string> out;
  for (const auto& op : p.mounts.ops) out.push_back(op.describe());
  return out;
}

std::size_t index_of(const std::vector<std::string>& v, const std::string& s) {
  return static_cast<std::size_t>(std::find(v.begin(), v.end(), s) - v.begin());
}

PlanResult plan_with(const Policy& pol, FakeDisk d = disk(), PlanInputs in = {}) {
  in.argv = {"sh"};
  return build_plan(pol, facts(), d, in);
}

}  // namespace

TEST_CASE("the mount list puts built-ins first and parents before what is mounted on them") {
  PlanResult r = plan_with(policy());
  REQUIRE(r.errors.empty());
  auto d = describe(*r.plan);
  CHECK(d.front() == "proc '/proc'");
  CHECK(index_of(d, "tmpfs '/home/u' (mode 755)") < index_of(d, "bind '/home/u/proj'"));
  CHECK(index_of(d, "bind '/home/u/proj'") < index_of(d, "ro-bind '/home/u/proj/.git/hooks'"));
  CHECK(index_of(d, "bind '/home/u/proj'") < index_of(d, "ro-bind '/home/u/proj/.git/config'"));
  CHECK(index_of(d, "ro-bind '/etc'") < index_of(d, "hide file '/etc/shadow'"));
  CHECK(index_of(d, "read-only '/proc/sys'") < d.size());
  CHECK(index_of(d, "tmpfs '/tmp' (mode 1777)") < d.size());
}

TEST_CASE("submodules' git directories get the read-only hooks and config of the top's") {
  FakeDisk d = disk();
  const std::string m = "/home/u/proj/.git/modules";
  for (const std::string& dir :
       {m, m + "/sub", m + "/sub/hooks", m + "/lib", m + "/lib/deep", m + "/lib/deep/hooks",
        m + "/sub/modules", m + "/sub/modules/inner", m + "/notgit"})
    d.kinds[dir] = FileKind::kDirectory;
  for (const std::string& file : {m + "/sub/HEAD", m + "/sub/config", m + "/lib/deep/HEAD",
                                  m + "/sub/modules/inner/HEAD", m + "/sub/modules/inner/config"})
    d.kinds[file] = FileKind::kFile;
  PlanResult r = plan_with(policy(), d);
  REQUIRE(r.errors.empty());
  auto ops = describe(*r.plan);
  for (const std::string& ro : {m + "/sub/hooks", m + "/sub/config", m + "/lib/deep/hooks",
                                m + "/sub/modules/inner/config"}) {
    CAPTURE(ro);
    CHECK(index_of(ops, "ro-bind '" + ro + "'") < ops.size());
  }
  // What does not exist gets no mount but is watched (a hooks directory
  // made there would run on the host); a directory that is not a git
  // directory gets nothing.
  auto watched = [&r](const std::string& path) {
    return std::any_of(r.plan->watched.begin(), r.plan->watched.end(),
                       [&](const WatchedPath& w) { return w.path == path; });
  };
  for (const std::string& absent : {m + "/lib/deep/config", m + "/sub/modules/inner/hooks",
                                    m + "/notgit/hooks", m + "/lib/hooks"}) {
    CAPTURE(absent);
    CHECK(index_of(ops, "ro-bind '" + absent + "'") == ops.size());
    CHECK(watched(absent) ==
          (absent.find("/notgit/") == std::string::npos && absent != m + "/lib/hooks"));
  }
  // Links: where they lead inside the workspace is protected; a link leading
  // outside is left alone (the jail still starts; a dangling one too, on a
  // real disk, where it has no real path).
  FakeDisk linked = d;
  linked.kinds[m + "/sub/hooks"] = FileKind::kSymlink;
  linked.real[m + "/sub/hooks"] = "/home/u/proj/evil-hooks";
  linked.kinds["/home/u/proj/evil-hooks"] = FileKind::kDirectory;
  linked.kinds[m + "/sub/config"] = FileKind::kSymlink;
  linked.real[m + "/sub/config"] = "/etc/passwd";
  linked.kinds["/etc/passwd"] = FileKind::kFile;
  PlanResult lr = plan_with(policy(), linked);
  REQUIRE(lr.errors.empty());
  auto lops = describe(*lr.plan);
  CHECK(index_of(lops, "ro-bind '/home/u/proj/evil-hooks'") < lops.size());
  CHECK(index_of(lops, "ro-bind '" + m + "/sub/config'") == lops.size());
  // No read-only .git/hooks or .git/config in the profile: nothing added.
  ProfileLayer l;
  l.file = "p.toml";
  l.filesystem.workspace = Item<WorkspaceMode>{WorkspaceMode::kBind, {"p.toml", 1, 1}};
  PlanResult bare = plan_with(merge_layers({l}), d);
  REQUIRE(bare.errors.empty());
  CHECK(index_of(describe(*bare.plan), "ro-bind '" + m + "/sub/hooks'") ==
        describe(*bare.plan).size());
}

TEST_CASE("a submodule checkout with a .git directory of its own is protected as one") {
  FakeDisk d = disk();
  const std::string top = "/home/u/proj";
  d.texts[top + "/.gitmodules"] =
      "[submodule \"emb\"]\n\tpath = vendor/emb\n\turl = x\n"
      "[submodule \"out\"]\n\tpath = ../elsewhere\n"
      "[submodule \"plain\"]\n\tpath = plain\n";
  d.kinds[top + "/.gitmodules"] = FileKind::kFile;
  for (const std::string& dir :
       {top + "/vendor", top + "/vendor/emb", top + "/vendor/emb/.git", top + "/plain",
        std::string("/home/u/elsewhere"), std::string("/home/u/elsewhere/.git")})
    d.kinds[dir] = FileKind::kDirectory;
  d.kinds[top + "/vendor/emb/.git/config"] = FileKind::kFile;
  d.kinds[top + "/plain/.git"] = FileKind::kFile;  // an ordinary checkout: a .git file
  PlanResult r = plan_with(policy(), d);
  REQUIRE(r.errors.empty());
  auto ops = describe(*r.plan);
  CHECK(index_of(ops, "ro-bind '" + top + "/vendor/emb/.git/config'") < ops.size());
  const bool hooks_watched =
      std::any_of(r.plan->watched.begin(), r.plan->watched.end(),
                  [&](const WatchedPath& w) { return w.path == top + "/vendor/emb/.git/hooks"; });
  CHECK(hooks_watched);
  // Pinned from the top down: it cannot be renamed and another put there.
  for (const std::string& pinned :
       {top + "/vendor", top + "/vendor/emb", top + "/vendor/emb/.git"}) {
    CAPTURE(pinned);
    CHECK(index_of(ops, "bind '" + pinned + "'") < ops.size());
  }
  // A path leading out of the workspace, or a .git file, adds nothing here.
  CHECK(index_of(ops, "ro-bind '/home/u/elsewhere/.git/config'") == ops.size());
  CHECK(index_of(ops, "bind '" + top + "/plain'") == ops.size());
}

TEST_CASE("a top-level symlink is recreated, not followed") {
  PlanResult r = plan_with(policy());
  REQUIRE(r.plan);
  auto d = describe(*r.plan);
  CHECK(index_of(d, "symlink '/bin' -> 'usr/bin'") < d.size());
  CHECK(index_of(d, "ro-bind '/usr/bin'") == d.size());  // /usr brings it in
}

namespace {

// path, a symbolic link reading `text`, that leads to `real`.
void add_link(FakeDisk& d, const std::string& path, const std::string& text,
              const std::string& real) {
  d.kinds[path] = FileKind::kSymlink;
  d.links[path] = text;
  d.real[path] = real;
}

bool any_op_has(const std::vector<std::string>& ops, const std::string& part) {
  return std::any_of(ops.begin(), ops.end(),
                     [&](const std::string& o) { return o.find(part) != std::string::npos; });
}

}  // namespace

TEST_CASE("a granted symlink whose target no bind brings in gets its target bound too") {
  FakeDisk d = disk();
  for (const char* dir : {"/srv", "/srv/dot", "/srv/dot/claude", "/srv/outside"})
    d.kinds[dir] = FileKind::kDirectory;
  add_link(d, "/home/u/.claude", "/srv/dot/claude", "/srv/dot/claude");
  // Planted in the workspace: proj/.cache -> /srv/outside.
  add_link(d, "/home/u/proj/.cache", "/srv/outside", "/srv/outside");
  add_link(d, "/home/u/cache", "/home/u/proj/.cache", "/srv/outside");
  add_link(d, "/srv/homelink", "/home/u", "/home/u");
  struct Row {
    const char* grant;
    const char* recreated;  // the symlink op expected
    const char* bound;      // a bind of where it leads: expected, or not
    bool expect_bound;
  };
  const Row rows[] = {
      // A dotfiles link: recreated, and its target bound.
      {"~/.claude", "symlink '/home/u/.claude' -> '/srv/dot/claude'", "bind '/srv/dot/claude'",
       true},
      // A target through another link: the chain's end is nowhere the
      // profile meant (round 19, high).
      {"~/cache", "symlink '/home/u/cache' -> '/home/u/proj/.cache'", "/srv/outside", false},
      // A link to the home (a tmpfs of the jail's, holding the hidden
      // ~/.ssh): binding the real home would bring ~/.ssh in.
      {"/srv/homelink", "symlink '/srv/homelink' -> '/home/u'", "bind '/home/u'", false},
  };
  for (const Row& row : rows) {
    CAPTURE(row.grant);
    PlanResult r = plan_with(policy({at(row.grant, 9)}), d);
    REQUIRE(r.plan);
    auto ops = describe(*r.plan);
    CHECK(index_of(ops, row.recreated) < ops.size());
    CHECK(any_op_has(ops, row.bound) == row.expect_bound);
  }
  // A link in the workspace leading out of it is refused, as ever.
  add_link(d, "/home/u/proj/out", "/srv/dot", "/srv/dot");
  CHECK_FALSE(plan_with(policy({at("${WORKSPACE}/out", 9)}), d).plan);
}

TEST_CASE("a hide under a private tmpfs needs no mount; one under a bind gets one") {
  PlanResult r = plan_with(policy());
  REQUIRE(r.plan);
  auto d = describe(*r.plan);
  CHECK(index_of(d, "hide dir '/home/u/.ssh'") == d.size());  // ~ is a tmpfs
  CHECK(index_of(d, "hide file '/etc/shadow'") < d.size());
  // Still listed as requested, for explain.
  bool listed = std::any_of(r.plan->hides.begin(), r.plan->hides.end(),
                            [](const ExpandedPath& h) { return h.path == "/home/u/.ssh"; });
  CHECK(listed);
}

TEST_CASE("a missing path is an error at its profile location unless optional") {
  Policy p = policy();
  p.filesystem.read_only.push_back({"/data", {"p.toml", 14, 3}});
  PlanResult r = plan_with(p);
  CHECK_FALSE(r.plan);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].rfind("p.toml:14:3: '/data' does not exist", 0) == 0);
  p.filesystem.optional.push_back({"/data", {"p.toml", 15, 3}});
  CHECK(plan_with(p).plan);
}

TEST_CASE("a symlink in the workspace may not pull a host path into the jail") {
  FakeDisk d = disk();
  d.kinds["/home/u/proj/.git/hooks"] = FileKind::kSymlink;
  d.real["/home/u/proj/.git/hooks"] = "/home/u/.ssh";
  PlanResult r = plan_with(policy(), d);
  CHECK_FALSE(r.plan);
  REQUIRE_FALSE(r.errors.empty());
  CHECK(r.errors[0].find("outside the workspace") != std::string::npos);
}

TEST_CASE("the home directory or /tmp is refused as an implicit workspace") {
  FakeDisk d = disk();
  HostFacts f = facts();
  for (const char* cwd : {"/home/u", "/home", "/tmp"}) {
    CAPTURE(cwd);
    f.cwd = cwd;
    d.kinds[cwd] = FileKind::kDirectory;
    PlanInputs in;
    in.argv = {"sh"};
    PlanResult r = build_plan(policy(), f, d, in);
    CHECK_FALSE(r.plan);
    in.workspace = cwd;  // said explicitly: allowed
    PlanResult explicit_ws = build_plan(policy(), f, d, in);
    CAPTURE(explicit_ws.errors.size());
    CHECK(explicit_ws.plan);
  }
}

TEST_CASE("the journal's directory is hidden from the jail") {
  Policy p = policy();
  p.filesystem.read_write.push_back({"~", {"p.toml", 20, 1}});  // home bound read-write
  PlanResult r = plan_with(p);
  REQUIRE(r.plan);
  CHECK(r.plan->journal_target == "/home/u/.local/state/agentjail/sessions/0123456789abcdef.jsonl");
  auto d = describe(*r.plan);
  CHECK(index_of(d, "hide dir '/home/u/.local/state/agentjail/sessions'") < d.size());
}

TEST_CASE("a journal directory reached through a link is judged where the link leads") {
  FakeDisk d = disk();
  d.kinds["/srv/logs"] = FileKind::kSymlink;
  d.real["/srv/logs"] = "/home/u/proj/logs";  // inside the writable workspace
  PlanInputs in;
  in.user_namespace = false;
  in.journal_target = "/srv/logs/x.jsonl";
  PlanResult r = plan_with(policy(), d, in);
  CHECK_FALSE(r.plan);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].find("'/home/u/proj/logs' cannot be hidden") != std::string::npos);
  d.real["/srv/logs"] = "/srv/real-logs";  // leading elsewhere: fine
  CHECK(plan_with(policy(), d, in).plan);
}

TEST_CASE("the environment is rebuilt: secrets withheld, HOME and TMPDIR set") {
  PlanResult r = plan_with(policy());
  REQUIRE(r.plan);
  const auto& env = r.plan->env;
  auto has = [&env](const std::string& e) {
    return std::find(env.begin(), env.end(), e) != env.end();
  };
  CHECK(has("PATH=/usr/bin:/bin"));
  CHECK(has("HOME=/home/u"));
  CHECK(has("TMPDIR=/tmp"));
  CHECK(has("AGENTJAIL=1"));
  CHECK_FALSE(std::any_of(env.begin(), env.end(),
                          [](const std::string& e) { return e.rfind("GITHUB_TOKEN=", 0) == 0; }));
  CHECK(r.plan->dropped_secret_names == std::vector<std::string>{"GITHUB_TOKEN"});
}

TEST_CASE("command-line options are the last layer and override the profile") {
  CliOptions o;
  o.rw = {"/opt"};
  o.hide = {"!/etc/shadow"};
  o.net = "host";
  o.timeout = "90s";
  auto cli = cli_layer(o, "/home/u/proj");
  REQUIRE(cli);
  ProfileLayer base;
  base.file = "p.toml";
  Policy merged = merge_layers({base, *cli});
  CHECK(merged.network.mode.value == NetMode::kHost);
  REQUIRE(merged.limits.wall_time_ms);
  CHECK(merged.limits.wall_time_ms->value == 90000);

  ProfileLayer prof;
  prof.file = "p.toml";
  prof.filesystem.hide.add = {at("/etc/shadow", 5)};
  Policy with_removal = merge_layers({prof, *cli});
  CHECK(with_removal.filesystem.hide.empty());
  REQUIRE(with_removal.filesystem.read_write.size() == 1);
  CHECK(with_removal.filesystem.read_write[0].where.file == "command line (--rw)");
}

TEST_CASE("a relative command-line path is taken from the current directory") {
  CliOptions o;
  o.ro = {"data"};
  auto cli = cli_layer(o, "/home/u/proj");
  REQUIRE(cli);
  REQUIRE(cli->filesystem.read_only.add.size() == 1);
  CHECK(cli->filesystem.read_only.add[0].value == "/home/u/proj/data");
}

TEST_CASE("a bad --net or --timeout value is refused naming the option") {
  CliOptions o;
  o.net = "everywhere";
  auto r = cli_layer(o, "/");
  REQUIRE_FALSE(r);
  CHECK(r.error().render().rfind("--net:", 0) == 0);
  CliOptions t;
  t.timeout = "soon";
  auto r2 = cli_layer(t, "/");
  REQUIRE_FALSE(r2);
  CHECK(r2.error().render().rfind("--timeout:", 0) == 0);
}

TEST_CASE("without user namespaces Landlock grants the would-be binds and private dirs") {
  PlanInputs in;
  in.user_namespace = false;
  PlanResult r = plan_with(policy(), disk(), in);
  REQUIRE(r.plan);
  const auto& paths = r.plan->landlock.paths;
  auto granted = [&paths](const std::string& p) {
    return std::any_of(paths.begin(), paths.end(),
                       [&p](const LandlockPathRule& rule) { return rule.path == p; });
  };
  CHECK(granted("/usr"));
  CHECK(granted("/home/u/proj"));
  CHECK(granted("/home/u/.local/state/agentjail/sessions/0123456789abcdef/home"));
  CHECK_FALSE(granted("/tmp"));     // the host's shared /tmp
  CHECK_FALSE(granted("/home/u"));  // the host's home
  CHECK_FALSE(granted("/"));
  bool hide_reported =
      std::any_of(r.plan->landlock.not_enforced.begin(), r.plan->landlock.not_enforced.end(),
                  [](const std::string& s) { return s.find("/etc/shadow") != std::string::npos; });
  CHECK(hide_reported);
}

namespace {
std::vector<std::string> watched(const Plan& p) {
  std::vector<std::string> out;
  for (const auto& w : p.watched) out.push_back(w.path);
  return out;
}
}  // namespace

TEST_CASE("what the jail cannot keep read-only is watched") {
  const std::string g = "/home/u/proj/.git";
  SUBCASE("with a mount namespace: the files that would redirect a bound .git, and the binds") {
    PlanResult r = plan_with(policy());
    REQUIRE(r.plan);
    auto w = watched(*r.plan);
    std::sort(w.begin(), w.end());
    // hooks and config are bound, but .git/x above them could be renamed;
    // and the top could be made a repository of its own (HEAD, config, ...);
    // an interrupted rebase or cherry-pick left behind queues commands.
    CHECK(w == std::vector<std::string>{g + "/commondir", g + "/config", g + "/config.worktree",
                                        g + "/hooks", g + "/rebase-apply", g + "/rebase-merge",
                                        g + "/sequencer", "/home/u/proj/HEAD"});
    CHECK(r.plan->watched[0].where.str() == "p.toml:3:1");
    CHECK(r.plan->landlock.not_enforced.empty());
  }
  SUBCASE("no repository yet: .git itself (in any form), its hooks and its config") {
    PlanResult r = plan_with(policy(), disk_without_repository());
    REQUIRE(r.plan);
    auto w = watched(*r.plan);
    std::sort(w.begin(), w.end());
    CHECK(w == std::vector<std::string>{g, g + "/config", g + "/hooks", "/home/u/proj/HEAD"});
    for (const auto& p : r.plan->watched) {
      CAPTURE(p.path);
      const char* why = p.path == g                     ? "no repository when the jail started"
                        : p.path == "/home/u/proj/HEAD" ? "take the workspace itself"
                                                        : "missing when the jail started";
      CHECK(p.why.find(why) != std::string::npos);
    }
  }
  SUBCASE("without a mount namespace: every read-only path inside a writable one, reported") {
    PlanInputs in;
    in.user_namespace = false;
    PlanResult r = plan_with(policy(), disk(), in);
    REQUIRE(r.plan);
    auto w = watched(*r.plan);
    CHECK(index_of(w, g + "/hooks") < w.size());
    CHECK(index_of(w, g + "/config") < w.size());
    CHECK(index_of(w, g + "/commondir") < w.size());
    CHECK(index_of(w, "/usr") == w.size());  // read-only, but inside nothing writable
    const auto& notes = r.plan->landlock.not_enforced;
    CHECK(std::any_of(notes.begin(), notes.end(), [&g](const std::string& s) {
      return s.rfind("read-only '" + g + "/hooks' (p.toml:3:1): no mount namespace", 0) == 0;
    }));
  }
  SUBCASE("submodules' git directories too") {
    FakeDisk d = disk();
    d.kinds[g + "/modules"] = d.kinds[g + "/modules/sub"] = FileKind::kDirectory;
    d.kinds[g + "/modules/sub/HEAD"] = d.kinds[g + "/modules/sub/config"] = FileKind::kFile;
    PlanResult r = plan_with(policy(), d);
    REQUIRE(r.plan);
    auto w = watched(*r.plan);
    CHECK(index_of(w, g + "/modules/sub/commondir") < w.size());
  }
  SUBCASE("nothing kept read-only: nothing watched") {
    ProfileLayer l;
    l.file = "p.toml";
    l.filesystem.workspace = Item<WorkspaceMode>{WorkspaceMode::kBind, {"p.toml", 1, 1}};
    PlanResult r = plan_with(merge_layers({l}));
    REQUIRE(r.plan);
    CHECK(r.plan->watched.empty());
  }
}

TEST_CASE("new symbolic links are looked for in each protected git directory") {
  const std::string w = "/home/u/proj", g = w + "/.git";
  auto roots = [](const Plan& p) {
    std::vector<std::string> out;
    for (const auto& l : p.link_watched) out.push_back(l.path);
    return out;
  };
  SUBCASE("a .git directory, with its submodules beneath it (one root)") {
    FakeDisk d = disk();
    d.kinds[g + "/modules"] = d.kinds[g + "/modules/sub"] = FileKind::kDirectory;
    d.kinds[g + "/modules/sub/HEAD"] = d.kinds[g + "/modules/sub/config"] = FileKind::kFile;
    PlanResult r = plan_with(policy(), d);
    REQUIRE(r.plan);
    CHECK(roots(*r.plan) == std::vector<std::string>{g});
    CHECK(r.plan->link_watched[0].where.str() == "p.toml:3:1");
    CHECK(r.plan->link_watched[0].why.find("writes through a symbolic link") != std::string::npos);
  }
  SUBCASE("no repository yet: one made during the session is searched too") {
    PlanResult r = plan_with(policy(), disk_without_repository());
    REQUIRE(r.plan);
    CHECK(roots(*r.plan) == std::vector<std::string>{g});
  }
  SUBCASE("a .git file: the git directory it names inside the workspace") {
    FakeDisk d = disk();
    d.kinds.erase(g + "/hooks");
    d.kinds.erase(g + "/config");
    d.kinds[g] = FileKind::kFile;
    d.texts[g] = "gitdir: .repo/x.git\n";
    d.kinds[w + "/.repo"] = d.kinds[w + "/.repo/x.git"] = FileKind::kDirectory;
    PlanResult r = plan_with(policy(), d);
    REQUIRE(r.plan);
    CHECK(roots(*r.plan) == std::vector<std::string>{w + "/.repo/x.git"});
  }
  SUBCASE("writable directories outside the workspace, not files nor what is inside it") {
    FakeDisk d = disk();
    d.kinds["/home/u/.claude"] = FileKind::kDirectory;
    d.kinds["/home/u/.claude.json"] = FileKind::kFile;
    d.kinds[w + "/build"] = FileKind::kDirectory;
    PlanResult r = plan_with(
        policy({at("~/.claude", 9), at("~/.claude.json", 9), at("${WORKSPACE}/build", 9)}), d);
    REQUIRE(r.plan);
    CHECK(roots(*r.plan) == std::vector<std::string>{g, "/home/u/.claude"});
    CHECK(r.plan->link_watched[1].where.str() == "p.toml:9:1");
    CHECK(r.plan->link_watched[1].why.find("programs on the host") != std::string::npos);
  }
  SUBCASE("nothing kept read-only: nothing searched") {
    ProfileLayer l;
    l.file = "p.toml";
    l.filesystem.workspace = Item<WorkspaceMode>{WorkspaceMode::kBind, {"p.toml", 1, 1}};
    PlanResult r = plan_with(merge_layers({l}));
    REQUIRE(r.plan);
    CHECK(r.plan->link_watched.empty());
  }
}

TEST_CASE("the metadata that redirects a protected .git is read-only, or watched") {
  const std::string w = "/home/u/proj", g = w + "/.git";
  auto ro = [](const Plan& p, const std::string& path) {
    const auto d = describe(p);
    return index_of(d, "ro-bind '" + path + "'") < d.size();
  };
  SUBCASE("the workspace is a linked worktree: its .git file is read-only") {
    FakeDisk d = disk();
    d.kinds.erase(g + "/hooks");
    d.kinds.erase(g + "/config");
    d.kinds[g] = FileKind::kFile;
    PlanResult r = plan_with(policy(), d);
    REQUIRE(r.plan);
    CHECK(ro(*r.plan, g));
    CHECK(index_of(describe(*r.plan), "bind '" + g + "'") == describe(*r.plan).size());
  }
  SUBCASE("a linked worktree's commondir is read-only; its config.worktree watched") {
    FakeDisk d = disk();
    d.kinds[g + "/worktrees"] = d.kinds[g + "/worktrees/wt"] = FileKind::kDirectory;
    d.kinds[g + "/worktrees/wt/commondir"] = FileKind::kFile;
    PlanResult r = plan_with(policy(), d);
    REQUIRE(r.plan);
    CHECK(ro(*r.plan, g + "/worktrees/wt/commondir"));
    auto wl = watched(*r.plan);
    CHECK(index_of(wl, g + "/worktrees/wt/config.worktree") < wl.size());
    CHECK(index_of(wl, g + "/worktrees/wt/commondir") < wl.size());  // bound, and watched
  }
  SUBCASE("a submodule's commondir is watched and its checkout's .git file read-only") {
    FakeDisk d = disk();
    const std::string m = g + "/modules/lib";
    d.kinds[g + "/modules"] = d.kinds[m] = d.kinds[w + "/lib"] = FileKind::kDirectory;
    d.kinds[m + "/HEAD"] = d.kinds[m + "/config"] = d.kinds[w + "/lib/.git"] = FileKind::kFile;
    d.texts[m + "/config"] = "[core]\n\tbare = false\n\tworktree = ../../../lib\n";
    PlanResult r = plan_with(policy(), d);
    REQUIRE(r.plan);
    CHECK(ro(*r.plan, m + "/config"));
    CHECK(ro(*r.plan, w + "/lib/.git"));
    auto wl = watched(*r.plan);
    CHECK(index_of(wl, m + "/commondir") < wl.size());
    CHECK(index_of(wl, w + "/lib/.git") < wl.size());  // its directory can still be renamed
    // The submodule's own core.hooksPath and includes (relative to its checkout).
    d.texts[m + "/config"] =
        "[core]\n\tworktree = ../../../lib\n\thooksPath = .husky\n[include]\n\tpath = x.inc\n";
    auto hooked = watched(*plan_with(policy(), d).plan);
    CHECK(index_of(hooked, w + "/lib/.husky") < hooked.size());
    CHECK(index_of(hooked, m + "/x.inc") < hooked.size());  // missing: the command could make it
    // The top repository's config.worktree is read too.
    d.texts[m + "/config"] = "[core]\n\tworktree = ../../../lib\n";
    d.texts[g + "/config.worktree"] = "[core]\n\thooksPath = .hooks\n";
    auto per_worktree = watched(*plan_with(policy(), d).plan);
    CHECK(index_of(per_worktree, w + "/.hooks") < per_worktree.size());
    d.texts.erase(g + "/config.worktree");
    // A worktree outside the workspace is left alone.
    d.texts[m + "/config"] = "[core]\n\tworktree = /elsewhere\n";
    d.kinds["/elsewhere"] = FileKind::kDirectory;
    d.kinds["/elsewhere/.git"] = FileKind::kFile;
    PlanResult outside = plan_with(policy(), d);
    REQUIRE(outside.plan);
    CHECK_FALSE(ro(*outside.plan, "/elsewhere/.git"));
  }
}

TEST_CASE("a writable bind with no exec grant above or below it is mounted noexec") {
  PlanResult r = plan_with(policy());
  REQUIRE(r.plan);
  auto d = describe(*r.plan);
  CHECK(index_of(d, "bind '/home/u/proj'") < d.size());  // exec granted: executable
  Policy strict = policy();
  strict.filesystem.exec.erase(
      std::remove_if(strict.filesystem.exec.begin(), strict.filesystem.exec.end(),
                     [](const Item<std::string>& e) { return e.value == "${WORKSPACE}"; }),
      strict.filesystem.exec.end());
  PlanResult s = plan_with(strict);
  REQUIRE(s.plan);
  auto sd = describe(*s.plan);
  CHECK(index_of(sd, "bind '/home/u/proj' (noexec)") < sd.size());
  // No writable path is executable: the private tmpfs directories neither.
  CHECK(index_of(sd, "tmpfs '/tmp' (mode 1777, noexec)") < sd.size());
  CHECK(index_of(d, "tmpfs '/tmp' (mode 1777)") < d.size());  // default: as it was
  // An exec grant below it keeps it executable (the grant would be moot).
  strict.filesystem.exec.push_back({"${WORKSPACE}/bin", {"p.toml", 9, 1}});
  PlanResult below = plan_with(strict);
  REQUIRE(below.plan);
  auto bd = describe(*below.plan);
  CHECK(index_of(bd, "bind '/home/u/proj'") < bd.size());
}

TEST_CASE("a core.hooksPath in the working tree is read-only, or watched") {
  const std::string w = "/home/u/proj", g = w + "/.git";
  FakeDisk d = disk();
  d.texts[g + "/config"] = "[core]\n\thooksPath = .husky/_\n";
  d.kinds[w + "/.husky"] = d.kinds[w + "/.husky/_"] = FileKind::kDirectory;
  PlanResult r = plan_with(policy(), d);
  REQUIRE(r.plan);
  auto ops = describe(*r.plan);
  CHECK(index_of(ops, "ro-bind '" + w + "/.husky/_'") < ops.size());
  d.kinds.erase(w + "/.husky/_");  // not made yet: watched
  PlanResult missing = plan_with(policy(), d);
  REQUIRE(missing.plan);
  auto wl = watched(*missing.plan);
  CHECK(index_of(wl, w + "/.husky/_") < wl.size());
  // As git reads it: a comment after the value, the key on the section's line.
  for (const char* text :
       {"[core]\n\thooksPath = .husky/_ # husky\n", "[core] hooksPath = .husky/_\n",
        "[core]\n\thooksPath = \".husky/_\" ; quoted\n"}) {
    CAPTURE(text);
    d.texts[g + "/config"] = text;
    auto wl2 = watched(*plan_with(policy(), d).plan);
    CHECK(index_of(wl2, w + "/.husky/_") < wl2.size());
  }
  // From the user's own config too (relative: to the repository's top).
  d.texts.erase(g + "/config");
  d.texts["/home/u/.gitconfig"] = "[core]\n\thooksPath = .githooks\n";
  auto wg = watched(*plan_with(policy(), d).plan);
  CHECK(index_of(wg, w + "/.githooks") < wg.size());
  d.texts.erase("/home/u/.gitconfig");
  // A config file included from the working tree.
  d.texts[g + "/config"] =
      "[include]\n\tpath = ../.gitconfig\n[includeIf \"gitdir:~/\"]\n path = ~/proj/x.inc\n";
  d.kinds[w + "/.gitconfig"] = FileKind::kFile;
  PlanResult inc = plan_with(policy(), d);
  REQUIRE(inc.plan);
  CHECK(index_of(describe(*inc.plan), "ro-bind '" + w + "/.gitconfig'") <
        describe(*inc.plan).size());
  auto wi = watched(*inc.plan);
  CHECK(index_of(wi, w + "/x.inc") < wi.size());
  d.texts[g + "/config"] = "[core]\n\thooksPath = /etc/githooks\n";  // outside: not ours
  PlanResult outside = plan_with(policy(), d);
  REQUIRE(outside.plan);
  CHECK(index_of(watched(*outside.plan), "/etc/githooks") == watched(*outside.plan).size());
}

TEST_CASE("a core.hooksPath from a config file the environment moves is read-only, or watched") {
  const std::string w = "/home/u/proj";
  struct Row {
    const char* variable;
    const char* file;
  };
  const Row rows[] = {{"XDG_CONFIG_HOME=/cfg", "/cfg/git/config"},
                      {"GIT_CONFIG_GLOBAL=/etc/u.gitconfig", "/etc/u.gitconfig"},
                      {"GIT_CONFIG_SYSTEM=/opt/gitconfig", "/opt/gitconfig"}};
  for (const Row& r : rows) {
    CAPTURE(r.variable);
    FakeDisk d = disk();
    d.texts[r.file] = "[core]\n\thooksPath = .githooks\n";
    HostFacts without = facts();
    auto none = watched(*build_plan(policy(), without, d, {.argv = {"sh"}}).plan);
    CHECK(index_of(none, w + "/.githooks") == none.size());  // git would not read it
    HostFacts with = facts();
    with.environ.push_back(r.variable);
    auto wl = watched(*build_plan(policy(), with, d, {.argv = {"sh"}}).plan);
    CHECK(index_of(wl, w + "/.githooks") < wl.size());
  }
}

TEST_CASE("a program git's config runs from the working tree is read-only, or watched") {
  const std::string w = "/home/u/proj", g = w + "/.git";
  struct Row {
    const char* config;
    const char* program;  // relative to the workspace; "" = nothing to protect
  };
  const Row rows[] = {
      {"[core]\n\tfsmonitor = .hooks/fsmon\n", ".hooks/fsmon"},
      {"[filter \"lfs\"]\n\tprocess = ./tools/filter --stdin\n", "tools/filter"},
      {"[diff \"img\"]\n\ttextconv = \"scripts/conv.sh\" -q\n", "scripts/conv.sh"},
      {"[core]\n\tsshCommand = ./ssh-wrap -v\n", "ssh-wrap"},
      {"[alias]\n\tst = !./bin/st.sh | less\n", "bin/st.sh"},
      {"[alias]\n\tst = status\n", ""},
      {"[core]\n\tpager = less -R\n", ""},
      {"[core]\n\tfsmonitor = /usr/bin/watchman\n", ""},
  };
  for (const Row& r : rows) {
    CAPTURE(r.config);
    FakeDisk d = disk();
    d.texts[g + "/config"] = r.config;
    auto wl = watched(*plan_with(policy(), d).plan);
    if (*r.program) {
      CHECK(index_of(wl, w + "/" + r.program) < wl.size());
      d.kinds[w + "/" + r.program] = FileKind::kFile;  // there: bound read-only instead
      const auto ops = describe(*plan_with(policy(), d).plan);
      CHECK(index_of(ops, "ro-bind '" + w + "/" + r.program + "'") < ops.size());
    } else {
      for (const auto& p : wl)
        CHECK((p.find("/proj/.git/") != std::string::npos || p == w + "/HEAD"));
    }
  }
}

TEST_CASE("git's includes are followed, and hooks linked into the working tree protected") {
  const std::string w = "/home/u/proj", g = w + "/.git";
  FakeDisk d = disk();
  // config -> ../shared.inc (in the tree) -> local.inc (in the tree, missing)
  // and a cycle back, which is read once.
  d.texts[g + "/config"] = "[include]\n\tpath = ../shared.inc\n";
  d.kinds[w + "/shared.inc"] = FileKind::kFile;
  d.texts[w + "/shared.inc"] = "[include]\n\tpath = local.inc\n\tpath = shared.inc\n";
  // The user's config includes a file outside the tree, which includes one inside.
  d.texts["/home/u/.gitconfig"] = "[include]\n\tpath = ~/dots/git.inc\n";
  d.texts["/home/u/dots/git.inc"] = "[core]\n\tfsmonitor = tools/fsmon\n";
  PlanResult r = plan_with(policy(), d);
  REQUIRE(r.plan);
  auto ops = describe(*r.plan);
  CHECK(index_of(ops, "ro-bind '" + w + "/shared.inc'") < ops.size());
  auto wl = watched(*r.plan);
  CHECK(index_of(wl, w + "/local.inc") < wl.size());
  CHECK(index_of(wl, w + "/tools/fsmon") < wl.size());
  // .git/hooks/pre-commit -> ../../tools/pre-commit: the target is read-only.
  d.kinds[g + "/hooks/pre-commit"] = FileKind::kSymlink;
  d.real[g + "/hooks/pre-commit"] = w + "/tools/pre-commit";
  d.kinds[w + "/tools/pre-commit"] = FileKind::kFile;
  auto linked = describe(*plan_with(policy(), d).plan);
  CHECK(index_of(linked, "ro-bind '" + w + "/tools/pre-commit'") < linked.size());
}

TEST_CASE("git_code_settings names what makes git run code; looks_like_git_config the files") {
  const auto settings = git_code_settings(
      "[core]\n\tbare = false\n\tfsmonitor = ./fs.sh\n\thooksPath = .husky\n"
      "[remote \"origin\"]\n\turl = x\n[alias]\n\tst = status\n\tx = !sh -c id\n"
      "[include]\n\tpath = a.inc\n[filter \"lfs\"]\n\tclean = git-lfs clean\n");
  const std::vector<std::string> want = {"core.fsmonitor = ./fs.sh", "core.hookspath = .husky",
                                         "alias.x = !sh -c id", "include.path = a.inc",
                                         "filter.clean = git-lfs clean"};
  CHECK(settings == want);
  // Fetching and pushing run programs too, and a URL rewrite can name one.
  const auto fetch = git_code_settings(
      "[remote \"o\"]\n\tuploadpack = ./x\n[protocol \"ext\"]\n\tallow = always\n"
      "[url \"ext::sh -c id\"]\n\tinsteadOf = up:\n[submodule \"s\"]\n\tupdate = !./u\n");
  CHECK(fetch == std::vector<std::string>{"remote.uploadpack = ./x", "protocol.allow = always",
                                          "url.insteadof = up:", "submodule.update = !./u"});
  CHECK(looks_like_git_config("/w/.git/config"));
  CHECK(looks_like_git_config("/w/.git/worktrees/a/config.worktree"));
  CHECK(looks_like_git_config("/w/.gitconfig-shared"));
  CHECK_FALSE(looks_like_git_config("/w/config"));
  CHECK_FALSE(looks_like_git_config("/w/.git/hooks"));
}

TEST_CASE("the git directory a .git file or a commondir names in the workspace is protected") {
  const std::string w = "/home/u/proj", g = w + "/.git";
  auto ro = [](const Plan& p, const std::string& path) {
    const auto d = describe(p);
    return index_of(d, "ro-bind '" + path + "'") < d.size();
  };
  SUBCASE("a .git file naming a git directory inside the workspace") {
    FakeDisk d = disk();
    d.kinds.erase(g + "/hooks");
    d.kinds.erase(g + "/config");
    d.kinds[g] = FileKind::kFile;
    d.texts[g] = "gitdir: inner.git\n";
    d.kinds[w + "/inner.git"] = d.kinds[w + "/inner.git/hooks"] = FileKind::kDirectory;
    d.kinds[w + "/inner.git/config"] = FileKind::kFile;
    PlanResult r = plan_with(policy(), d);
    REQUIRE(r.plan);
    CHECK(ro(*r.plan, g));
    CHECK(ro(*r.plan, w + "/inner.git/hooks"));
    CHECK(ro(*r.plan, w + "/inner.git/config"));
    const auto ops = describe(*r.plan);
    CHECK(index_of(ops, "bind '" + w + "/inner.git'") < ops.size());  // pinned
    auto wl = watched(*r.plan);
    CHECK(index_of(wl, w + "/inner.git/commondir") < wl.size());
  }
  SUBCASE("an existing commondir naming a directory inside the workspace") {
    FakeDisk d = disk();
    d.kinds[g + "/commondir"] = FileKind::kFile;
    d.texts[g + "/commondir"] = "../cd\n";
    d.kinds[w + "/cd"] = d.kinds[w + "/cd/hooks"] = FileKind::kDirectory;
    d.kinds[w + "/cd/config"] = FileKind::kFile;
    d.texts[w + "/cd/config"] = "[core]\n\tfsmonitor = ./mon.sh\n";
    PlanResult r = plan_with(policy(), d);
    REQUIRE(r.plan);
    CHECK(ro(*r.plan, g + "/commondir"));
    CHECK(ro(*r.plan, w + "/cd/hooks"));
    CHECK(ro(*r.plan, w + "/cd/config"));
    auto wl = watched(*r.plan);
    CHECK(index_of(wl, w + "/mon.sh") < wl.size());  // its config is read too
  }
}

TEST_CASE("a symbolic link on the way to a read-only path in a writable one is watched") {
  const std::string w = "/home/u/proj", g = w + "/.git";
  FakeDisk d = disk();
  d.kinds[g + "/hooks"] = FileKind::kSymlink;  // .git/hooks -> ../myhooks
  d.real[g + "/hooks"] = w + "/myhooks";
  d.kinds[w + "/myhooks"] = FileKind::kDirectory;
  PlanResult r = plan_with(policy(), d);
  REQUIRE(r.plan);
  const auto ops = describe(*r.plan);
  CHECK(index_of(ops, "ro-bind '" + w + "/myhooks'") < ops.size());
  auto wl = watched(*r.plan);
  CHECK(index_of(wl, g + "/hooks") < wl.size());
}

TEST_CASE("a link in a writable path must not lead a read-only grant outside it, or to a hide") {
  Policy p = policy();
  p.filesystem.read_write.push_back({"~/.claude", {"p.toml", 20, 1}});
  p.filesystem.read_only.push_back({"~/.claude/CLAUDE.md", {"p.toml", 21, 1}});
  p.filesystem.optional.push_back({"~/.claude/CLAUDE.md", {"p.toml", 22, 1}});
  FakeDisk d = disk();
  d.kinds["/home/u/.claude"] = FileKind::kDirectory;
  d.kinds["/home/u/.ssh"] = d.kinds["/srv/else"] = FileKind::kDirectory;
  d.kinds["/home/u/.claude/CLAUDE.md"] = FileKind::kSymlink;  // planted by an earlier session
  struct Row {
    const char* target;
    const char* message;  // "" = allowed
  };
  const Row rows[] = {{"/home/u/.ssh", "which the profile hides"},
                      {"/srv/else", "outside the writable '/home/u/.claude'"},
                      {"/home/u/.claude/real.md", ""}};
  // ~/.claude itself a link of the user's (a dotfiles manager): its own
  // entries lead inside where it leads, which is fine.
  {
    FakeDisk dot = disk();
    dot.kinds["/home/u/.claude"] = FileKind::kSymlink;
    dot.real["/home/u/.claude"] = "/home/u/dotfiles/claude";
    dot.kinds["/home/u/dotfiles/claude"] = FileKind::kDirectory;
    dot.kinds["/home/u/.claude/CLAUDE.md"] = FileKind::kFile;
    dot.real["/home/u/.claude/CLAUDE.md"] = "/home/u/dotfiles/claude/CLAUDE.md";
    dot.kinds["/home/u/dotfiles/claude/CLAUDE.md"] = FileKind::kFile;
    PlanResult ok = plan_with(p, dot);
    CAPTURE(ok.errors.empty() ? std::string() : ok.errors[0]);
    CHECK(ok.plan);
  }
  for (const Row& r : rows) {
    CAPTURE(r.target);
    d.real["/home/u/.claude/CLAUDE.md"] = r.target;
    d.kinds[r.target] = FileKind::kDirectory;
    PlanResult res = plan_with(p, d);
    if (*r.message) {
      CHECK_FALSE(res.plan);
      REQUIRE_FALSE(res.errors.empty());
      CAPTURE(res.errors[0]);
      CHECK(res.errors[0].find(r.message) != std::string::npos);
    } else {
      CHECK(res.plan);
    }
  }
}

TEST_CASE("directories between a writable path and a read-only or hidden one in it are pinned") {
  Policy p = policy();
  p.filesystem.hide.push_back({"${WORKSPACE}/conf/app/.env", {"p.toml", 30, 1}});
  p.filesystem.read_only.push_back({"${WORKSPACE}/.claude/settings.json", {"p.toml", 31, 1}});
  FakeDisk d = disk();
  const std::string w = "/home/u/proj";
  d.kinds[w + "/conf"] = d.kinds[w + "/conf/app"] = d.kinds[w + "/.claude"] = FileKind::kDirectory;
  d.kinds[w + "/conf/app/.env"] = d.kinds[w + "/.claude/settings.json"] = FileKind::kFile;
  PlanResult r = plan_with(p, d);
  REQUIRE(r.plan);
  const auto ops = describe(*r.plan);
  for (const char* dir : {"/conf", "/conf/app", "/.claude"}) {
    CAPTURE(dir);
    CHECK(index_of(ops, "bind '" + w + dir + "'") < ops.size());
  }
  // The pins go before what they hold.
  CHECK(index_of(ops, "bind '" + w + "/conf/app'") <
        index_of(ops, "hide file '" + w + "/conf/app/.env'"));
  // Nothing is pinned above the writable path itself.
  CHECK(index_of(ops, "bind '/home/u'") == ops.size());
}

TEST_CASE("without a mount namespace a tmpfs inside a writable path is watched and warned about") {
  Policy p = policy();
  p.filesystem.tmpfs.push_back({"${WORKSPACE}/scratch", {"p.toml", 40, 1}});
  FakeDisk d = disk();
  d.kinds["/home/u/proj/scratch"] = FileKind::kDirectory;
  PlanInputs in;
  in.user_namespace = false;
  PlanResult r = plan_with(p, d, in);
  REQUIRE(r.plan);
  auto wl = watched(*r.plan);
  CHECK(index_of(wl, "/home/u/proj/scratch") < wl.size());
  const auto& notes = r.plan->landlock.not_enforced;
  CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
    return n.find("tmpfs '/home/u/proj/scratch'") != std::string::npos;
  }));
  in.user_namespace = true;  // with one it is a real tmpfs: nothing to watch
  auto wl2 = watched(*plan_with(p, d, in).plan);
  CHECK(index_of(wl2, "/home/u/proj/scratch") == wl2.size());
}

TEST_CASE("a read-only file in a writable path with another hard link refuses the start") {
  FakeDisk d = disk();
  const std::string cfg = "/home/u/proj/.git/config";
  d.kinds[cfg] = FileKind::kFile;
  CHECK(plan_with(policy(), d).plan);
  d.links_to[cfg] = 2;  // `ln .git/config .cfg` in an earlier session
  PlanResult r = plan_with(policy(), d);
  CHECK_FALSE(r.plan);
  REQUIRE_FALSE(r.errors.empty());
  CHECK(r.errors[0].find("has 2 hard links") != std::string::npos);
}

TEST_CASE("git config values are read as git reads them") {
  struct Row {
    const char* text;
    const char* value;
  };
  const Row rows[] = {
      {"[include]\n\tpath = \\\n/w/inc2.cfg\n", "/w/inc2.cfg"},        // continued line
      {"[include]\n\tpath = \"/w/inc7.cfg\" \"\"\n", "/w/inc7.cfg "},  // kept space
      {"[include]\n\tpath = \"/w/a\\tb.cfg\"\n", "/w/a\tb.cfg"},       // escape
      {"[include]\n\tpath =  /w/x  y  # note\n", "/w/x  y"},           // spaces kept, ends dropped
      {"[include]\n\tpath = \"/w/q;r\" ; c\n", "/w/q;r"},              // ; quoted
      {"[include] path = /w/one\n", "/w/one"},                         // same line
      {"[include]\r\n\tpath = /w/crlf\r\n", "/w/crlf"},                // CRLF
  };
  for (const Row& r : rows) {
    CAPTURE(r.text);
    const auto entries = git_config_entries(r.text);
    REQUIRE(entries.size() == 1);
    CHECK(entries[0].section == "include");
    CHECK(entries[0].key == "path");
    CHECK(entries[0].value == r.value);
  }
  // A continued hooksPath (relative to the checkout) is protected where git
  // takes it from.
  FakeDisk d = disk();
  d.texts["/home/u/proj/.git/config"] = "[core]\n\thooksPath = \".hoo\"\\\nks2\n";
  auto wl = watched(*plan_with(policy(), d).plan);
  CHECK(index_of(wl, "/home/u/proj/.hooks2") < wl.size());
}

TEST_CASE("core.worktree is read from a git config") {
  CHECK(git_config_core("[core]\n\tworktree = ../../../sub\n", "worktree") == "../../../sub");
  CHECK(git_config_core("[Core]\n  WorkTree=\"/a b\"\r\n", "worktree") == "/a b");
  CHECK(git_config_core("[remote \"o\"]\n\tworktree = x\n[core]\n\tbare = true\n", "worktree")
            .empty());
  CHECK(git_config_core("# worktree = x\n", "worktree").empty());
  CHECK(git_config_core("", "worktree").empty());
}

TEST_CASE("seccomp guards kill(0) where Landlock cannot scope signals, and kill(-1) without pids") {
  struct Row {
    int abi;
    bool userns;
    bool tty;  // a controlling terminal: the jail stays in the caller's process group
    bool group, all;
  };
  const Row rows[] = {
      {7, true, true, false, false},  {6, true, true, false, false},
      {6, false, true, false, false}, {5, true, true, true, false},
      {2, true, true, true, false},   {0, true, true, true, false},
      {5, false, true, true, true},   {0, false, true, true, true},
      {7, true, false, false, false}, {5, true, false, false, false},
      {5, false, false, false, true}, {0, false, false, false, true},
      {2, false, false, false, true},
  };
  for (const Row& row : rows) {
    CAPTURE(row.abi);
    CAPTURE(row.userns);
    CAPTURE(row.tty);
    HostFacts f = facts();
    f.landlock_abi = row.abi;
    f.controlling_terminal = row.tty;
    PlanInputs in;
    in.argv = {"sh"};
    in.user_namespace = row.userns;
    PlanResult r = build_plan(policy(), f, disk(), in);
    REQUIRE(r.plan);
    CHECK(r.plan->own_session == !row.tty);
    const SeccompOptions o = builtin_seccomp_options(*r.plan);
    CHECK(o.guard_kill_group == row.group);
    CHECK(o.guard_kill_all == row.all);
    CHECK(o.no_inet_sockets == !row.userns);  // --net none by default
    CHECK(o.no_unix_sockets == !row.userns);
    CHECK(o.guard_truncate == (!row.userns && row.abi < 3));
    CHECK(o.guard_other_processes == !row.userns);
    CHECK(o.no_host_ipc == !row.userns);
  }
}

TEST_CASE("the jail's user namespace gets half of the caller's per-user watch limits") {
  for (bool userns : {true, false}) {
    CAPTURE(userns);
    HostFacts f = facts();
    f.user_limits = {{"max_inotify_instances", 128}, {"max_fanotify_marks", 1}};
    PlanInputs in;
    in.argv = {"sh"};
    in.user_namespace = userns;
    PlanResult r = build_plan(policy(), f, disk(), in);
    REQUIRE(r.plan);
    const std::vector<std::pair<std::string, long>> want =
        userns ? std::vector<std::pair<std::string, long>>{{"max_inotify_instances", 64}}
               : std::vector<std::pair<std::string, long>>{};
    CHECK(r.plan->namespace_limits == want);
  }
}

TEST_CASE("a relayed terminal gives the jail a session of its own and shows its own device") {
  for (bool relay : {false, true}) {
    CAPTURE(relay);
    HostFacts f = facts();
    f.controlling_terminal = true;
    f.terminal = "/dev/pts/3";  // the caller's
    PlanInputs in;
    in.argv = {"sh"};
    in.relay_terminal = relay;
    in.relayed_terminal = "/dev/pts/9";  // the jail's own
    PlanResult r = build_plan(policy(), f, disk(), in);
    REQUIRE(r.plan);
    CHECK(r.plan->terminal_relayed == relay);
    CHECK(r.plan->own_session == relay);
    // kill(0) reaches the jail only: no guard needed with a session of its own.
    f.landlock_abi = 5;
    PlanResult old_kernel = build_plan(policy(), f, disk(), in);
    REQUIRE(old_kernel.plan);
    CHECK(builtin_seccomp_options(*old_kernel.plan).guard_kill_group == !relay);
    const MountOp* console = nullptr;
    for (const auto& op : r.plan->mounts.ops)
      if (op.target == "/dev/console") console = &op;
    REQUIRE(console != nullptr);
    CHECK(console->source == (relay ? "/dev/pts/9" : "/dev/pts/3"));
  }
}

}  // namespace aj

namespace aj {

TEST_CASE("explain and --dry-run claim no mount without user namespaces") {
  PlanInputs in;
  in.user_namespace = false;
  PlanResult r = plan_with(policy(), disk(), in);
  REQUIRE(r.plan);
  ReportContext ctx;
  ctx.user_namespace = false;
  ctx.landlock_abi = 7;
  const Report rep = build_report(*r.plan, policy(), ctx);
  auto find = [&rep](const std::string& subject) -> const ReportRule* {
    for (const auto& rule : rep.rules)
      if (rule.subject == subject) return &rule;
    return nullptr;
  };
  for (const auto& rule : rep.rules)
    for (const auto& layer : rule.layers) {
      CAPTURE(rule.subject);
      CHECK(layer.find("mount") == std::string::npos);
    }
  // A hide inside a read grant is not a hide; one outside every grant is.
  const ReportRule* shadow = find("/etc/shadow");
  REQUIRE(shadow);
  CHECK(shadow->action == "read");
  CHECK(shadow->layers.empty());
  CHECK(shadow->note.find("NOT hidden") != std::string::npos);
  const ReportRule* ssh = find("/home/u/.ssh");
  REQUIRE(ssh);
  CHECK(ssh->action == "hidden");
  CHECK(ssh->layers == std::vector<std::string>{"Landlock (not granted)"});
  // The read-only .git/hooks inside the writable workspace is writable.
  const ReportRule* hooks = find("/home/u/proj/.git/hooks");
  REQUIRE(hooks);
  CHECK(hooks->note.find("NOT read-only") != std::string::npos);
  const std::string text = format_plan(*r.plan);
  CHECK(text.find("mounts:    none (no mount namespace") != std::string::npos);
  CHECK(text.find("ro-bind") == std::string::npos);
  CHECK(text.find("(no user namespace)") != std::string::npos);
}

}  // namespace aj

namespace aj {

TEST_CASE("a protected path that is a link to nothing the command could make is refused") {
  const std::string g = "/home/u/proj/.git";
  FakeDisk d = disk();
  d.kinds.erase(g + "/hooks");
  d.kinds[g + "/hooks"] = FileKind::kSymlink;
  d.links[g + "/hooks"] = "../tools/hooks";
  d.dangling.push_back(g + "/hooks");
  PlanResult r = plan_with(policy(), d);
  CHECK_FALSE(r.plan);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].find("p.toml:3:1: '" + g +
                         "/hooks' is a symbolic link to '../tools/hooks', "
                         "which does not exist") == 0);
  // A link to nothing outside every writable path is nothing to protect.
  FakeDisk e = disk();
  e.kinds["/etc/motd"] = FileKind::kSymlink;
  e.links["/etc/motd"] = "/nowhere";
  e.dangling.push_back("/etc/motd");
  ProfileLayer l;
  l.file = "p.toml";
  l.filesystem.read_only.add = {at("/etc/motd", 9)};
  l.filesystem.optional.add = {at("/etc/motd", 9)};
  PlanResult ok = plan_with(merge_layers({l}), e);
  CHECK(ok.errors.empty());
}

}  // namespace aj

namespace aj {

TEST_CASE("git metadata naming a place in a writable path outside the workspace is protected") {
  const std::string g = "/home/u/proj/.git";
  FakeDisk d = disk();
  d.kinds["/home/u/state"] = d.kinds["/home/u/state/hooks"] = FileKind::kDirectory;
  d.kinds["/home/u/state/inc"] = FileKind::kFile;
  d.texts[g + "/config"] =
      "[include]\n\tpath = /home/u/state/inc\n[core]\n\thooksPath = ~/state/hooks\n";
  PlanResult r = plan_with(policy({at("~/state", 9)}), d);
  REQUIRE(r.plan);
  const auto ops = describe(*r.plan);
  CHECK(index_of(ops, "ro-bind '/home/u/state/inc'") < ops.size());
  CHECK(index_of(ops, "ro-bind '/home/u/state/hooks'") < ops.size());
  // Not writable anywhere: nothing to protect.
  PlanResult plain = plan_with(policy(), d);
  REQUIRE(plain.plan);
  CHECK(index_of(describe(*plain.plan), "ro-bind '/home/u/state/inc'") ==
        describe(*plain.plan).size());

  // A .git file naming a git directory there that does not exist yet: watched.
  FakeDisk e = disk();
  e.kinds["/home/u/state"] = FileKind::kDirectory;
  e.kinds.erase(g + "/hooks");
  e.kinds.erase(g + "/config");
  e.kinds[g] = FileKind::kFile;
  e.texts[g] = "gitdir: /home/u/state/evil\n";
  PlanResult w = plan_with(policy({at("~/state", 9)}), e);
  REQUIRE(w.plan);
  CHECK(std::any_of(w.plan->watched.begin(), w.plan->watched.end(),
                    [](const WatchedPath& p) { return p.path == "/home/u/state/evil"; }));
}

}  // namespace aj

namespace aj {

TEST_CASE("explain says a cgroup limit is missing only when it is") {
  PlanResult r = plan_with(policy());
  REQUIRE(r.plan);
  Plan plan = *r.plan;
  plan.pids_max = 4096;
  auto says_missing = [&](bool pids_group) {
    ReportContext ctx;
    ctx.landlock_abi = 7;
    ctx.cgroup_pids = pids_group;
    ctx.cgroup_note = "cgroup v2: offers no memory, pids or cpu controller";
    const Report rep = build_report(plan, policy(), ctx);
    return std::any_of(rep.assumptions.begin(), rep.assumptions.end(), [](const std::string& a) {
      return a.rfind("No cgroup limit for processes", 0) == 0;
    });
  };
  CHECK(says_missing(false));
  CHECK_FALSE(says_missing(true));  // root's v1 pids group, with the v2 note
}

}  // namespace aj

namespace aj {
namespace {

// One index entry (versions 2 and 3) as git writes it.
std::string index_entry(std::uint32_t mode, const std::string& path, bool extended) {
  std::string e(62, '\0');
  for (int i = 0; i < 4; ++i) e[24 + i] = static_cast<char>((mode >> (24 - 8 * i)) & 0xff);
  const unsigned flags = (extended ? 0x4000 : 0) | static_cast<unsigned>(path.size() & 0xfff);
  e[60] = static_cast<char>(flags >> 8);
  e[61] = static_cast<char>(flags & 0xff);
  if (extended) e += std::string(2, '\0');
  e += path;
  const std::size_t padded = (e.size() + 8) / 8 * 8;  // 1 to 8 NULs
  e.resize(padded, '\0');
  return e;
}

std::string index_of_entries(std::uint32_t version, const std::vector<std::string>& entries) {
  std::string h = "DIRC";
  for (std::uint32_t v : {version, static_cast<std::uint32_t>(entries.size())})
    for (int i = 0; i < 4; ++i) h += static_cast<char>((v >> (24 - 8 * i)) & 0xff);
  for (const auto& e : entries) h += e;
  return h;
}

}  // namespace

TEST_CASE("the gitlinks of a git index are found, in versions 2 and 3") {
  const std::string v2 = index_of_entries(
      2, {index_entry(0100644, "a.txt", false), index_entry(0160000, "vendor/emb", false),
          index_entry(0120000, "link", false), index_entry(0160000, "other1234", false)});
  CHECK(index_gitlinks(v2) == std::vector<std::string>{"vendor/emb", "other1234"});
  const std::string v3 = index_of_entries(
      3, {index_entry(0100755, "run.sh", true), index_entry(0160000, "sub", true)});
  CHECK(index_gitlinks(v3) == std::vector<std::string>{"sub"});
  // Version 4, another signature, a cut entry: nothing (never a wrong path).
  CHECK(index_gitlinks(index_of_entries(4, {index_entry(0160000, "sub", false)})).empty());
  CHECK(index_gitlinks("XXXX" + v2.substr(4)).empty());
  CHECK(index_gitlinks(v2.substr(0, 40)).empty());
}

TEST_CASE("a gitlink in the index protects its checkout's .git even without .gitmodules") {
  FakeDisk d = disk();
  d.texts["/home/u/proj/.git/index"] =
      index_of_entries(2, {index_entry(0160000, "lib/emb", false)});
  d.kinds["/home/u/proj/.git/index"] = FileKind::kFile;
  for (const char* dir : {"/home/u/proj/lib", "/home/u/proj/lib/emb", "/home/u/proj/lib/emb/.git"})
    d.kinds[dir] = FileKind::kDirectory;
  d.kinds["/home/u/proj/lib/emb/.git/config"] = FileKind::kFile;
  PlanResult r = plan_with(policy(), d);
  REQUIRE(r.plan);
  auto ops = describe(*r.plan);
  CHECK(index_of(ops, "ro-bind '/home/u/proj/lib/emb/.git/config'") < ops.size());
}

}  // namespace aj

namespace aj {

TEST_CASE(
    "without user namespaces the session directory may not go through a link in a writable grant") {
  struct Row {
    const char* link;  // a symbolic link on the way, or nullptr
    bool refused;
  };
  const Row rows[] = {
      {nullptr, false},                                  // the state directory in the workspace
      {"/home/u/proj/.state/agentjail/sessions", true},  // planted by an earlier session
      {"/home/u/proj/.state", true},
  };
  for (const Row& row : rows) {
    CAPTURE(row.link ? row.link : "none");
    HostFacts f = facts();
    f.state_dir = "/home/u/proj/.state/agentjail";
    FakeDisk d = disk();
    if (row.link) d.kinds[row.link] = FileKind::kSymlink;
    PlanInputs in;
    in.argv = {"sh"};
    in.user_namespace = false;
    in.journal_target = "/var/log/aj.jsonl";  // the journal elsewhere
    PlanResult r = build_plan(policy(), f, d, in);
    const bool refused = std::any_of(r.errors.begin(), r.errors.end(), [](const std::string& e) {
      return e.find("session directory goes through") != std::string::npos;
    });
    CHECK(refused == row.refused);
  }
}

}  // namespace aj
