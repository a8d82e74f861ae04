#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "profile/toml_profile.h"

namespace aj {
namespace {

bool known_name(std::string_view name) {
  static const std::set<std::string_view> kNames = {
      "ptrace", "mount", "bpf",    "io_uring_setup", "userfaultfd",
      "read",   "write", "@mount", "@keyring",       "@debug"};
  return kNames.count(name) > 0;
}

std::vector<std::string> errors_of(std::string_view text) {
  std::vector<Diagnostic> diags;
  parse_profile_text(text, "p.toml", known_name, &diags);
  std::vector<std::string> out;
  for (const auto& d : diags) out.push_back(d.str());
  return out;
}

ProfileLayer parse_ok(std::string_view text) {
  std::vector<Diagnostic> diags;
  ProfileLayer layer = parse_profile_text(text, "p.toml", known_name, &diags);
  for (const auto& d : diags) FAIL_CHECK(d.str());
  return layer;
}

SourceLoc at(int line, int column) { return {"p.toml", line, column}; }

}  // namespace

TEST_CASE("every error class is reported at the exact file:line:col") {
  struct Row {
    const char* text;
    const char* error;
  };
  const Row rows[] = {
      // TOML syntax
      {"[filesystem\n",
       "p.toml:1:12: syntax error: Error while parsing table header: expected ']', saw '\\n'"},
      {"a = 1\na = 2\n",
       "p.toml:2:5: syntax error: Error while parsing key-value pair: cannot redefine existing "
       "integer 'a'"},
      // unknown sections and keys, with suggestions
      {"[filesytem]\n", "p.toml:1:2: unknown section [filesytem]; did you mean [filesystem]?"},
      {"[sandbox]\n",
       "p.toml:1:2: unknown section [sandbox]; valid sections are [profile], "
       "[filesystem], [network], [seccomp], [limits], [environment], [journal]"},
      {"[filesystem]\nread_olny = [\"/usr\"]\n",
       "p.toml:2:1: unknown key 'read_olny' in [filesystem]; did you mean 'read_only'?"},
      {"[network]\n  modes = \"none\"\n",
       "p.toml:2:3: unknown key 'modes' in [network]; did you mean 'mode'?"},
      {"[filesystem]\nmode = \"none\"\n",
       "p.toml:2:1: unknown key 'mode' in [filesystem]; 'mode' belongs in [network]"},
      {"[limits]\nstack = 5\n",
       "p.toml:2:1: unknown key 'stack' in [limits]; valid keys are memory, "
       "file_size, processes, open_files, cpu_time, wall_time"},
      {"[limits]\nreplace = [\"memory\"]\n",
       "p.toml:2:1: unknown key 'replace' in [limits]; valid keys "
       "are memory, file_size, processes, open_files, cpu_time, wall_time"},
      {"mode = \"none\"\n",
       "p.toml:1:1: unknown top-level key 'mode'; 'mode' belongs in [network]"},
      {"colour = 1\n",
       "p.toml:1:1: unknown top-level key 'colour'; settings belong in a section such as "
       "[filesystem]"},
      {"[filesystem]\nreplace = [\"read_olny\"]\n",
       "p.toml:2:12: unknown key 'read_olny' in 'replace'; did you mean 'read_only'?"},
      {"[network]\nreplace = [\"mode\"]\n",
       "p.toml:2:12: unknown key 'mode' in 'replace'; the lists of [network] are allow, "
       "tcp_connect, tcp_bind"},
      // wrong types
      {"filesystem = 1\n", "p.toml:1:14: expected a table for [filesystem], found an integer"},
      {"[filesystem]\nread_only = \"/usr\"\n",
       "p.toml:2:13: expected an array of strings for 'read_only', found a string"},
      {"[filesystem]\nread_only = [\"/usr\", 3]\n",
       "p.toml:2:22: expected a string in 'read_only', found an integer"},
      {"[profile]\ndescription = 5\n",
       "p.toml:2:15: expected a string for 'description', found an integer"},
      {"[profile]\nextends = 3\n",
       "p.toml:2:11: expected a string or an array of strings for 'extends', found an integer"},
      {"[network]\ndeny_private = \"yes\"\n",
       "p.toml:2:16: expected true or false for 'deny_private', found a string"},
      {"[journal]\nexec = 1\n", "p.toml:2:8: expected true or false for 'exec', found an integer"},
      {"[journal]\nmax_size = 0\n", "p.toml:2:12: 'max_size' must be greater than zero"},
      {"[journal]\nmax_size = \"lots\"\n",
       "p.toml:2:12: malformed size 'lots' for 'max_size'; expected bytes or a number with a K, M, "
       "G or T suffix, like \"8G\""},
      {"[limits]\nmemory = 1.5\n",
       "p.toml:2:10: expected a size like \"8G\" or a number of bytes for 'memory', found a "
       "floating-point number"},
      {"[limits]\nprocesses = \"10\"\n",
       "p.toml:2:13: expected a positive integer for 'processes', found a string"},
      {"[limits]\ncpu_time = true\n",
       "p.toml:2:12: expected a duration like \"2h\" or a number of seconds for 'cpu_time', found "
       "a boolean"},
      {"[environment]\nset = [\"A=1\"]\n",
       "p.toml:2:7: expected a table of strings for 'set', found an array"},
      {"[environment]\nset = { A = 1 }\n",
       "p.toml:2:13: expected a string for 'set.A', found an integer"},
      {"[network]\nmode = 1\n",
       "p.toml:2:8: expected a string for 'mode' (one of none, loopback, proxy, host), found an "
       "integer"},
      {"[network]\ntcp_bind = [\"http\"]\n",
       "p.toml:2:13: expected a port number (or \"!PORT\" to remove one) in 'tcp_bind', found a "
       "string"},
      // enums
      {"[network]\nmode = \"proxyy\"\n",
       "p.toml:2:8: unknown value 'proxyy' for 'mode'; expected one of none, loopback, proxy, "
       "host"},
      {"[filesystem]\nworkspace = \"copy\"\n",
       "p.toml:2:13: unknown value 'copy' for 'workspace'; expected one of bind, overlay, none"},
      {"[seccomp]\ndefault = \"permit\"\n",
       "p.toml:2:11: unknown value 'permit' for 'default'; expected one of allow, deny"},
      {"[seccomp]\naction = \"trap\"\n",
       "p.toml:2:10: unknown value 'trap' for 'action'; expected one of errno, kill, log"},
      {"[profile]\nrequire = [\"landlok\"]\n",
       "p.toml:2:12: unknown layer 'landlok'; did you mean 'landlock'?"},
      {"[profile]\nrequire = [\"apparmor\"]\n",
       "p.toml:2:12: unknown layer 'apparmor'; known layers are userns, landlock, landlock-net, "
       "landlock-scope, seccomp, cgroup, netns"},
      // sizes, durations, counts, ports, errno
      {"[limits]\nmemory = \"8Q\"\n",
       "p.toml:2:10: malformed size '8Q' for 'memory'; expected bytes or a number with a K, M, G "
       "or T suffix, like \"8G\""},
      {"[limits]\nmemory = 0\n", "p.toml:2:10: 'memory' must be greater than zero"},
      {"[limits]\nfile_size = -1\n", "p.toml:2:13: 'file_size' must not be negative"},
      {"[limits]\nwall_time = \"2hours\"\n",
       "p.toml:2:13: malformed duration '2hours' for 'wall_time'; expected seconds or a duration "
       "like \"90s\", \"2h\" or \"1h30m\""},
      {"[limits]\ncpu_time = 0\n", "p.toml:2:12: 'cpu_time' must be a positive duration"},
      {"[limits]\nprocesses = 0\n", "p.toml:2:13: 'processes' must be a positive integer, found 0"},
      {"[network]\ntcp_connect = [443, 70000]\n",
       "p.toml:2:21: port 70000 in 'tcp_connect' is out of range; ports are 1 to 65535"},
      {"[network]\ntcp_connect = [\"!0\"]\n",
       "p.toml:2:16: port 0 in 'tcp_connect' is out of range; ports are 1 to 65535"},
      {"[seccomp]\nerrno = 5000\n", "p.toml:2:9: 'errno' must be from 1 to 4095, found 5000"},
      {"[seccomp]\nerrno = \"EPREM\"\n",
       "p.toml:2:9: unknown errno name 'EPREM'; expected a number from 1 to 4095 or one of EPERM, "
       "ENOENT, "
       "EIO, EAGAIN, ENOMEM, EACCES, EFAULT, EBUSY, EEXIST, EINVAL, EROFS, ENOSYS, EOPNOTSUPP, "
       "ENOTSUP, "
       "EAFNOSUPPORT, ENETUNREACH, ECONNREFUSED"},
      // syscall names and groups
      {"[seccomp]\ndeny = [\"ptrace\", \"@mont\"]\n", "p.toml:2:19: unknown syscall group '@mont'"},
      {"[seccomp]\nallow = [\"read\", \"!ptrce\"]\n", "p.toml:2:18: unknown syscall 'ptrce'"},
      {"[seccomp]\ndeny = [\"\"]\n", "p.toml:2:9: empty syscall name"},
      // paths
      {"[filesystem]\nhide = [\".ssh\"]\n",
       "p.toml:2:9: relative path '.ssh'; paths must start with '/', '~/' or a variable such as "
       "${WORKSPACE}"},
      {"[filesystem]\nhide = [\"~/.ssh\", \"!.aws\"]\n",
       "p.toml:2:19: relative path '.aws'; paths must start with '/', '~/' or a variable such as "
       "${WORKSPACE}"},
      {"[filesystem]\ntmpfs = [\"\"]\n", "p.toml:2:10: empty path"},
      {"[filesystem]\nhide = [\"!\"]\n", "p.toml:2:9: empty removal '!' in 'hide'"},
      {"[filesystem]\nhide = [\"~bob/.ssh\"]\n",
       "p.toml:2:9: '~bob/.ssh': only '~' and '~/...' are supported, not '~user'"},
      {"[filesystem]\nread_write = [\"${SESSION}/x\"]\n",
       "p.toml:2:15: '${SESSION}/x' is not an absolute path: ${SESSION} is a session id, not a "
       "directory"},
      {"[journal]\npath = \"j.jsonl\"\n",
       "p.toml:2:8: relative path 'j.jsonl'; paths must start with '/', '~/' or a variable such as "
       "${WORKSPACE}"},
      // variables
      {"[filesystem]\nread_write = [\"${WORKSPAC}/x\"]\n",
       "p.toml:2:15: unknown variable '${WORKSPAC}'; known variables are ${HOME}, ${WORKSPACE}, "
       "${TMPDIR}, ${STATE}, ${SESSION}"},
      {"[filesystem]\nexec = [\"/opt/${HOME\"]\n",
       "p.toml:2:9: unterminated '${' in '/opt/${HOME'"},
      {"[journal]\npath = \"${STATE}/${SESION}.jsonl\"\n",
       "p.toml:2:8: unknown variable '${SESION}'; known variables are ${HOME}, ${WORKSPACE}, "
       "${TMPDIR}, ${STATE}, ${SESSION}"},
      // host patterns and environment names
      {"[network]\nallow = [\"bad host\"]\n",
       "p.toml:2:10: malformed host pattern 'bad host'; expected \"host\", \"*.suffix\" or "
       "\"host:port\""},
      {"[network]\nallow = [\"example.org:99999\"]\n",
       "p.toml:2:10: malformed host pattern 'example.org:99999': the port must be a number from 1 "
       "to 65535"},
      {"[network]\nallow = [\"*\"]\n",
       "p.toml:2:10: host pattern '*' allows every host; use mode = \"host\" instead"},
      {"[environment]\nkeep = [\"LC-*\"]\n",
       "p.toml:2:9: invalid environment name or glob 'LC-*' in 'keep'"},
      {"[environment]\npass = [\"AWS_*\"]\n",
       "p.toml:2:9: invalid environment variable name 'AWS_*' in 'pass'; pass takes exact names, "
       "not globs"},
      {"[environment]\nunset = [\"!A\"]\n",
       "p.toml:2:10: invalid environment variable name '!A' in 'unset'"},
      {"[environment]\nset = { 1A = \"x\" }\n",
       "p.toml:2:9: invalid environment variable name '1A' in 'set'"},
      {"[environment]\nset = { A = \"1\" }\nunset = [\"A\"]\n",
       "p.toml:3:10: 'A' is both set and unset in [environment]"},
      {"[profile]\nextends = [\"base\", \"my profile\"]\n",
       "p.toml:2:20: invalid profile name 'my profile' in 'extends'; a name is made of letters, "
       "digits, "
       "'.', '_' and '-' (or give a path)"},
  };
  for (const auto& r : rows) {
    CAPTURE(r.text);
    std::vector<std::string> errors = errors_of(r.text);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0] == r.error);
  }
}

TEST_CASE("all errors of a profile are reported together, in file order") {
  const char* text =
      "[seccomp]\n"
      "deny = [\"ptrce\"]\n"
      "[filesystem]\n"
      "read_olny = [\"/usr\"]\n"
      "hide = [\"relative\", \"~/.ssh\", \"${NOPE}\"]\n"
      "[limits]\n"
      "memory = \"lots\"\n"
      "[bogus]\n";
  std::vector<std::string> errors = errors_of(text);
  REQUIRE(errors.size() == 6);
  CHECK(errors[0].rfind("p.toml:2:9: unknown syscall 'ptrce'", 0) == 0);
  CHECK(errors[1].rfind("p.toml:4:1: unknown key 'read_olny'", 0) == 0);
  CHECK(errors[2].rfind("p.toml:5:9: relative path 'relative'", 0) == 0);
  CHECK(errors[3].rfind("p.toml:5:31: unknown variable '${NOPE}'", 0) == 0);
  CHECK(errors[4].rfind("p.toml:7:10: malformed size 'lots'", 0) == 0);
  CHECK(errors[5].rfind("p.toml:8:2: unknown section [bogus]", 0) == 0);
}

TEST_CASE("a valid profile fills every field of the layer with its location") {
  const char* text = R"([profile]
extends = ["base", "./team.toml"]
description = "test profile"
require = ["userns", "!seccomp"]
replace = ["require"]

[filesystem]
workspace = "overlay"
read_only = ["/usr", "~/.gitconfig", "${HOME}/.config/git"]
read_write = ["${WORKSPACE}", "${TMPDIR}/cache"]
exec = ["/usr/bin", "${WORKSPACE}/node_modules/.bin"]
hide = ["~/.ssh", "!~/.aws"]
tmpfs = ["/tmp", "~"]
optional = ["/opt/homebrew"]
replace = ["hide", "tmpfs"]

[network]
mode = "proxy"
allow = ["API.Anthropic.com", "*.githubusercontent.com", "packages.example.org:443", "!evil.example"]
deny_private = false
tcp_connect = [443, "!22"]
tcp_bind = [8080]

[seccomp]
default = "deny"
allow = ["read", "write"]
deny = ["@mount", "!ptrace"]
action = "kill"
errno = "EACCES"

[limits]
memory = "8G"
file_size = 4096
processes = 1024
open_files = 4096
cpu_time = "1h30m"
wall_time = 90

[environment]
keep = ["PATH", "LC_*", "!TERM"]
pass = ["ANTHROPIC_API_KEY"]
set = { EDITOR = "true", PAGER = "cat" }
unset = ["VISUAL"]
replace = ["keep"]

[journal]
path = "${STATE}/sessions/${SESSION}.jsonl"
exec = true
denied = false
network = true
required = true
trace = false
max_size = "64M"
)";
  ProfileLayer l = parse_ok(text);
  CHECK(l.file == "p.toml");
  REQUIRE(l.extends.size() == 2);
  CHECK(l.extends[1] == Item<std::string>{"./team.toml", at(2, 20)});
  CHECK(l.description->value == "test profile");
  CHECK(l.require.reset);
  CHECK(l.require.add == std::vector<Item<std::string>>{{"userns", at(4, 12)}});
  CHECK(l.require.remove == std::vector<Item<std::string>>{{"seccomp", at(4, 22)}});

  const auto& fs = l.filesystem;
  CHECK(fs.workspace == Item<WorkspaceMode>{WorkspaceMode::kOverlay, at(8, 13)});
  CHECK(fs.read_only.add.size() == 3);
  CHECK(fs.read_only.add[1] == Item<std::string>{"~/.gitconfig", at(9, 22)});
  CHECK_FALSE(fs.read_only.reset);
  CHECK(fs.read_write.add.size() == 2);
  CHECK(fs.exec.add.size() == 2);
  CHECK(fs.hide.add == std::vector<Item<std::string>>{{"~/.ssh", at(12, 9)}});
  CHECK(fs.hide.remove == std::vector<Item<std::string>>{{"~/.aws", at(12, 19)}});
  CHECK(fs.hide.reset);
  CHECK(fs.tmpfs.reset);
  CHECK(fs.optional.add.size() == 1);

  const auto& net = l.network;
  CHECK(net.mode->value == NetMode::kProxy);
  REQUIRE(net.allow.add.size() == 3);
  CHECK(net.allow.add[0].value == "api.anthropic.com");
  CHECK(net.allow.remove[0].value == "evil.example");
  CHECK(net.deny_private == Item<bool>{false, at(20, 16)});
  CHECK(net.tcp_connect.add == std::vector<Item<std::uint16_t>>{{443, at(21, 16)}});
  CHECK(net.tcp_connect.remove == std::vector<Item<std::uint16_t>>{{22, at(21, 21)}});
  CHECK(net.tcp_bind.add.size() == 1);

  const auto& sc = l.seccomp;
  CHECK(sc.default_action->value == SeccompDefault::kDeny);
  CHECK(sc.allow.add.size() == 2);
  CHECK(sc.deny.add[0].value == "@mount");
  CHECK(sc.deny.remove[0].value == "ptrace");
  CHECK(sc.action->value == SeccompAction::kKill);
  CHECK(sc.errno_value == Item<int>{13, at(29, 9)});

  const auto& lim = l.limits;
  CHECK(lim.memory->value == (8ULL << 30));
  CHECK(lim.file_size->value == 4096);
  CHECK(lim.processes->value == 1024);
  CHECK(lim.open_files->value == 4096);
  CHECK(lim.cpu_time_ms->value == 5400000);
  CHECK(lim.wall_time_ms == Item<std::uint64_t>{90000, at(37, 13)});

  const auto& env = l.environment;
  CHECK(env.keep.reset);
  CHECK(env.keep.add.size() == 2);
  CHECK(env.keep.remove[0].value == "TERM");
  CHECK(env.pass.add[0].value == "ANTHROPIC_API_KEY");
  REQUIRE(env.set.size() == 2);
  CHECK(env.set[0].first == "EDITOR");
  CHECK(env.set[0].second == Item<std::string>{"true", at(42, 18)});
  CHECK(env.unset[0].value == "VISUAL");

  const auto& j = l.journal;
  CHECK(j.path->value == "${STATE}/sessions/${SESSION}.jsonl");
  CHECK(j.exec->value);
  CHECK_FALSE(j.denied->value);
  CHECK(j.required->value);
  CHECK(j.max_size == Item<std::uint64_t>{64ULL << 20, at(53, 12)});
}

TEST_CASE("extends accepts a single string and errno accepts a number") {
  ProfileLayer l = parse_ok("[profile]\nextends = \"base\"\n[seccomp]\nerrno = 38\n");
  REQUIRE(l.extends.size() == 1);
  CHECK(l.extends[0] == Item<std::string>{"base", at(2, 11)});
  CHECK(l.seccomp.errno_value->value == 38);
}

TEST_CASE("an empty profile is valid and sets nothing") {
  ProfileLayer l = parse_ok("# nothing\n");
  CHECK(l.extends.empty());
  CHECK_FALSE(l.filesystem.workspace.has_value());
  CHECK(l.filesystem.read_only.add.empty());
  CHECK_FALSE(l.network.mode.has_value());
}

TEST_CASE("without a name validator every syscall name is accepted") {
  std::vector<Diagnostic> diags;
  ProfileLayer l = parse_profile_text("[seccomp]\ndeny = [\"anything\"]\n", "p.toml", {}, &diags);
  CHECK(diags.empty());
  CHECK(l.seccomp.deny.add.size() == 1);
}

TEST_CASE("an unreadable profile file is one diagnostic naming the file") {
  std::vector<Diagnostic> diags;
  parse_profile_file("/nonexistent/agentjail/x.toml", known_name, &diags);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].str() ==
        "/nonexistent/agentjail/x.toml: cannot read profile: No such file or directory");
  diags.clear();
  parse_profile_file("/", known_name, &diags);
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].str() == "/: cannot read profile: Is a directory");
}

TEST_CASE("the schema lists every section key and replace only where lists exist") {
  std::vector<std::string> keys = profile_schema_keys();
  auto has = [&](const char* k) { return std::find(keys.begin(), keys.end(), k) != keys.end(); };
  CHECK(has("profile.extends"));
  CHECK(has("filesystem.read_only"));
  CHECK(has("filesystem.replace"));
  CHECK(has("network.tcp_bind"));
  CHECK(has("seccomp.errno"));
  CHECK(has("limits.wall_time"));
  CHECK(has("environment.unset"));
  CHECK(has("journal.trace"));
  CHECK(has("journal.max_size"));
  CHECK_FALSE(has("limits.replace"));
  CHECK_FALSE(has("journal.replace"));
  CHECK(keys.size() == 42);
}

}  // namespace aj
