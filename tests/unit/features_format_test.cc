#include "sys/features_format.h"

#include <doctest/doctest.h>

#include <cerrno>
#include <string>
#include <vector>

namespace aj {
namespace {

FeatureAttempt worked(unsigned uid) { return {true, uid, "", 0, ""}; }
FeatureAttempt failed(unsigned uid, std::string stage, int err) {
  return {false, uid, std::move(stage), err, ""};
}

// A plausible host: everything works, invoked by an ordinary user.
Features sample() {
  Features f;
  f.kernel = "6.18.0";
  f.euid = 1000;
  f.userns.caller = worked(1000);
  f.userns.max_user_namespaces = 96365;
  f.landlock_abi = 7;
  f.seccomp.filter = true;
  f.seccomp.current_mode = 0;
  f.seccomp.actions = {"kill_process", "errno", "user_notif", "allow"};
  f.seccomp.user_notif = true;
  f.seccomp.sync_wake_up = worked(1000);
  f.cgroup = {"v2", "/sys/fs/cgroup/user.slice", true, true, false, "cpu: not delegated"};
  f.overlay.caller = worked(1000);
  f.legacy_tiocsti = 0;
  return f;
}

const FeatureRow* row(const std::vector<FeatureRow>& rows, const std::string& name) {
  for (const auto& r : rows)
    if (r.name == name) return &r;
  return nullptr;
}

TEST_CASE("each Landlock ABI adds its features to those of the ABIs before it") {
  struct Case {
    int abi;
    std::vector<std::string> names;
  };
  const std::vector<std::string> all = {"fs",           "refer",     "truncate",
                                        "tcp",          "ioctl_dev", "scope_abstract_unix",
                                        "scope_signal", "logging"};
  const Case cases[] = {
      {0, {}},
      {1, {"fs"}},
      {2, {"fs", "refer"}},
      {3, {"fs", "refer", "truncate"}},
      {4, {"fs", "refer", "truncate", "tcp"}},
      {5, {"fs", "refer", "truncate", "tcp", "ioctl_dev"}},
      {6, {"fs", "refer", "truncate", "tcp", "ioctl_dev", "scope_abstract_unix", "scope_signal"}},
      {7, all},
      {9, all},  // newer than we know: only what we know
  };
  for (const auto& c : cases) {
    CAPTURE(c.abi);
    CHECK(landlock_feature_names(c.abi) == c.names);
  }
}

TEST_CASE("an errno is shown by its name and its message") {
  CHECK(errno_text(EPERM) == "EPERM (Operation not permitted)");
  CHECK(errno_text(ENOSPC) == "ENOSPC (No space left on device)");
  CHECK(errno_text(0) == "");
}

TEST_CASE("a user-namespace failure is explained by the knob or errno that causes it") {
  struct Case {
    const char* what;
    FeatureAttempt attempt;
    std::optional<long> debian_knob, max_userns, apparmor;
    int seccomp_mode;
    std::string expect;  // a substring; "" means no explanation
  };
  const Case cases[] = {
      {"works", worked(1000), 0, 0, 1, 0, ""},
      {"Debian knob off", failed(1000, "unshare", EPERM), 0, 100, std::nullopt, 0,
       "kernel.unprivileged_userns_clone = 0"},
      {"Debian knob does not bind root", failed(0, "unshare", EPERM), 0, 100, std::nullopt, 0,
       "outer seccomp filter"},
      {"limit zero", failed(1000, "unshare", ENOSPC), std::nullopt, 0, std::nullopt, 0,
       "user.max_user_namespaces = 0"},
      {"limit reached", failed(1000, "unshare", ENOSPC), std::nullopt, 5, std::nullopt, 0,
       "limit is reached (user.max_user_namespaces = 5)"},
      {"AppArmor, map denied", failed(1000, "uid_map", EPERM), std::nullopt, 100, 1, 0, "AppArmor"},
      {"AppArmor off", failed(1000, "uid_map", EPERM), std::nullopt, 100, 0, 0,
       "id map could not be written"},
      {"container seccomp", failed(1000, "unshare", EPERM), std::nullopt, 100, std::nullopt, 2,
       "seccomp filter this process already runs under"},
      {"no CONFIG_USER_NS", failed(1000, "unshare", EINVAL), std::nullopt, std::nullopt,
       std::nullopt, 0, "CONFIG_USER_NS"},
      {"too deep", failed(1000, "unshare", EUSERS), std::nullopt, 100, std::nullopt, 0,
       "nested too deep"},
      {"drop failed", failed(65534, "drop to uid 65534", EPERM), std::nullopt, 100, std::nullopt, 0,
       "could not become uid 65534"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    Features f = sample();
    f.userns.unprivileged_userns_clone = c.debian_knob;
    f.userns.max_user_namespaces = c.max_userns;
    f.userns.apparmor_restrict = c.apparmor;
    f.seccomp.current_mode = c.seccomp_mode;
    std::string why = userns_explanation(f, c.attempt);
    if (c.expect.empty())
      CHECK(why == "");
    else
      CHECK(why.find(c.expect) != std::string::npos);
  }
}

TEST_CASE("the rows name every feature, with the unprivileged tries only when run as root") {
  Features f = sample();
  std::vector<std::string> names;
  for (const auto& r : feature_rows(f)) names.push_back(r.name);
  CHECK(names == std::vector<std::string>{"kernel", "user namespaces", "landlock", "seccomp filter",
                                          "seccomp user notification", "cgroups",
                                          "overlay in userns", "tiocsti"});
  f.euid = 0;
  f.userns.caller = worked(0);
  f.userns.unprivileged = failed(65534, "unshare", EPERM);
  f.overlay.unprivileged = worked(65534);
  auto rows = feature_rows(f);
  REQUIRE(row(rows, "user namespaces (unprivileged)"));
  CHECK(row(rows, "user namespaces (unprivileged)")->status == "no");
  CHECK(row(rows, "user namespaces (unprivileged)")->detail.find("EPERM") != std::string::npos);
  REQUIRE(row(rows, "overlay in userns (unprivileged)"));
}

TEST_CASE("tiocsti is blocked only when the kernel knob says 0") {
  struct Case {
    std::optional<long> knob;
    const char* status;
  };
  const Case cases[] = {{0, "blocked"}, {1, "allowed"}, {std::nullopt, "allowed"}};
  for (const auto& c : cases) {
    Features f = sample();
    f.legacy_tiocsti = c.knob;
    CAPTURE(c.status);
    CHECK(row(feature_rows(f), "tiocsti")->status == c.status);
    bool blocked = format_features_json(f).find("\"blocked_by_kernel\": true") != std::string::npos;
    CHECK(blocked == (std::string(c.status) == "blocked"));
  }
}

TEST_CASE("the cgroup row lists usable controllers, or why there are none") {
  Features f = sample();
  CHECK(row(feature_rows(f), "cgroups")->detail ==
        "memory pids under /sys/fs/cgroup/user.slice (not cpu); cpu: not delegated");
  f.cgroup = {"none", "", false, false, false, "cgroup v2: not writable"};
  CHECK(row(feature_rows(f), "cgroups")->status == "none");
  CHECK(row(feature_rows(f), "cgroups")->detail == "cgroup v2: not writable; rlimits only");
}

TEST_CASE("v1 cgroups name each controller's own hierarchy") {
  Features f = sample();
  f.cgroup = {"v1", "/cg/memory/a", true, true, false, ""};
  f.cgroup.v1_memory_base = "/cg/memory/a";
  f.cgroup.v1_pids_base = "/cg/pids";
  CHECK(row(feature_rows(f), "cgroups")->detail ==
        "memory at /cg/memory/a, pids at /cg/pids (not cpu)");
  std::string json = format_features_json(f);
  CHECK(json.find("\"pids\": \"/cg/pids\",") != std::string::npos);
  CHECK(json.find("\"cpu\": null") != std::string::npos);
}

TEST_CASE("an overlay failure says whether the user namespace or overlayfs refused") {
  struct Case {
    FeatureAttempt attempt;
    std::string expect;
  };
  const Case cases[] = {
      {worked(1000), ""},
      {failed(1000, "unshare", EPERM), "needs a user namespace"},
      {failed(1000, "uid_map", EPERM), "needs a user namespace"},
      {failed(1000, "mount overlay", EPERM), "refuses overlayfs in a user namespace"},
      {failed(1000, "mount overlay", ENODEV), "overlayfs is not available"},
      {failed(1000, "write through overlay", EIO), "a write through it failed"},
      {failed(1000, "mount tmpfs", EPERM), ""},
  };
  for (const auto& c : cases) {
    CAPTURE(c.attempt.stage);
    std::string why = overlay_explanation(c.attempt);
    if (c.expect.empty())
      CHECK(why == "");
    else
      CHECK(why.find(c.expect) != std::string::npos);
  }
}

TEST_CASE("seccomp notification without the 6.6 flag says what failed") {
  Features f = sample();
  f.seccomp.sync_wake_up = failed(1000, "SECCOMP_IOCTL_NOTIF_SET_FLAGS", EINVAL);
  auto rows = feature_rows(f);
  const FeatureRow* r = row(rows, "seccomp user notification");
  REQUIRE(r);
  CHECK(r->status == "yes");
  CHECK(r->detail ==
        "SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP: no (SECCOMP_IOCTL_NOTIF_SET_FLAGS: EINVAL (Invalid "
        "argument); needs Linux >= 6.6)");
}

TEST_CASE("the text report aligns name, status and detail columns") {
  Features f = sample();
  std::string text = format_features_text(f);
  CHECK(text.find("kernel                     6.18.0\n") == 0);
  CHECK(text.find("\nlandlock                   ABI 7    fs refer truncate tcp ioctl_dev "
                  "scope_abstract_unix scope_signal logging\n") != std::string::npos);
  CHECK(text.find("\nuser namespaces            yes      as uid 1000; "
                  "user.max_user_namespaces = 96365\n") != std::string::npos);
}

TEST_CASE(
    "the JSON report is one object whose first user-namespace boolean answers for the caller") {
  Features f = sample();
  f.userns.caller = failed(1000, "unshare", EPERM);
  f.userns.unprivileged_userns_clone = 0;
  std::string json = format_features_json(f);
  CHECK(json.front() == '{');
  CHECK(json.substr(json.size() - 2) == "}\n");
  auto first_bool = json.find("\"available\"");
  CHECK(json.find("\"user_namespaces\": {") < first_bool);
  CHECK(json.substr(first_bool, 20) == "\"available\": false,\n");
  CHECK(json.find("\"failed_stage\": \"unshare\"") != std::string::npos);
  CHECK(json.find("kernel.unprivileged_userns_clone = 0") != std::string::npos);
  CHECK(json.find("\"errno\": 1,") != std::string::npos);
  CHECK(json.find("\"unprivileged\": null") != std::string::npos);
  CHECK(json.find("\"abi\": 7,") != std::string::npos);
  CHECK(json.find("\"actions\": [\"kill_process\", \"errno\", \"user_notif\", \"allow\"]") !=
        std::string::npos);
  CHECK(json.find("\"apparmor_restrict_unprivileged_userns\": null") != std::string::npos);
  // Braces balance (no string here contains one).
  long depth = 0;
  for (char c : json) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
  CHECK(depth == 0);
}

TEST_CASE("strings in the JSON report are escaped") {
  Features f = sample();
  f.kernel = "6.1 \"odd\"\\\nbuild";
  f.cgroup.reason = std::string("tab\there ") + '\x01';
  std::string json = format_features_json(f);
  CHECK(json.find(R"("kernel": "6.1 \"odd\"\\\nbuild")") != std::string::npos);
  CHECK(json.find(R"("reason": "tab\there \u0001")") != std::string::npos);
}

}  // namespace
}  // namespace aj
