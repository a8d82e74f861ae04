#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "profile/loader.h"

namespace aj {
namespace {

const std::string kFixtures = std::string(AJ_SOURCE_DIR) + "/tests/unit/fixtures/profiles";

std::vector<SearchDir> dirs(std::initializer_list<const char*> subdirs) {
  std::vector<SearchDir> out;
  for (const char* d : subdirs) out.push_back({kFixtures + "/" + d, d});
  return out;
}

std::vector<std::string> values(const StringList& list) {
  std::vector<std::string> out;
  for (const auto& i : list) out.push_back(i.value);
  return out;
}

std::vector<std::string> base_names(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths) out.push_back(std::filesystem::path(p).filename().string());
  return out;
}

const NameValidator kAnyName = {};

}  // namespace

TEST_CASE("extends merges parents depth-first, in list order, each file once") {
  LoadResult r = load_policy("leaf", dirs({"chain"}), {}, kAnyName);
  for (const auto& d : r.diagnostics) FAIL_CHECK(d.str());
  REQUIRE(r.policy.has_value());
  const Policy& p = *r.policy;
  CHECK(base_names(p.chain) ==
        std::vector<std::string>{"base.toml", "mid.toml", "extra.toml", "leaf.toml"});
  CHECK(values(p.filesystem.read_only) == std::vector<std::string>{"/usr", "/etc", "/opt", "/srv"});
  // mid removed ~/.aws; extra reaches base again, which is not merged a second time.
  CHECK(values(p.filesystem.hide) == std::vector<std::string>{"~/.ssh"});
  CHECK(p.limits.memory->value == (2ULL << 30));
  CHECK(p.limits.memory->where == SourceLoc{kFixtures + "/chain/mid.toml", 9, 10});
  CHECK(p.description == "leaf of a diamond");
}

TEST_CASE("an extends path is relative to the extending file") {
  LoadResult r = load_policy(kFixtures + "/chain/sub/relative.toml", {}, {}, kAnyName);
  for (const auto& d : r.diagnostics) FAIL_CHECK(d.str());
  REQUIRE(r.policy.has_value());
  CHECK(base_names(r.policy->chain) == std::vector<std::string>{"base.toml", "relative.toml"});
  CHECK(r.policy->network.mode.value == NetMode::kLoopback);
}

TEST_CASE("extra layers such as the command line are merged last") {
  ProfileLayer cli;
  cli.file = "command line";
  cli.filesystem.read_only.add.push_back({"/data", {"command line", 0, 0}});
  cli.limits.memory = Item<std::uint64_t>{5, {"command line", 0, 0}};
  LoadResult r = load_policy("mid", dirs({"chain"}), {cli}, kAnyName);
  REQUIRE(r.policy.has_value());
  CHECK(values(r.policy->filesystem.read_only) ==
        std::vector<std::string>{"/usr", "/etc", "/data"});
  CHECK(r.policy->limits.memory->value == 5);
  CHECK(r.policy->chain.back() == "command line");
}

TEST_CASE("cycles and missing parents are reported at the extends entry") {
  struct Row {
    const char* profile;
    std::vector<SearchDir> search;
    std::string diagnostic;
  };
  const Row rows[] = {
      {"a", dirs({"cycle"}),
       kFixtures + "/cycle/b.toml:2:11: extends cycle: a.toml -> b.toml -> a.toml"},
      {"b", dirs({"cycle"}),
       kFixtures + "/cycle/a.toml:2:11: extends cycle: b.toml -> a.toml -> b.toml"},
      {"self", dirs({"cycle"}),
       kFixtures + "/cycle/self.toml:2:12: extends cycle: self.toml -> self.toml"},
      {"child", dirs({"missing"}),
       kFixtures +
           "/missing/child.toml:2:12: cannot extend 'nonexistent': profile 'nonexistent' "
           "not found in " +
           kFixtures + "/missing"},
  };
  for (const auto& r : rows) {
    CAPTURE(r.profile);
    LoadResult res = load_policy(r.profile, r.search, {}, kAnyName);
    CHECK_FALSE(res.policy.has_value());
    REQUIRE(res.diagnostics.size() == 1);
    CHECK(res.diagnostics[0].str() == r.diagnostic);
  }
}

TEST_CASE("errors in every file of the chain are reported, the named profile first") {
  std::vector<Diagnostic> diags = check_profile("child", dirs({"errors"}), kAnyName);
  REQUIRE(diags.size() == 2);
  CHECK(diags[0].str() == kFixtures +
                              "/errors/child.toml:5:8: unknown value 'everywhere' for 'mode'; "
                              "expected one of none, loopback, proxy, host");
  CHECK(diags[1].str() == kFixtures +
                              "/errors/parent.toml:2:1: unknown key 'read_olny' in [filesystem]; "
                              "did you mean 'read_only'?");
  CHECK(check_profile("leaf", dirs({"chain"}), kAnyName).empty());
}

TEST_CASE("a profile that cannot be found is one diagnostic without a location") {
  LoadResult r = load_policy("nope", dirs({"chain"}), {}, kAnyName);
  CHECK_FALSE(r.policy.has_value());
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].str() == "profile 'nope' not found in " + kFixtures + "/chain");
}

TEST_CASE("a user profile can extend the system profile it shadows") {
  std::vector<ProfileLayer> layers;
  std::vector<Diagnostic> diags =
      load_chain("default", dirs({"shadow/user", "shadow/system"}), kAnyName, &layers);
  for (const auto& d : diags) FAIL_CHECK(d.str());
  REQUIRE(layers.size() == 2);
  CHECK(layers[0].file == kFixtures + "/shadow/system/default.toml");
  CHECK(layers[1].file == kFixtures + "/shadow/user/default.toml");
  LoadResult r = load_policy("default", dirs({"shadow/user", "shadow/system"}), {}, kAnyName);
  REQUIRE(r.policy.has_value());
  CHECK(values(r.policy->filesystem.read_only) ==
        std::vector<std::string>{"/usr", "/home/me/tools"});
}

// The shipped default profile, as loaded from the source tree.
TEST_CASE("the shipped default profile hides root's secrets and pins the workspace's .git") {
  const std::vector<SearchDir> shipped = {{std::string(AJ_SOURCE_DIR) + "/profiles", "shipped"}};
  LoadResult r = load_policy("default", shipped, {}, kAnyName);
  for (const auto& d : r.diagnostics) FAIL_CHECK(d.str());
  REQUIRE(r.policy.has_value());
  const std::vector<std::string> hidden = values(r.policy->filesystem.hide);
  auto hides = [&](const char* p) {
    return std::find(hidden.begin(), hidden.end(), p) != hidden.end();
  };
  // Readable by a root caller (it owns them) through the /etc bind.
  for (const char* p : {"/etc/shadow", "/etc/gshadow", "/etc/ssh/ssh_host_ed25519_key",
                        "/etc/ssl/private", "/etc/krb5.keytab", "/etc/wireguard",
                        "/etc/NetworkManager/system-connections", "/etc/kubernetes"}) {
    CAPTURE(p);
    CHECK(hides(p));
  }
  for (const char* p : {"~/.ssh", "~/.aws", "~/.gnupg", "~/.config/gcloud", "~/.netrc", "~/.docker",
                        "~/.kube", "~/.bash_history"}) {
    CAPTURE(p);
    CHECK(hides(p));
  }
  const std::vector<std::string> rw = values(r.policy->filesystem.read_write);
  CHECK(std::find(rw.begin(), rw.end(), "${WORKSPACE}/.git") != rw.end());
  const std::vector<std::string> ro = values(r.policy->filesystem.read_only);
  CHECK(std::find(ro.begin(), ro.end(), "${WORKSPACE}/.git/hooks") != ro.end());
  CHECK(std::find(ro.begin(), ro.end(), "${WORKSPACE}/.git/config") != ro.end());
}

}  // namespace aj
