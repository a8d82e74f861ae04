// Our own copy of the stable Landlock UAPI (include/uapi/linux/landlock.h) up
// to ABI 7. Debian 12's kernel headers stop at ABI 2, and the kernel we run on
// may be newer than the headers we build with, so the values live here.
//
// Pure: constants and plain structs over <cstdint> only, so plan/ can use it.
// Everything is in aj::landlock with k-names, so it cannot clash with the
// LANDLOCK_* macros or struct names of <linux/landlock.h>; we never include
// that header.
#pragma once

#include <cstddef>
#include <cstdint>

namespace aj::landlock {

// The newest ABI whose semantics this file describes. A newer kernel is used
// at this level: unknown bits would be rejected with EINVAL anyway.
inline constexpr int kAbiMax = 7;

// Syscall numbers: the unified table (x86_64, aarch64, riscv, ... all agree).
inline constexpr long kSysCreateRuleset = 444;
inline constexpr long kSysAddRule = 445;
inline constexpr long kSysRestrictSelf = 446;

// landlock_create_ruleset(NULL, 0, kCreateRulesetVersion) returns the ABI.
inline constexpr std::uint32_t kCreateRulesetVersion = 1U << 0;

// enum landlock_rule_type
inline constexpr int kRulePathBeneath = 1;
inline constexpr int kRuleNetPort = 2;  // ABI 4

// Filesystem access rights (LANDLOCK_ACCESS_FS_*).
inline constexpr std::uint64_t kAccessFsExecute = 1ULL << 0;
inline constexpr std::uint64_t kAccessFsWriteFile = 1ULL << 1;
inline constexpr std::uint64_t kAccessFsReadFile = 1ULL << 2;
inline constexpr std::uint64_t kAccessFsReadDir = 1ULL << 3;
inline constexpr std::uint64_t kAccessFsRemoveDir = 1ULL << 4;
inline constexpr std::uint64_t kAccessFsRemoveFile = 1ULL << 5;
inline constexpr std::uint64_t kAccessFsMakeChar = 1ULL << 6;
inline constexpr std::uint64_t kAccessFsMakeDir = 1ULL << 7;
inline constexpr std::uint64_t kAccessFsMakeReg = 1ULL << 8;
inline constexpr std::uint64_t kAccessFsMakeSock = 1ULL << 9;
inline constexpr std::uint64_t kAccessFsMakeFifo = 1ULL << 10;
inline constexpr std::uint64_t kAccessFsMakeBlock = 1ULL << 11;
inline constexpr std::uint64_t kAccessFsMakeSym = 1ULL << 12;
inline constexpr std::uint64_t kAccessFsRefer = 1ULL << 13;     // ABI 2
inline constexpr std::uint64_t kAccessFsTruncate = 1ULL << 14;  // ABI 3
inline constexpr std::uint64_t kAccessFsIoctlDev = 1ULL << 15;  // ABI 5

// Rights that make sense on a non-directory. A path_beneath rule whose target
// is not a directory and that carries any other right fails with EINVAL.
inline constexpr std::uint64_t kAccessFsFile = kAccessFsExecute | kAccessFsWriteFile |
                                               kAccessFsReadFile | kAccessFsTruncate |
                                               kAccessFsIoctlDev;

// Network access rights (LANDLOCK_ACCESS_NET_*), ABI 4. TCP only.
inline constexpr std::uint64_t kAccessNetBindTcp = 1ULL << 0;
inline constexpr std::uint64_t kAccessNetConnectTcp = 1ULL << 1;

// Scopes (LANDLOCK_SCOPE_*), ABI 6: deny reaching outside the domain.
inline constexpr std::uint64_t kScopeAbstractUnixSocket = 1ULL << 0;
inline constexpr std::uint64_t kScopeSignal = 1ULL << 1;

// landlock_restrict_self() flags (LANDLOCK_RESTRICT_SELF_*), ABI 7: audit
// logging of denials.
inline constexpr std::uint32_t kRestrictSelfLogSameExecOff = 1U << 0;
inline constexpr std::uint32_t kRestrictSelfLogNewExecOn = 1U << 1;
inline constexpr std::uint32_t kRestrictSelfLogSubdomainsOff = 1U << 2;

// struct landlock_ruleset_attr. The kernel accepts a shorter size from older
// programs; ruleset_attr_size() gives the size an ABI understands.
struct RulesetAttr {
  std::uint64_t handled_access_fs = 0;
  std::uint64_t handled_access_net = 0;  // ABI 4
  std::uint64_t scoped = 0;              // ABI 6
};
static_assert(sizeof(RulesetAttr) == 24);

// struct landlock_path_beneath_attr (packed in the UAPI).
struct __attribute__((packed)) PathBeneathAttr {
  std::uint64_t allowed_access = 0;
  std::int32_t parent_fd = -1;
};
static_assert(sizeof(PathBeneathAttr) == 12);

// struct landlock_net_port_attr, ABI 4. port is in host byte order.
struct NetPortAttr {
  std::uint64_t allowed_access = 0;
  std::uint64_t port = 0;
};
static_assert(sizeof(NetPortAttr) == 16);

// Every filesystem right the given ABI knows (0 for ABI 0).
constexpr std::uint64_t fs_mask(int abi) {
  if (abi < 1) return 0;
  if (abi < 2) return (kAccessFsMakeSym << 1) - 1;  // bits 0..12
  if (abi < 3) return (kAccessFsRefer << 1) - 1;
  if (abi < 5) return (kAccessFsTruncate << 1) - 1;
  return (kAccessFsIoctlDev << 1) - 1;
}

// Rights valid only on directories, for the given ABI.
constexpr std::uint64_t fs_dir_only_mask(int abi) { return fs_mask(abi) & ~kAccessFsFile; }

constexpr std::uint64_t net_mask(int abi) {
  return abi >= 4 ? (kAccessNetBindTcp | kAccessNetConnectTcp) : 0;
}

constexpr std::uint64_t scope_mask(int abi) {
  return abi >= 6 ? (kScopeAbstractUnixSocket | kScopeSignal) : 0;
}

constexpr std::uint32_t restrict_flags_mask(int abi) {
  return abi >= 7 ? (kRestrictSelfLogSameExecOff | kRestrictSelfLogNewExecOn |
                     kRestrictSelfLogSubdomainsOff)
                  : 0;
}

constexpr std::size_t ruleset_attr_size(int abi) {
  if (abi < 4) return sizeof(std::uint64_t);
  if (abi < 6) return 2 * sizeof(std::uint64_t);
  return sizeof(RulesetAttr);
}

}  // namespace aj::landlock
