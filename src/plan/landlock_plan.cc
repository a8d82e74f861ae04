#include "plan/landlock_plan.h"

#include <fmt/format.h>

#include <algorithm>

#include "sys/landlock_abi.h"

namespace aj {

namespace ll = landlock;

namespace {

constexpr std::uint64_t kRead = ll::kAccessFsReadFile | ll::kAccessFsReadDir;
constexpr std::uint64_t kExec = kRead | ll::kAccessFsExecute;
// The write family. MAKE_CHAR and MAKE_BLOCK are never granted: a device node
// created inside a writable tree would be a way around every other wall.
constexpr std::uint64_t kReadWrite =
    kRead | ll::kAccessFsWriteFile | ll::kAccessFsRemoveDir | ll::kAccessFsRemoveFile |
    ll::kAccessFsMakeDir | ll::kAccessFsMakeReg | ll::kAccessFsMakeSock | ll::kAccessFsMakeFifo |
    ll::kAccessFsMakeSym | ll::kAccessFsRefer | ll::kAccessFsTruncate;
// Devices: TRUNCATE because shells open `> /dev/null` with O_TRUNC; IOCTL_DEV
// because terminals need termios ioctls (TIOCSTI is seccomp's to refuse).
constexpr std::uint64_t kDevice =
    kRead | ll::kAccessFsWriteFile | ll::kAccessFsTruncate | ll::kAccessFsIoctlDev;
// /dev/shm is a directory where POSIX shared memory objects are created and
// unlinked (shm_open, Python multiprocessing), so it needs the file family.
constexpr std::uint64_t kDevShm = kRead | ll::kAccessFsWriteFile | ll::kAccessFsTruncate |
                                  ll::kAccessFsMakeReg | ll::kAccessFsRemoveFile;

bool is_dev_shm(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path == "/dev/shm";
}

// "<rule> (<where>): <why>", or without the parenthesis when the origin is unknown.
std::string located(const std::string& rule, const SourceLoc& where, const std::string& why) {
  const std::string loc = where.str();
  if (loc.empty()) return fmt::format("{}: {}", rule, why);
  return fmt::format("{} ({}): {}", rule, loc, why);
}

std::string unavailable(int abi, int needed, const char* what) {
  if (abi <= 0) return "Landlock is not available on this kernel";
  return fmt::format("kernel Landlock ABI {} < {} cannot {}", abi, needed, what);
}

std::string port_list(const std::vector<Item<std::uint16_t>>& ports) {
  std::string out;
  for (const auto& p : ports) {
    if (!out.empty()) out += ", ";
    out += std::to_string(p.value);
  }
  return "[" + out + "]";
}

void plan_paths(const LandlockInputs& in, LandlockPlan& plan) {
  if (plan.abi <= 0) {
    plan.not_enforced.push_back("filesystem access outside the granted paths: " +
                                unavailable(plan.abi, 1, ""));
  }
  for (const auto& g : in.grants) {
    const std::string rule = fmt::format("{} '{}'", to_string(g.kind), g.path);
    if (plan.abi <= 0) {
      plan.not_enforced.push_back(located(rule, g.where, unavailable(plan.abi, 1, "")));
      continue;
    }
    if (g.path.empty() || g.path.front() != '/') {
      // Opened relative to whatever the child's cwd is: refuse to guess. Dropping
      // a grant only denies more, but say so.
      plan.not_enforced.push_back(
          located(rule, g.where, "not an absolute path; Landlock grant dropped, path denied"));
      continue;
    }
    plan.paths.push_back(LandlockPathRule{g.path, landlock_access_for(g.kind, g.path, plan.abi),
                                          g.optional, g.kind, g.where, g.exact});
  }
  // Gaps of older ABIs that weaken every filesystem rule, reported once.
  if (plan.abi >= 1 && plan.abi < 3) {
    plan.not_enforced.push_back("truncate(2) of files outside the write grants: " +
                                unavailable(plan.abi, 3, "restrict truncation"));
  }
  if (plan.abi >= 1 && plan.abi < 5) {
    plan.not_enforced.push_back("ioctl on device files: " +
                                unavailable(plan.abi, 5, "restrict device ioctls"));
  }
}

void plan_network(const LandlockInputs& in, LandlockPlan& plan) {
  const bool wanted = in.deny_all_tcp || !in.tcp_connect.empty() || !in.tcp_bind.empty();
  if (!wanted) return;
  if (plan.abi >= 4) {
    // Both directions are handled as soon as any TCP rule exists: a profile
    // that lists connect ports but no bind ports may bind nothing. Failing
    // closed is visible; failing open is not.
    plan.handled_net = ll::kAccessNetBindTcp | ll::kAccessNetConnectTcp;
    if (in.deny_all_tcp) return;  // --net none: no port is granted, whatever is listed
    for (const auto& p : in.tcp_connect) {
      plan.ports.push_back(LandlockPortRule{p.value, ll::kAccessNetConnectTcp, p.where});
    }
    for (const auto& p : in.tcp_bind) {
      plan.ports.push_back(LandlockPortRule{p.value, ll::kAccessNetBindTcp, p.where});
    }
    return;
  }
  const std::string why = unavailable(plan.abi, 4, "restrict TCP");
  if (in.deny_all_tcp) {
    plan.not_enforced.push_back(
        "no TCP connect or bind (--net none without a network namespace): " + why);
  }
  if (!in.tcp_connect.empty()) {
    plan.not_enforced.push_back(
        located("tcp_connect = " + port_list(in.tcp_connect), in.tcp_connect.front().where, why));
  }
  if (!in.tcp_bind.empty()) {
    plan.not_enforced.push_back(
        located("tcp_bind = " + port_list(in.tcp_bind), in.tcp_bind.front().where, why));
  }
}

void plan_scope(const LandlockInputs& in, LandlockPlan& plan) {
  if (!in.scope_ipc) return;
  if (plan.abi >= 6) {
    plan.scoped = ll::kScopeAbstractUnixSocket | ll::kScopeSignal;
    return;
  }
  plan.not_enforced.push_back("abstract unix sockets and signals limited to the sandbox: " +
                              unavailable(plan.abi, 6, "scope IPC"));
}

}  // namespace

const char* to_string(GrantKind k) {
  switch (k) {
    case GrantKind::kRead: return "read";
    case GrantKind::kReadWrite: return "read-write";
    case GrantKind::kExec: return "exec";
    case GrantKind::kDevice: return "device";
  }
  return "?";
}

std::uint64_t landlock_access_for(GrantKind kind, const std::string& path, int abi) {
  std::uint64_t access = 0;
  switch (kind) {
    case GrantKind::kRead: access = kRead; break;
    case GrantKind::kReadWrite: access = kReadWrite; break;
    case GrantKind::kExec: access = kExec; break;
    case GrantKind::kDevice: access = is_dev_shm(path) ? kDevShm : kDevice; break;
  }
  return access & ll::fs_mask(abi);
}

LandlockPlan build_landlock_plan(const LandlockInputs& in) {
  LandlockPlan plan;
  // A newer kernel is driven at the newest ABI we know; bits we do not know
  // cannot be requested anyway.
  plan.abi = std::clamp(in.abi, 0, ll::kAbiMax);
  // Handle every right the ABI knows: whatever no rule grants is denied.
  plan.handled_fs = ll::fs_mask(plan.abi);
  plan.dir_only_fs = ll::fs_dir_only_mask(plan.abi);
  // restrict_self flags stay 0 (ABI 7 default logging): the kernel audits
  // denials of the code that called restrict_self until it execs, i.e. our own
  // setup mistakes, and not those of the agent, which the host audit log would
  // otherwise receive by the thousand. Our journal is the record of the agent.
  plan.restrict_flags = 0;
  plan_paths(in, plan);
  plan_network(in, plan);
  plan_scope(in, plan);
  return plan;
}

std::vector<std::string> writable_grants(const LandlockPlan& plan) {
  std::vector<std::string> out;
  for (const LandlockPathRule& r : plan.paths) {
    if (r.kind == GrantKind::kReadWrite) out.push_back(r.path);
  }
  return out;
}

}  // namespace aj
