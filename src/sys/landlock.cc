#include "sys/landlock.h"

#include <errno.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys/landlock_abi.h"
#include "sys/mount_api.h"

namespace aj {

namespace ll = landlock;

#ifdef __NR_landlock_create_ruleset
static_assert(__NR_landlock_create_ruleset == ll::kSysCreateRuleset);
static_assert(__NR_landlock_add_rule == ll::kSysAddRule);
static_assert(__NR_landlock_restrict_self == ll::kSysRestrictSelf);
#endif

namespace {

int sys_create_ruleset(const ll::RulesetAttr* attr, std::size_t size, std::uint32_t flags) {
  return static_cast<int>(::syscall(ll::kSysCreateRuleset, attr, size, flags));
}

int sys_add_rule(int ruleset_fd, int type, const void* attr) {
  return static_cast<int>(::syscall(ll::kSysAddRule, ruleset_fd, type, attr, 0U));
}

int sys_restrict_self(int ruleset_fd, std::uint32_t flags) {
  return static_cast<int>(::syscall(ll::kSysRestrictSelf, ruleset_fd, flags));
}

int record(LandlockApplyError* out, LandlockStage stage, int index, int err) noexcept {
  if (out != nullptr) *out = LandlockApplyError{stage, index, err};
  return err;
}

// One path_beneath rule. Returns 0, or an errno with *out filled in.
int add_path_rule(int ruleset_fd, const LandlockChildRules& rules, std::size_t i,
                  LandlockApplyError* out) noexcept {
  const LandlockChildPath& p = rules.paths[i];
  const int index = static_cast<int>(i);
  const int fd = p.exact ? sys::openat2(AT_FDCWD, p.path, O_PATH | O_CLOEXEC, RESOLVE_NO_SYMLINKS)
                         : ::open(p.path, O_PATH | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    if (e == ENOENT && p.optional) return 0;
    return record(out, LandlockStage::kOpenPath, index, e);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return record(out, LandlockStage::kStatPath, index, e);
  }
  ll::PathBeneathAttr attr;
  attr.allowed_access = p.access & rules.handled_fs;
  // Landlock refuses directory-only rights on anything else with EINVAL.
  if (!S_ISDIR(st.st_mode)) attr.allowed_access &= ~rules.dir_only_fs;
  attr.parent_fd = fd;
  int rc = 0;
  if (attr.allowed_access != 0 && sys_add_rule(ruleset_fd, ll::kRulePathBeneath, &attr) != 0) {
    rc = record(out, LandlockStage::kAddPathRule, index, errno);
  }
  ::close(fd);
  return rc;
}

}  // namespace

int landlock_abi_version() noexcept {
  const int abi = sys_create_ruleset(nullptr, 0, ll::kCreateRulesetVersion);
  return abi > 0 ? abi : 0;
}

LandlockChildRules make_child_rules(const LandlockPlan& plan, LandlockChildStorage& storage) {
  storage.paths.clear();
  storage.ports.clear();
  storage.paths.reserve(plan.paths.size());
  storage.ports.reserve(plan.ports.size());
  for (const auto& p : plan.paths) {
    storage.paths.push_back(LandlockChildPath{p.path.c_str(), p.access, p.optional, p.exact});
  }
  for (const auto& p : plan.ports) {
    storage.ports.push_back(LandlockChildPort{p.port, p.access});
  }
  LandlockChildRules r;
  r.abi = plan.abi;
  r.handled_fs = plan.handled_fs;
  r.handled_net = plan.handled_net;
  r.scoped = plan.scoped;
  r.restrict_flags = plan.restrict_flags;
  r.dir_only_fs = plan.dir_only_fs;
  r.paths = storage.paths.data();
  r.path_count = storage.paths.size();
  r.ports = storage.ports.data();
  r.port_count = storage.ports.size();
  return r;
}

int apply_landlock(const LandlockChildRules& rules, LandlockApplyError* err) noexcept {
  if (err != nullptr) *err = LandlockApplyError{};
  if (rules.abi <= 0 || (rules.handled_fs | rules.handled_net | rules.scoped) == 0) return 0;

  ll::RulesetAttr attr;
  attr.handled_access_fs = rules.handled_fs;
  attr.handled_access_net = rules.handled_net;
  attr.scoped = rules.scoped;
  const int ruleset_fd = sys_create_ruleset(&attr, ll::ruleset_attr_size(rules.abi), 0);
  if (ruleset_fd < 0) return record(err, LandlockStage::kCreateRuleset, -1, errno);

  int rc = 0;
  for (std::size_t i = 0; rc == 0 && i < rules.path_count; ++i) {
    rc = add_path_rule(ruleset_fd, rules, i, err);
  }
  for (std::size_t i = 0; rc == 0 && i < rules.port_count; ++i) {
    ll::NetPortAttr port;
    port.allowed_access = rules.ports[i].access & rules.handled_net;
    port.port = rules.ports[i].port;
    if (port.allowed_access != 0 && sys_add_rule(ruleset_fd, ll::kRuleNetPort, &port) != 0) {
      rc = record(err, LandlockStage::kAddPortRule, static_cast<int>(i), errno);
    }
  }
  if (rc == 0 && sys_restrict_self(ruleset_fd, rules.restrict_flags) != 0) {
    rc = record(err, LandlockStage::kRestrictSelf, -1, errno);
  }
  ::close(ruleset_fd);
  return rc;
}

const char* to_string(LandlockStage s) {
  switch (s) {
    case LandlockStage::kNone: return "none";
    case LandlockStage::kCreateRuleset: return "landlock_create_ruleset";
    case LandlockStage::kOpenPath: return "open";
    case LandlockStage::kStatPath: return "fstat";
    case LandlockStage::kAddPathRule: return "landlock_add_rule";
    case LandlockStage::kAddPortRule: return "landlock_add_rule";
    case LandlockStage::kRestrictSelf: return "landlock_restrict_self";
  }
  return "?";
}

Error landlock_apply_error(const LandlockApplyError& e, const LandlockPlan& plan) {
  const bool is_path = e.stage == LandlockStage::kOpenPath || e.stage == LandlockStage::kStatPath ||
                       e.stage == LandlockStage::kAddPathRule;
  const auto index = static_cast<std::size_t>(e.index);
  if (is_path && e.index >= 0 && index < plan.paths.size()) {
    const LandlockPathRule& r = plan.paths[index];
    const std::string loc = r.where.str();
    return sys_error(to_string(e.stage), r.path, e.err)
        .error.with_context(
            loc.empty()
                ? fmt::format("Landlock rule {} ({})", e.index, to_string(r.kind))
                : fmt::format("Landlock rule {} ({}, {})", e.index, to_string(r.kind), loc));
  }
  if (e.stage == LandlockStage::kAddPortRule && e.index >= 0 && index < plan.ports.size()) {
    const LandlockPortRule& r = plan.ports[index];
    const char* dir = r.access == ll::kAccessNetBindTcp ? "bind" : "connect";
    return sys_error(to_string(e.stage), fmt::format("tcp {} port {}", dir, r.port), e.err)
        .error.with_context(fmt::format("Landlock port rule {}", e.index));
  }
  return sys_error(to_string(e.stage), "", e.err).error.with_context("Landlock");
}

}  // namespace aj
