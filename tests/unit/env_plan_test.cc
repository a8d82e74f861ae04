#include "plan/env_plan.h"

#include <doctest/doctest.h>

#include <algorithm>

namespace aj {
namespace {

StringList list(std::initializer_list<const char*> names) {
  StringList out;
  for (const char* n : names) out.push_back({n, {"test.toml", 1, 1}});
  return out;
}

bool has(const EnvPlan& p, std::string_view entry) {
  return std::find(p.entries.begin(), p.entries.end(), entry) != p.entries.end();
}

bool has_name(const EnvPlan& p, std::string_view name) {
  return std::any_of(p.entries.begin(), p.entries.end(), [&](const std::string& e) {
    return e.size() > name.size() && e.compare(0, name.size(), name) == 0 && e[name.size()] == '=';
  });
}

}  // namespace

TEST_CASE("env globs match whole names with * and ?") {
  struct Row {
    const char* glob;
    const char* name;
    bool match;
  };
  const Row rows[] = {
      {"PATH", "PATH", true},
      {"PATH", "PATHX", false},
      {"PATH", "XPATH", false},
      {"LC_*", "LC_ALL", true},
      {"LC_*", "LC_", true},
      {"LC_*", "LANG", false},
      {"*", "", true},
      {"", "", true},
      {"", "A", false},
      {"?", "A", true},
      {"?", "", false},
      {"?", "AB", false},
      {"A*B*C", "AxxBxxC", true},
      {"A*B*C", "AxxBxx", false},
      {"*_KEY", "MY_KEY", true},
      {"*_KEY", "MY_KEYS", false},
      {"*a*a*a", "aaaa", true},
      {"*a*a*a", "aa", false},
      {"lc_*", "LC_ALL", false},
      {"**", "x", true},
      {"X?Z", "XYZ", true},
  };
  for (const Row& r : rows) {
    CAPTURE(r.glob);
    CAPTURE(r.name);
    CHECK(env_glob_match(r.glob, r.name) == r.match);
  }
}

TEST_CASE("secret-looking names are recognised case-insensitively") {
  const char* secret[] = {
      "GITHUB_TOKEN",
      "github_token",
      "MY_SECRET_THING",
      "DB_PASSWORD",
      "MYSQL_PWD_PASSWD",
      "OPENAI_KEY",
      "SOME_KEY_ID",
      "STRIPE_APIKEY",
      "ANTHROPIC_API_KEY",
      "X_CREDENTIALS",
      "PRIVATE_DATA",
      "XDG_SESSION_ID",
      "HTTP_AUTHORIZATION",
      "XAUTHORITY",
      "BROWSER_COOKIE",
      "AWS_REGION",
      "GH_HOST",
      "GITLAB_URL",
      "AZURE_TENANT",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "HF_PAT",
      "NPM_TOKEN",
      "SSH_AUTH_SOCK",
      "DBUS_SESSION_BUS_ADDRESS",
      "S3_ACCESS_KEY_ID",
      "GPG_PASSPHRASE",
      "Aws_Secret_Access_Key",
  };
  for (const char* name : secret) {
    CAPTURE(name);
    CHECK(env_name_looks_secret(name));
  }
  const char* plain[] = {
      "PATH",
      "HOME",
      "TERM",
      "LANG",
      "LC_ALL",
      "EDITOR",
      "KEYBOARD",
      "MONKEY",
      "AGENTJAIL_SESSION",
      "agentjail_session",
      "GIT_AUTHOR_NAME",
      "GIT_AUTHOR_EMAIL",
      "SHELL",
      "USER",
      "PWD",
      "COLORTERM",
      "PATH_KEYS",
  };
  for (const char* name : plain) {
    CAPTURE(name);
    CHECK_FALSE(env_name_looks_secret(name));
  }
}

TEST_CASE("the environment is rebuilt from keep, pass and set, sorted by name") {
  EnvironmentPolicy p;
  p.keep = list({"PATH", "LC_*", "TERM", "GITHUB_*", "MISSING"});
  p.pass = list({"ANTHROPIC_API_KEY", "ABSENT_TOKEN"});
  p.set["EDITOR"] = {"true", {}};
  p.set["TERM"] = {"dumb", {}};
  const std::vector<std::string> host = {
      "PATH=/usr/bin:/bin",
      "HOME=/root",
      "LC_ALL=C.UTF-8",
      "LC_TIME=en_GB",
      "TERM=xterm",
      "GITHUB_TOKEN=ghp_x",
      "GITHUB_ACTIONS=true",
      "ANTHROPIC_API_KEY=sk-1",
      "AWS_SECRET_ACCESS_KEY=abc",
      "noequals",
      "=empty",
      "PATH=/second/ignored",
  };
  const EnvPlan plan = build_env(p, host, "s123", {{"HOME", "/home/agent"}});
  const std::vector<std::string> expected = {
      "AGENTJAIL=1",   "AGENTJAIL_SESSION=s123", "ANTHROPIC_API_KEY=sk-1",
      "EDITOR=true",   "HOME=/home/agent",       "LC_ALL=C.UTF-8",
      "LC_TIME=en_GB", "PATH=/usr/bin:/bin",     "TERM=dumb",
  };
  CHECK(plan.entries == expected);
  // GITHUB_* matched keep but looks secret; AWS_* matched nothing: not reported.
  CHECK(plan.dropped_secret_names == std::vector<std::string>{"GITHUB_ACTIONS", "GITHUB_TOKEN"});
}

TEST_CASE("a secret-looking name kept by its exact name is still dropped unless passed") {
  EnvironmentPolicy p;
  p.keep = list({"OPENAI_API_KEY"});
  const std::vector<std::string> host = {"OPENAI_API_KEY=sk-secret"};
  EnvPlan plan = build_env(p, host, "s", {});
  CHECK_FALSE(has_name(plan, "OPENAI_API_KEY"));
  CHECK(plan.dropped_secret_names == std::vector<std::string>{"OPENAI_API_KEY"});

  p.pass = list({"OPENAI_API_KEY"});
  plan = build_env(p, host, "s", {});
  CHECK(has(plan, "OPENAI_API_KEY=sk-secret"));
  CHECK(plan.dropped_secret_names.empty());
}

TEST_CASE("pass copies by exact name only, never by glob") {
  EnvironmentPolicy p;
  p.pass = list({"AWS_*"});
  const EnvPlan plan = build_env(p, {"AWS_SECRET_ACCESS_KEY=x", "AWS_*=literal"}, "s", {});
  CHECK_FALSE(has_name(plan, "AWS_SECRET_ACCESS_KEY"));
  CHECK(has(plan, "AWS_*=literal"));
}

TEST_CASE("dropped names are reported without their values") {
  EnvironmentPolicy p;
  p.keep = list({"*"});
  const EnvPlan plan = build_env(p, {"MY_TOKEN=hunter2", "PLAIN=ok"}, "s", {});
  for (const auto& n : plan.dropped_secret_names) CHECK(n.find("hunter2") == std::string::npos);
  CHECK(plan.dropped_secret_names == std::vector<std::string>{"MY_TOKEN"});
  for (const auto& e : plan.entries) CHECK(e.find("hunter2") == std::string::npos);
}

TEST_CASE("the agentjail markers always win, over the host, set and forced") {
  EnvironmentPolicy p;
  p.keep = list({"AGENTJAIL*"});
  p.set["AGENTJAIL"] = {"0", {}};
  const EnvPlan plan = build_env(p, {"AGENTJAIL_SESSION=outer", "AGENTJAIL=7"}, "inner",
                                 {{"AGENTJAIL_SESSION", "forced"}});
  CHECK(has(plan, "AGENTJAIL=1"));
  CHECK(has(plan, "AGENTJAIL_SESSION=inner"));
  CHECK(plan.entries.size() == 2);
  CHECK(plan.dropped_secret_names.empty());
}

TEST_CASE("forced entries from the plan override set and the host") {
  EnvironmentPolicy p;
  p.keep = list({"HOME", "TMPDIR"});
  p.set["TMPDIR"] = {"/profile/tmp", {}};
  const EnvPlan plan = build_env(p, {"HOME=/root", "TMPDIR=/host/tmp"}, "s", {{"TMPDIR", "/tmp"}});
  CHECK(has(plan, "HOME=/root"));
  CHECK(has(plan, "TMPDIR=/tmp"));
}

TEST_CASE("an empty policy leaves only the agentjail markers") {
  const EnvPlan plan = build_env({}, {"PATH=/bin", "HOME=/root"}, "abc", {});
  CHECK(plan.entries == std::vector<std::string>{"AGENTJAIL=1", "AGENTJAIL_SESSION=abc"});
}

TEST_CASE("env_value finds a variable by its whole name") {
  const std::vector<std::string> env = {"PATHX=/no", "PATH=/usr/bin:/bin", "EMPTY=", "HOME=/h"};
  CHECK(env_value(env, "PATH") == "/usr/bin:/bin");
  CHECK(env_value(env, "HOME") == "/h");
  CHECK(env_value(env, "EMPTY").empty());
  CHECK(env_value(env, "PAT").empty());
  CHECK(env_value(env, "TERM").empty());
}

}  // namespace aj
