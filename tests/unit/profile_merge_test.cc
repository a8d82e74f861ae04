#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "profile/merge.h"

namespace aj {
namespace {

SourceLoc at(const char* file, int line) { return {file, line, 1}; }

Item<std::string> s(const char* v, const char* file, int line = 1) { return {v, at(file, line)}; }

ListEdit<std::string> adds(std::initializer_list<const char*> values, const char* file) {
  ListEdit<std::string> e;
  int line = 1;
  for (const char* v : values) e.add.push_back(s(v, file, line++));
  return e;
}

std::vector<std::string> values(const StringList& list) {
  std::vector<std::string> out;
  for (const auto& i : list) out.push_back(i.value);
  return out;
}

ProfileLayer layer(const char* file) {
  ProfileLayer l;
  l.file = file;
  return l;
}

}  // namespace

TEST_CASE("list edits: append, de-duplicate, remove and reset") {
  struct Row {
    const char* name;
    ListEdit<std::string> parent;
    ListEdit<std::string> child;
    std::vector<std::string> merged;
  };
  auto child_edit = [](std::initializer_list<const char*> add,
                       std::initializer_list<const char*> remove, bool reset) {
    ListEdit<std::string> e = adds(add, "child.toml");
    for (const char* r : remove) e.remove.push_back(s(r, "child.toml"));
    e.reset = reset;
    return e;
  };
  const Row rows[] = {
      {"append", adds({"/a", "/b"}, "p"), child_edit({"/c"}, {}, false), {"/a", "/b", "/c"}},
      {"dedupe keeps first",
       adds({"/a", "/b"}, "p"),
       child_edit({"/b", "/c", "/c"}, {}, false),
       {"/a", "/b", "/c"}},
      {"remove inherited", adds({"/a", "/b"}, "p"), child_edit({}, {"/a"}, false), {"/b"}},
      {"remove absent changes nothing", adds({"/a"}, "p"), child_edit({}, {"/zzz"}, false), {"/a"}},
      {"removal is exact",
       adds({"~/.ssh"}, "p"),
       child_edit({}, {"${HOME}/.ssh"}, false),
       {"~/.ssh"}},
      {"reset then add", adds({"/a", "/b"}, "p"), child_edit({"/c"}, {}, true), {"/c"}},
      {"reset to empty", adds({"/a"}, "p"), child_edit({}, {}, true), {}},
      {"remove then re-add moves to end",
       adds({"/a", "/b"}, "p"),
       child_edit({"/a"}, {"/a"}, false),
       {"/b", "/a"}},
  };
  for (const auto& r : rows) {
    CAPTURE(r.name);
    ProfileLayer parent = layer("p");
    parent.filesystem.read_only = r.parent;
    ProfileLayer child = layer("child.toml");
    child.filesystem.read_only = r.child;
    Policy p = merge_layers({parent, child});
    CHECK(values(p.filesystem.read_only) == r.merged);
  }
}

TEST_CASE("a removal that matches no inherited entry is an error, with a hint at a near spelling") {
  struct Row {
    const char* name;
    std::vector<const char*> inherited;
    const char* removal;
    std::string error;  // empty: none
  };
  const std::string none = " removes nothing: no inherited entry is written ";
  const Row rows[] = {
      {"match", {"/a"}, "/a", ""},
      {"absent",
       {"/a"},
       "/zzz",
       "c.toml:7:1: '!/zzz' in filesystem.read_write" + none +
           "'/zzz' (entries are compared as written)"},
      {"tilde for ${HOME}",
       {"${HOME}/.cache"},
       "~/.cache",
       "c.toml:7:1: '!~/.cache' in filesystem.read_write" + none +
           "'~/.cache' (entries are compared as written); did you mean '!${HOME}/.cache' (p:1:1)?"},
      {"trailing slash",
       {"/srv/data"},
       "/srv//data/",
       "c.toml:7:1: '!/srv//data/' in filesystem.read_write" + none +
           "'/srv//data/' (entries are compared as written); did you mean '!/srv/data' (p:1:1)?"},
  };
  for (const auto& r : rows) {
    CAPTURE(r.name);
    ProfileLayer parent = layer("p");
    for (const char* v : r.inherited) parent.filesystem.read_write.add.push_back(s(v, "p"));
    ProfileLayer child = layer("c.toml");
    child.filesystem.read_write.remove.push_back(s(r.removal, "c.toml", 7));
    std::vector<Diagnostic> unmatched;
    Policy p = merge_layers({parent, child}, &unmatched);
    if (r.error.empty()) {
      CHECK(unmatched.empty());
      CHECK(p.filesystem.read_write.empty());
    } else {
      REQUIRE(unmatched.size() == 1);
      CHECK(unmatched[0].str() == r.error);
      CHECK(p.filesystem.read_write.size() == r.inherited.size());  // the grant is still there
    }
  }
}

TEST_CASE("unmatched removals are found in every list, ports included") {
  ProfileLayer child = layer("c.toml");
  child.require.remove.push_back(s("landlock", "c.toml", 1));
  child.filesystem.hide.remove.push_back(s("/h", "c.toml", 2));
  child.network.tcp_bind.remove.push_back({8080, at("c.toml", 3)});
  child.seccomp.deny.remove.push_back(s("@mount", "c.toml", 4));
  child.environment.pass.remove.push_back(s("TOKEN", "c.toml", 5));
  std::vector<Diagnostic> unmatched;
  merge_layers({layer("p"), child}, &unmatched);
  REQUIRE(unmatched.size() == 5);
  CHECK(unmatched[0].message.starts_with("'!landlock' in profile.require removes nothing"));
  CHECK(unmatched[1].message.starts_with("'!/h' in filesystem.hide removes nothing"));
  CHECK(unmatched[2].message.starts_with("'!8080' in network.tcp_bind removes nothing"));
  CHECK(unmatched[3].message.starts_with("'!@mount' in seccomp.deny removes nothing"));
  CHECK(unmatched[4].message.starts_with("'!TOKEN' in environment.pass removes nothing"));
}

TEST_CASE("a duplicated entry keeps the location of its first occurrence") {
  ProfileLayer a = layer("a.toml");
  a.filesystem.hide = adds({"~/.ssh"}, "a.toml");
  ProfileLayer b = layer("b.toml");
  b.filesystem.hide = adds({"~/.aws", "~/.ssh"}, "b.toml");
  Policy p = merge_layers({a, b});
  REQUIRE(p.filesystem.hide.size() == 2);
  CHECK(p.filesystem.hide[0].where == at("a.toml", 1));
  CHECK(p.filesystem.hide[1].where == at("b.toml", 1));
}

TEST_CASE("a later layer overrides scalars and keeps earlier ones it does not set") {
  ProfileLayer a = layer("a.toml");
  a.description = s("base", "a.toml");
  a.network.mode = Item<NetMode>{NetMode::kLoopback, at("a.toml", 3)};
  a.limits.memory = Item<std::uint64_t>{100, at("a.toml", 4)};
  a.limits.processes = Item<std::uint64_t>{10, at("a.toml", 5)};
  a.journal.exec = Item<bool>{true, at("a.toml", 6)};
  a.journal.max_size = Item<std::uint64_t>{1000, at("a.toml", 8)};
  a.seccomp.action = Item<SeccompAction>{SeccompAction::kLog, at("a.toml", 7)};
  ProfileLayer b = layer("b.toml");
  b.network.mode = Item<NetMode>{NetMode::kProxy, at("b.toml", 2)};
  b.network.deny_private = Item<bool>{false, at("b.toml", 3)};
  b.limits.memory = Item<std::uint64_t>{200, at("b.toml", 4)};
  b.journal.max_size = Item<std::uint64_t>{2000, at("b.toml", 6)};
  b.filesystem.workspace = Item<WorkspaceMode>{WorkspaceMode::kNone, at("b.toml", 5)};
  Policy p = merge_layers({a, b});
  CHECK(p.description == "base");
  CHECK(p.network.mode == Item<NetMode>{NetMode::kProxy, at("b.toml", 2)});
  CHECK(p.network.deny_private == Item<bool>{false, at("b.toml", 3)});
  CHECK(p.limits.memory == Item<std::uint64_t>{200, at("b.toml", 4)});
  CHECK(p.limits.processes == Item<std::uint64_t>{10, at("a.toml", 5)});
  CHECK(p.journal.exec->value);
  CHECK(p.journal.max_size == Item<std::uint64_t>{2000, at("b.toml", 6)});
  CHECK(p.seccomp.action->value == SeccompAction::kLog);
  CHECK(p.filesystem.workspace.value == WorkspaceMode::kNone);
  CHECK_FALSE(p.limits.wall_time_ms.has_value());
  CHECK(p.chain == std::vector<std::string>{"a.toml", "b.toml"});
}

TEST_CASE("merging nothing gives the Policy defaults") {
  Policy p = merge_layers({});
  CHECK(p.chain.empty());
  CHECK(p.filesystem.workspace.value == WorkspaceMode::kBind);
  CHECK(p.network.mode.value == NetMode::kNone);
  CHECK(p.network.deny_private.value);
  CHECK_FALSE(p.seccomp.default_action.has_value());
}

TEST_CASE("every list of the schema follows the list rules") {
  ProfileLayer a = layer("a.toml");
  ProfileLayer b = layer("b.toml");
  std::vector<ListEdit<std::string>*> a_lists = {
      &a.require,         &a.filesystem.read_only, &a.filesystem.read_write, &a.filesystem.exec,
      &a.filesystem.hide, &a.filesystem.tmpfs,     &a.filesystem.optional,   &a.network.allow,
      &a.seccomp.deny,    &a.seccomp.allow,        &a.environment.keep,      &a.environment.pass};
  std::vector<ListEdit<std::string>*> b_lists = {
      &b.require,         &b.filesystem.read_only, &b.filesystem.read_write, &b.filesystem.exec,
      &b.filesystem.hide, &b.filesystem.tmpfs,     &b.filesystem.optional,   &b.network.allow,
      &b.seccomp.deny,    &b.seccomp.allow,        &b.environment.keep,      &b.environment.pass};
  for (size_t i = 0; i < a_lists.size(); ++i) {
    *a_lists[i] = adds({"x", "y"}, "a.toml");
    *b_lists[i] = adds({"z"}, "b.toml");
    b_lists[i]->remove.push_back(s("x", "b.toml"));
  }
  Policy p = merge_layers({a, b});
  const std::vector<const StringList*> merged = {
      &p.require,         &p.filesystem.read_only, &p.filesystem.read_write, &p.filesystem.exec,
      &p.filesystem.hide, &p.filesystem.tmpfs,     &p.filesystem.optional,   &p.network.allow,
      &p.seccomp.deny,    &p.seccomp.allow,        &p.environment.keep,      &p.environment.pass};
  for (size_t i = 0; i < merged.size(); ++i) {
    CAPTURE(i);
    CHECK(values(*merged[i]) == std::vector<std::string>{"y", "z"});
  }
}

TEST_CASE("port lists append, remove and reset like string lists") {
  ProfileLayer a = layer("a.toml");
  a.network.tcp_connect.add = {{443, {}}, {22, {}}};
  a.network.tcp_bind.add = {{8080, {}}};
  ProfileLayer b = layer("b.toml");
  b.network.tcp_connect.remove = {{22, {}}};
  b.network.tcp_connect.add = {{443, {}}, {80, {}}};
  b.network.tcp_bind.reset = true;
  Policy p = merge_layers({a, b});
  REQUIRE(p.network.tcp_connect.size() == 2);
  CHECK(p.network.tcp_connect[0].value == 443);
  CHECK(p.network.tcp_connect[1].value == 80);
  CHECK(p.network.tcp_bind.empty());
}

TEST_CASE("environment set overrides per name and unset removes inherited names") {
  ProfileLayer a = layer("a.toml");
  a.environment.set = {
      {"EDITOR", s("vi", "a.toml")}, {"PAGER", s("less", "a.toml")}, {"LANG", s("C", "a.toml")}};
  ProfileLayer b = layer("b.toml");
  b.environment.set = {{"EDITOR", s("true", "b.toml")}};
  b.environment.unset = {s("PAGER", "b.toml"), s("NEVER_SET", "b.toml")};
  ProfileLayer c = layer("c.toml");
  c.environment.set = {{"PAGER", s("cat", "c.toml")}};
  Policy p = merge_layers({a, b});
  REQUIRE(p.environment.set.size() == 2);
  CHECK(p.environment.set.at("EDITOR") == s("true", "b.toml"));
  CHECK(p.environment.set.at("LANG").value == "C");
  CHECK(p.environment.set.count("PAGER") == 0);
  Policy p2 = merge_layers({a, b, c});
  CHECK(p2.environment.set.at("PAGER") == s("cat", "c.toml"));
}

TEST_CASE("the command line layer is applied last") {
  ProfileLayer profile = layer("default.toml");
  profile.network.mode = Item<NetMode>{NetMode::kNone, at("default.toml", 2)};
  profile.filesystem.read_only = adds({"/usr"}, "default.toml");
  ProfileLayer cli = layer("command line");
  cli.network.mode = Item<NetMode>{NetMode::kHost, {"command line", 0, 0}};
  cli.filesystem.read_only = adds({"/data"}, "command line");
  Policy p = merge_layers({profile, cli});
  CHECK(p.network.mode.value == NetMode::kHost);
  CHECK(p.network.mode.where.str() == "command line");
  CHECK(values(p.filesystem.read_only) == std::vector<std::string>{"/usr", "/data"});
  CHECK(p.chain.back() == "command line");
}

}  // namespace aj
