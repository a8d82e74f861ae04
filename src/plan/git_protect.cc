#include "plan/git_protect.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <set>

#include "plan/env_plan.h"
#include "policy/variables.h"

namespace aj {
namespace {

// Where git finds a repository's hooks and config, besides its own hooks/
// and config:
//  - a .git that is a file ("gitdir: PATH", a linked worktree's or a
//    submodule checkout's) names the git directory;
//  - commondir names the directory config and hooks are read from;
//  - config.worktree is more config (with extensions.worktreeConfig).
// Submodules keep their git directories under .git/modules (nested ones
// under modules/a/modules/b; a name may hold slashes), linked worktrees
// theirs under .git/worktrees; `git status` at the top runs git in each
// submodule, with that submodule's config.
constexpr const char* kRedirects[] = {"commondir", "config.worktree"};

constexpr const char* kRedirectWhy =
    "git would take the repository's config and hooks from where it points, or more config "
    "from it";
constexpr const char* kHooksPathWhy =
    "the repository's core.hooksPath: git on the host runs the hooks there";
constexpr const char* kIncludeWhy =
    "a config file git includes for this repository: commands in it run on the host";
constexpr const char* kProgramWhy =
    "a program git's config runs (core.fsmonitor, a filter, a diff or merge driver, ...): git "
    "on the host runs it";
constexpr const char* kNewRepositoryWhy =
    "there was no repository when the jail started: git on the host runs the hooks and config "
    "of one made since (a .git file names where they are)";
constexpr const char* kBareTopWhy =
    "git on the host would take the workspace itself for a repository, with a config and "
    "hooks of the command's making";
constexpr const char* kNamedGitDirWhy =
    "in the git directory a .git file or commondir names: git on the host takes config and "
    "hooks from there";
constexpr const char* kLinksWhy =
    "git on the host writes through a symbolic link in its own directory (the reflog is "
    "appended to, COMMIT_EDITMSG and FETCH_HEAD rewritten), to wherever it leads";
// An interrupted rebase, cherry-pick or revert: its todo list may queue
// `exec` lines, which git runs through the shell at --continue.
constexpr const char* kSequencerDirs[] = {"rebase-merge", "rebase-apply", "sequencer"};
constexpr const char* kSequencerWhy =
    "git on the host runs what an interrupted rebase, cherry-pick or revert left queued (its "
    "exec lines) when you continue it";
constexpr const char* kSubmoduleLeafWhy =
    "missing in a submodule's git directory when the jail started: git on the host runs the "
    "hooks and config of one made since";
constexpr const char* kPointerWhy =
    "a submodule checkout's pointer to its git directory: `git status` at the top would run "
    "git with the config of wherever it points";

std::string parent_dir(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos || slash == 0 ? "/" : path.substr(0, slash);
}

// The config files git may read for the repository at git_dir, lowest
// priority first, each with the directory its relative includes start from.
// The host's git runs with the caller's environment, which may move the
// system and global files ($GIT_CONFIG_SYSTEM, $GIT_CONFIG_GLOBAL,
// $XDG_CONFIG_HOME): every candidate is read, since reading one more only
// protects more.
std::vector<std::pair<std::string, std::string>> config_files(const std::string& git_dir,
                                                              const GitUserEnv& user) {
  std::vector<std::pair<std::string, std::string>> out = {{"/etc/gitconfig", "/etc"}};
  auto add_absolute = [&out](const std::string& file) {
    if (!file.empty() && file[0] == '/') out.push_back({file, parent_dir(file)});
  };
  add_absolute(user.config_system);
  add_absolute(user.xdg_config_home.empty() ? "" : user.xdg_config_home + "/git/config");
  if (!user.home.empty()) {
    out.push_back({user.home + "/.config/git/config", user.home + "/.config/git"});
    out.push_back({user.home + "/.gitconfig", user.home});
  }
  add_absolute(user.config_global);
  out.push_back({git_dir + "/config", git_dir});
  return out;
}

// The git directories of the submodules under git_dir/modules.
std::vector<std::string> submodule_dirs_under(const Disk& disk, const std::string& git_dir) {
  std::vector<std::string> found;
  std::vector<std::string> pending = {git_dir + "/modules"};
  std::size_t seen = 0;
  while (!pending.empty() && seen < kMaxGitDirs) {
    const std::string dir = pending.back();
    pending.pop_back();
    for (const std::string& name : disk.list_dir(dir)) {
      const std::string child = dir + "/" + name;
      if (disk.kind(child) != FileKind::kDirectory || ++seen > kMaxGitDirs) continue;
      if (disk.kind(child + "/HEAD") == FileKind::kFile) {
        found.push_back(child);
        pending.push_back(child + "/modules");
      } else {
        pending.push_back(child);  // a name with a slash: modules/lib/x
      }
    }
  }
  return found;
}

// The git directories of the submodule checkouts whose .git is a directory
// of their own (a repository already in the tree when `git submodule add`
// registered it), named by the top's .gitmodules or by a gitlink in its
// index (.gitmodules is a file of the workspace, emptied as easily as
// written): `git status` at the top runs git in each, with its config and
// hooks.
std::vector<std::string> embedded_submodule_dirs(const Disk& disk, const std::string& top) {
  std::vector<std::string> paths;
  if (const auto text = disk.read_text(top + "/.gitmodules", 256 * 1024))
    for (const auto& e : git_config_entries(*text))
      if (e.section == "submodule" && e.key == "path") paths.push_back(e.value);
  if (const auto index = disk.read_text(top + "/.git/index", 64 * 1024 * 1024))
    for (std::string& p : index_gitlinks(*index)) paths.push_back(std::move(p));
  std::vector<std::string> found;
  for (const std::string& p : paths) {
    if (p.empty() || p[0] == '/') continue;
    const std::string dir = normalize_path(top + "/" + p + "/.git");
    if (dir == top + "/.git" || !path_is_within(dir, top)) continue;
    if (std::find(found.begin(), found.end(), dir) != found.end()) continue;
    if (disk.kind(dir) == FileKind::kDirectory && found.size() < kMaxGitDirs) found.push_back(dir);
  }
  return found;
}

// The linked worktrees' administrative directories under git_dir/worktrees.
std::vector<std::string> worktree_dirs(const Disk& disk, const std::string& git_dir) {
  std::vector<std::string> found;
  for (const std::string& name : disk.list_dir(git_dir + "/worktrees")) {
    const std::string dir = git_dir + "/worktrees/" + name;
    if (disk.kind(dir) == FileKind::kDirectory && found.size() < kMaxGitDirs) found.push_back(dir);
  }
  return found;
}

class Protector {
 public:
  Protector(const Disk& disk, const WritableAreas& areas) : disk_(disk), areas_(areas) {}

  // Keeps `path` read-only when it exists. A symbolic link is protected
  // where it leads inside the workspace; one leading elsewhere is left alone
  // rather than stop the jail from starting, as a profile's own path would,
  // and one leading nowhere is passed on as it is. Returns whether it exists.
  bool keep(const std::string& path, const SourceLoc& where) {
    const FileKind kind = disk_.kind(path);
    if (kind == FileKind::kMissing) return false;
    if (kind == FileKind::kSymlink) {
      const auto leads = disk_.real_path(path);
      if (leads && areas_.holds(*leads)) out_.read_only.push_back({*leads, where});
      // A link to nothing: the plan refuses it where the command could make
      // what it names (mount_plan.cc, refuse_writable_dangling).
      if (!leads) out_.read_only.push_back({path, where});
    } else {
      out_.read_only.push_back({path, where});
    }
    return true;
  }

  // Keeps it read-only, or watches it when it does not exist yet.
  void keep_or_watch(const std::string& path, const SourceLoc& where, const char* why) {
    if (!keep(path, where)) out_.watched.push_back({path, where, why});
  }

  void pin(const std::string& dir, const SourceLoc& where) {
    for (const auto& p : out_.pinned)
      if (p.path == dir) return;
    out_.pinned.push_back({dir, where});
  }

  void watch(const std::string& path, const SourceLoc& where, const char* why) {
    out_.watched.push_back({path, where, why});
  }

  // New symbolic links beneath a git directory are reported at the end.
  void watch_links(const std::string& dir, const SourceLoc& where) {
    for (const auto& p : out_.link_roots)
      if (path_is_within(dir, p.path)) return;
    out_.link_roots.push_back({dir, where, kLinksWhy});
  }

  GitProtection take() { return std::move(out_); }

 private:
  const Disk& disk_;
  const WritableAreas& areas_;
  GitProtection out_;
};

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

}  // namespace

namespace {

// A value as git's config parser reads it, from pos (just after the '=')
// to the end of its line; pos is left after that. Whitespace outside quotes
// becomes one space a character, dropped at both ends; quotes are
// removed; \n \t \b \" \\ are escapes, and a backslash at the end of a
// line continues the value on the next; # or ; outside quotes starts a
// comment.
std::string parse_config_value(const std::string& config, std::size_t& pos) {
  std::string out;
  bool quote = false, comment = false;
  std::size_t space = 0;
  while (pos < config.size()) {
    const char c = config[pos++];
    if (c == '\n') break;
    if (comment) continue;
    if (!quote && (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v')) {
      if (!out.empty()) ++space;
      continue;
    }
    if (!quote && (c == ';' || c == '#')) {
      comment = true;
      continue;
    }
    out.append(space, ' ');
    space = 0;
    if (c == '\\') {
      if (pos >= config.size()) break;
      const char e = config[pos++];
      if (e == '\n') continue;  // the value goes on on the next line
      out += e == 'n' ? '\n' : e == 't' ? '\t' : e == 'b' ? '\b' : e;
      continue;
    }
    if (c == '"') {
      quote = !quote;
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

std::vector<GitConfigEntry> git_config_entries(const std::string& config) {
  std::vector<GitConfigEntry> out;
  std::string section;
  std::size_t pos = 0;
  auto skip_blanks = [&] {
    while (pos < config.size() &&
           (config[pos] == ' ' || config[pos] == '\t' || config[pos] == '\r'))
      ++pos;
  };
  auto skip_line = [&] {
    const std::size_t nl = config.find('\n', pos);
    pos = nl == std::string::npos ? config.size() : nl + 1;
  };
  while (pos < config.size()) {
    skip_blanks();
    if (pos >= config.size()) break;
    const char c = config[pos];
    if (c == '\n') {
      ++pos;
    } else if (c == '#' || c == ';') {
      skip_line();
    } else if (c == '[') {
      // [section "subsection"] (the name is case-insensitive, the
      // subsection not); a key may follow on the same line.
      const std::size_t close = config.find(']', pos);
      const std::size_t nl = config.find('\n', pos);
      if (close == std::string::npos || (nl != std::string::npos && close > nl)) {
        skip_line();
        continue;
      }
      const std::string name = trim(config.substr(pos + 1, close - pos - 1));
      section = lower(name.substr(0, name.find_first_of(" \t.")));
      pos = close + 1;
    } else {
      std::size_t key_end = pos;
      while (key_end < config.size() &&
             (std::isalnum(static_cast<unsigned char>(config[key_end])) || config[key_end] == '-'))
        ++key_end;
      const std::string key = lower(config.substr(pos, key_end - pos));
      pos = key_end;
      skip_blanks();
      if (key.empty()) {
        skip_line();
        continue;
      }
      if (pos < config.size() && config[pos] == '=') {
        ++pos;
        while (pos < config.size() && (config[pos] == ' ' || config[pos] == '\t')) ++pos;
        out.push_back({section, key, parse_config_value(config, pos)});
      } else {
        out.push_back({section, key, "true"});  // a key alone is a boolean
        skip_line();
      }
    }
  }
  return out;
}

std::string git_config_core(const std::string& config, const std::string& key) {
  std::string value;
  for (const auto& e : git_config_entries(config))
    if (e.section == "core" && e.key == key) value = e.value;  // the last one wins
  return value;
}

namespace {

// Config keys whose value is a command git runs: the program it names, when
// written as a path (a bare name is looked up in $PATH), could be in the
// working tree. Section names come without their subsection.
bool names_program(const GitConfigEntry& e) {
  static const std::pair<const char*, const char*> kKeys[] = {{"core", "fsmonitor"},
                                                              {"core", "sshcommand"},
                                                              {"core", "editor"},
                                                              {"core", "pager"},
                                                              {"core", "askpass"},
                                                              {"diff", "external"},
                                                              {"diff", "command"},
                                                              {"diff", "textconv"},
                                                              {"merge", "driver"},
                                                              {"filter", "clean"},
                                                              {"filter", "smudge"},
                                                              {"filter", "process"},
                                                              {"sequence", "editor"},
                                                              {"gpg", "program"},
                                                              {"credential", "helper"},
                                                              {"uploadpack", "packobjectshook"},
                                                              {"core", "gitproxy"},
                                                              {"core", "alternaterefscommand"},
                                                              {"remote", "uploadpack"},
                                                              {"remote", "receivepack"},
                                                              {"gpg", "defaultkeycommand"},
                                                              {"trailer", "cmd"},
                                                              {"trailer", "command"},
                                                              {"browser", "cmd"},
                                                              {"difftool", "cmd"},
                                                              {"mergetool", "cmd"},
                                                              {"interactive", "difffilter"},
                                                              {"protocol", "allow"},
                                                              {"url", "insteadof"},
                                                              {"url", "pushinsteadof"}};
  // An alias or a submodule update command starting with "!" runs a shell.
  if (e.section == "pager" ||
      ((e.section == "alias" || e.section == "submodule") && e.value.starts_with("!")))
    return true;
  for (const auto& [section, key] : kKeys)
    if (e.section == section && e.key == key) return true;
  return false;
}

// The program a command value starts with, when given as a path ("" else).
std::string program_path(std::string_view value) {
  if (value.starts_with("!")) value.remove_prefix(1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  std::string word;
  const char quote = !value.empty() && (value[0] == '"' || value[0] == '\'') ? value[0] : 0;
  if (quote) value.remove_prefix(1);
  for (char c : value) {
    if (quote ? c == quote : (c == ' ' || c == '\t' || c == ';' || c == '|' || c == '&')) break;
    word += c;
  }
  return word.find('/') == std::string::npos ? std::string() : word;
}

// Included config files are followed this deep (git itself stops at 10).
constexpr int kMaxIncludeDepth = 10;

// Reads a repository's config files for what git would run from the
// workspace, and has `protect` keep each such path read-only (or watch it).
class ConfigScanner {
 public:
  ConfigScanner(const Disk& disk, const GitUserEnv& user, const WritableAreas& areas,
                Protector& protect, const SourceLoc& where)
      : disk_(disk), user_(user), areas_(areas), protect_(protect), where_(where) {}

  // The config files of the git directory dir_of_git (and its
  // config.worktree, read with extensions.worktreeConfig), whose checkout is
  // at `checkout`: core.hooksPath and programs are relative to it.
  void scan_repository(const std::string& dir_of_git, const std::string& checkout) {
    std::string hooks_path;
    read_.clear();
    auto files = config_files(dir_of_git, user_);
    files.push_back({dir_of_git + "/config.worktree", dir_of_git});
    for (const auto& [file, dir] : files) scan_file(file, dir, checkout, 0, hooks_path);
    if (auto hooks = writable(resolve(hooks_path, checkout)); !hooks.empty())
      protect_.keep_or_watch(hooks, where_, kHooksPathWhy);
  }

 private:
  // raw as git reads it (~/ for the home, relative to base), cleaned.
  std::string resolve(const std::string& raw, const std::string& base) const {
    if (raw.empty()) return {};
    std::string p = raw;
    if (p.rfind("~/", 0) == 0) p = user_.home + p.substr(1);
    if (p[0] != '/') p = base + "/" + p;
    return normalize_path(p);
  }

  // p when the command could write it (the workspace, ~/.claude), else "".
  std::string writable(const std::string& p) const {
    return !p.empty() && areas_.holds(p) ? p : std::string();
  }

  // Included files are read too, wherever they are (one outside the
  // workspace may include one inside); relative includes start from the
  // including file's directory.
  void scan_file(const std::string& file, const std::string& dir, const std::string& checkout,
                 int depth, std::string& hooks_path) {
    if (!read_.insert(file).second) return;  // an include cycle, or a file met twice
    const auto text = disk_.read_text(file, 256 * 1024);
    if (!text) return;
    for (const auto& e : git_config_entries(*text)) {
      if (e.section == "core" && e.key == "hookspath") hooks_path = e.value;
      if ((e.section == "include" || e.section == "includeif") && e.key == "path") {
        const std::string included = resolve(e.value, dir);
        if (auto p = writable(included); !p.empty()) protect_.keep_or_watch(p, where_, kIncludeWhy);
        if (!included.empty() && depth < kMaxIncludeDepth)
          scan_file(included, parent_dir(included), checkout, depth + 1, hooks_path);
      }
      // Run from the top of the checkout.
      if (names_program(e))
        if (auto p = writable(resolve(program_path(e.value), checkout)); !p.empty())
          protect_.keep_or_watch(p, where_, kProgramWhy);
    }
  }

  const Disk& disk_;
  const GitUserEnv& user_;
  const WritableAreas& areas_;
  Protector& protect_;
  const SourceLoc& where_;
  std::set<std::string> read_;  // files read for the current repository
};

// The directory a pointer file names: a .git file ("gitdir: PATH") or a
// commondir ("PATH"), relative to base; "" when there is none.
std::string pointed_dir(const Disk& disk, const std::string& file, const std::string& base,
                        std::string_view prefix) {
  const auto text = disk.read_text(file, 4096);
  if (!text || !text->starts_with(prefix)) return {};
  std::string path = text->substr(prefix.size());
  while (!path.empty() && (path.back() == '\n' || path.back() == '\r' || path.back() == ' '))
    path.pop_back();
  if (path.empty()) return {};
  return normalize_path(path[0] == '/' ? path : base + "/" + path);
}

// A git directory the command could write (in the workspace, or another
// writable path) that a .git file or a commondir names: git takes config and
// hooks from there, so they are kept as .git's own are, and the directory is
// pinned (it cannot be renamed and replaced); one missing is watched.
void protect_named_git_dir(const std::string& named, const std::string& checkout,
                           const std::vector<std::pair<std::string, SourceLoc>>& leaves,
                           const WritableAreas& areas, const Disk& disk, Protector& protect,
                           ConfigScanner& scanner) {
  if (named.empty() || !areas.holds(named)) return;
  const SourceLoc& where = leaves.front().second;
  if (disk.kind(named) == FileKind::kMissing) {
    protect.watch(named, where, kNewRepositoryWhy);
    protect.watch_links(named, where);
    return;
  }
  if (disk.kind(named) != FileKind::kDirectory) return;
  for (const auto& [leaf, leaf_where] : leaves)
    protect.keep_or_watch(named + leaf, leaf_where, kNamedGitDirWhy);
  protect.pin(named, where);
  protect.watch_links(named, where);
  for (const char* redirect : kRedirects)
    protect.keep_or_watch(named + "/" + redirect, where, kRedirectWhy);
  scanner.scan_repository(named, checkout);
}

}  // namespace

std::vector<std::string> git_code_settings(const std::string& config) {
  std::vector<std::string> out;
  for (const auto& e : git_config_entries(config)) {
    const bool include = (e.section == "include" || e.section == "includeif") && e.key == "path";
    if (include || names_program(e) || (e.section == "core" && e.key == "hookspath"))
      out.push_back(e.section + "." + e.key + " = " + e.value);
  }
  return out;
}

bool looks_like_git_config(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.starts_with(".gitconfig")) return true;
  if (name != "config" && name != "config.worktree") return false;
  return path.find("/.git/") != std::string::npos;
}

GitUserEnv git_user_env(const std::string& home, const std::vector<std::string>& environ) {
  return {home, env_value(environ, "XDG_CONFIG_HOME"), env_value(environ, "GIT_CONFIG_GLOBAL"),
          env_value(environ, "GIT_CONFIG_SYSTEM")};
}

bool WritableAreas::holds(const std::string& p) const {
  if (p != workspace && path_is_within(p, workspace)) return true;
  for (const std::string& o : others)
    if (p != o && path_is_within(p, o)) return true;
  return false;
}

GitProtection protect_git_metadata(const std::vector<ExpandedPath>& read_only, const Disk& disk,
                                   const std::string& workspace, const GitUserEnv& user,
                                   const std::vector<std::string>& other_writable) {
  const WritableAreas areas{workspace, other_writable};
  // Each .git whose hooks or config the profile keeps read-only: which of
  // the two, and the profile line that asks.
  std::map<std::string, std::vector<std::pair<std::string, SourceLoc>>> kept;
  for (const ExpandedPath& p : read_only) {
    for (const std::string leaf : {"/hooks", "/config"}) {
      if (p.path.ends_with("/.git" + leaf))
        kept[p.path.substr(0, p.path.size() - leaf.size())].push_back({leaf, p.where});
    }
  }
  Protector protect(disk, areas);
  for (const auto& [git_dir, leaves] : kept) {
    const SourceLoc& where = leaves.front().second;
    // What the repository's config and the user's make git run from the
    // working tree: core.hooksPath (Husky's .husky/_, which git ignores, so
    // a planted hook would not even show in `git status`; relative to the
    // top of the working tree), and config files included from there
    // (include.path, includeIf; relative to the including file).
    const std::string top = git_dir.substr(0, git_dir.size() - 5);  // without "/.git"
    ConfigScanner scanner(disk, user, areas, protect, where);
    scanner.scan_repository(git_dir, top);
    // A hook that is a link into the working tree (.git/hooks/pre-commit ->
    // ../../tools/pre-commit) runs whatever the command writes there.
    for (const auto& [leaf, leaf_where] : leaves)
      if (leaf == "/hooks")
        for (const std::string& name : disk.list_dir(git_dir + "/hooks"))
          if (disk.kind(git_dir + "/hooks/" + name) == FileKind::kSymlink)
            protect.keep(git_dir + "/hooks/" + name, leaf_where);
    // The top of the working tree made into a repository itself (HEAD,
    // objects, refs and a config of the command's there; with .git spoiled,
    // git takes the directory for a bare repository and runs what that
    // config says). A project with a HEAD of its own at the top is left be.
    if (disk.kind(top + "/HEAD") == FileKind::kMissing)
      protect.watch(top + "/HEAD", where, kBareTopWhy);
    // Links git would write through, in a repository of any age; a .git
    // file is a file (where it points is handled below).
    if (disk.kind(git_dir) != FileKind::kFile) protect.watch_links(git_dir, where);
    // No repository yet: one made during the session, in any form (a .git
    // directory, or a .git file naming a git directory elsewhere in the
    // workspace, whose hooks nothing here protects), is reported.
    if (disk.kind(git_dir) == FileKind::kMissing) {
      protect.watch(git_dir, where, kNewRepositoryWhy);
      continue;
    }
    // A .git file (the workspace is a linked worktree or a submodule
    // checkout): rewritten, it would name another git directory.
    if (disk.kind(git_dir) == FileKind::kFile) {
      protect.keep(git_dir, where);
      protect_named_git_dir(pointed_dir(disk, git_dir, top, "gitdir: "), top, leaves, areas, disk,
                            protect, scanner);
      continue;
    }
    const std::vector<std::string> submodules = submodule_dirs_under(disk, git_dir);
    const std::vector<std::string> embedded = embedded_submodule_dirs(disk, top);
    for (const auto* found : {&submodules, &embedded})
      for (const std::string& sub : *found) {
        for (const auto& [leaf, leaf_where] : leaves)
          protect.keep_or_watch(sub + leaf, leaf_where, kSubmoduleLeafWhy);
        // Every directory from .git (or the top) down to it: modules,
        // modules/a, ..., or the checkout's.
        const std::string& from = found == &submodules ? git_dir : top;
        for (std::size_t at = from.size() + 1; at != std::string::npos;) {
          const std::size_t slash = sub.find('/', at);
          protect.pin(sub.substr(0, slash), where);
          at = slash == std::string::npos ? slash : slash + 1;
        }
      }
    for (const std::string& sub : embedded) {
      scanner.scan_repository(sub, parent_dir(sub));
      protect.watch_links(sub, where);
    }
    std::vector<std::string> dirs = {git_dir};
    dirs.insert(dirs.end(), submodules.begin(), submodules.end());
    dirs.insert(dirs.end(), embedded.begin(), embedded.end());
    for (const std::string& wt : worktree_dirs(disk, git_dir)) {
      dirs.push_back(wt);
      protect.pin(git_dir + "/worktrees", where);
      protect.pin(wt, where);
    }
    for (const std::string& dir : dirs) {
      for (const char* redirect : kRedirects)
        protect.keep_or_watch(dir + "/" + redirect, where, kRedirectWhy);
      for (const char* state : kSequencerDirs)
        protect.watch(dir + "/" + state, where, kSequencerWhy);
      // An existing commondir: where it points, git finds config and hooks.
      const std::string common = pointed_dir(disk, dir + "/commondir", dir, "");
      if (common != git_dir)
        protect_named_git_dir(common, top, leaves, areas, disk, protect, scanner);
    }
    // Each submodule's checkout holds a .git file naming its git directory.
    for (const std::string& sub : submodules) {
      const auto config = disk.read_text(sub + "/config", 64 * 1024);
      const std::string worktree = config ? git_config_core(*config, "worktree") : "";
      if (worktree.empty()) continue;
      const std::string checkout =
          normalize_path(worktree[0] == '/' ? worktree : sub + "/" + worktree);
      if (checkout == workspace || !path_is_within(checkout, workspace)) continue;
      // `git status` at the top runs git in each submodule, with its config.
      scanner.scan_repository(sub, checkout);
      const std::string pointer = checkout + "/.git";
      if (disk.kind(pointer) != FileKind::kFile) continue;
      // Read-only where it is; watched too, as the directory holding it can
      // still be renamed and another put in its place.
      protect.keep(pointer, where);
      protect.watch(pointer, where, kPointerWhy);
    }
  }
  return protect.take();
}

std::vector<std::string> index_gitlinks(const std::string& index) {
  std::vector<std::string> out;
  auto be32 = [&index](std::size_t at) {
    return (std::uint32_t{static_cast<unsigned char>(index[at])} << 24) |
           (std::uint32_t{static_cast<unsigned char>(index[at + 1])} << 16) |
           (std::uint32_t{static_cast<unsigned char>(index[at + 2])} << 8) |
           std::uint32_t{static_cast<unsigned char>(index[at + 3])};
  };
  if (index.size() < 12 || index.compare(0, 4, "DIRC") != 0) return out;
  const std::uint32_t version = be32(4), count = be32(8);
  if (version != 2 && version != 3) return out;
  // Each entry: 40 bytes of stat data (mode at 24), a 20-byte object id,
  // 2 bytes of flags (0x4000: 2 more in version 3), the NUL-ended path,
  // padded with NULs to a multiple of 8.
  std::size_t at = 12;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (at + 62 > index.size()) break;
    const std::uint32_t mode = be32(at + 24);
    const unsigned flags = (static_cast<unsigned char>(index[at + 60]) << 8) |
                           static_cast<unsigned char>(index[at + 61]);
    const std::size_t name_at = at + 62 + ((version == 3 && (flags & 0x4000)) ? 2 : 0);
    const std::size_t end = index.find('\0', name_at);
    if (end == std::string::npos) break;
    if ((mode & 0170000) == 0160000) out.push_back(index.substr(name_at, end - name_at));
    at += ((end + 1 - at) + 7) / 8 * 8;  // 1 to 8 NULs after the path
  }
  return out;
}

std::vector<std::string> submodule_git_dirs(const Disk& disk, const std::string& git_dir) {
  return submodule_dirs_under(disk, git_dir);
}

}  // namespace aj
