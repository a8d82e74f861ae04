#include "policy/policy.h"

#include <fmt/format.h>

namespace aj {

std::string SourceLoc::str() const {
  if (line <= 0) return file;
  if (column <= 0) return fmt::format("{}:{}", file, line);
  return fmt::format("{}:{}:{}", file, line, column);
}

const char* to_string(WorkspaceMode m) {
  switch (m) {
    case WorkspaceMode::kBind: return "bind";
    case WorkspaceMode::kOverlay: return "overlay";
    case WorkspaceMode::kNone: return "none";
  }
  return "?";
}

const char* to_string(NetMode m) {
  switch (m) {
    case NetMode::kNone: return "none";
    case NetMode::kLoopback: return "loopback";
    case NetMode::kProxy: return "proxy";
    case NetMode::kHost: return "host";
  }
  return "?";
}

const char* to_string(SeccompDefault d) { return d == SeccompDefault::kAllow ? "allow" : "deny"; }

const char* to_string(SeccompAction a) {
  switch (a) {
    case SeccompAction::kErrno: return "errno";
    case SeccompAction::kKill: return "kill";
    case SeccompAction::kLog: return "log";
  }
  return "?";
}

}  // namespace aj
