// The Landlock part of the plan: which rights the ruleset handles (so they are
// denied unless granted), which paths and TCP ports are granted, which scopes
// are set, and which rules the running kernel's ABI cannot express. Pure: the
// child applies it with sys/landlock.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "policy/policy.h"

namespace aj {

// What a path grant is for. Each kind maps to a fixed set of Landlock rights;
// see landlock_access_for().
enum class GrantKind {
  kRead,       // read files, list directories
  kReadWrite,  // read + the write family (never mknod of char/block devices)
  kExec,       // read + execute
  kDevice,     // /dev nodes: read, write, truncate (`> /dev/null`), ioctl
};

const char* to_string(GrantKind k);

struct PathGrant {
  std::string path;  // already expanded and absolute
  GrantKind kind = GrantKind::kRead;
  bool optional = false;  // a missing path is skipped instead of failing
  SourceLoc where;
  // Already resolved (a real path): opened without following any symbolic
  // link, so a link swapped in meanwhile (by another session writing the
  // same workspace) cannot move the grant elsewhere.
  bool exact = false;
};

struct LandlockInputs {
  int abi = 0;  // the running kernel's ABI (sys/landlock.h landlock_abi_version())
  std::vector<PathGrant> grants;
  std::vector<Item<std::uint16_t>> tcp_connect;  // ports that may be connected to
  std::vector<Item<std::uint16_t>> tcp_bind;     // ports that may be bound
  bool deny_all_tcp = false;                     // --net none without a network namespace
  bool scope_ipc = false;                        // abstract unix sockets + signals stay inside
};

struct LandlockPathRule {
  std::string path;
  std::uint64_t access = 0;  // may include directory-only rights; see dir_only_fs
  bool optional = false;
  GrantKind kind = GrantKind::kRead;
  SourceLoc where;
  bool exact = false;  // see PathGrant::exact
};

struct LandlockPortRule {
  std::uint16_t port = 0;
  std::uint64_t access = 0;  // kAccessNetConnectTcp or kAccessNetBindTcp
  SourceLoc where;
};

struct LandlockPlan {
  int abi = 0;  // the ABI the plan is written for: min(kernel, landlock::kAbiMax)
  std::uint64_t handled_fs = 0;
  std::uint64_t handled_net = 0;
  std::uint64_t scoped = 0;
  std::uint32_t restrict_flags = 0;
  // Rights the child strips from a rule whose target turns out not to be a
  // directory (Landlock rejects them there with EINVAL; only fstat can tell).
  std::uint64_t dir_only_fs = 0;
  std::vector<LandlockPathRule> paths;
  std::vector<LandlockPortRule> ports;
  // Human-readable "<rule> (<where>): <why>" for each rule or restriction the
  // kernel cannot enforce through Landlock. Never silently dropped.
  std::vector<std::string> not_enforced;

  // True when applying the plan restricts anything at all.
  bool active() const { return abi > 0 && (handled_fs | handled_net | scoped) != 0; }
};

// Landlock rights a grant of this kind carries under the given ABI (already
// limited to the rights the ABI knows). `path` matters only for /dev/shm,
// which needs file creation and removal.
std::uint64_t landlock_access_for(GrantKind kind, const std::string& path, int abi);

LandlockPlan build_landlock_plan(const LandlockInputs& in);

// The paths the plan grants read-write (not devices), in plan order.
std::vector<std::string> writable_grants(const LandlockPlan& plan);

}  // namespace aj
