// Exit codes in the style of env(1) and timeout(1). Documented in agentjail(1).
#pragma once

namespace aj {

constexpr int kExitTimeout = 124;        // the wall-clock limit ended the session
constexpr int kExitSetupFailed = 125;    // agentjail itself failed before exec
constexpr int kExitNotExecutable = 126;  // the command exists but cannot be executed
constexpr int kExitNotFound = 127;       // the command was not found
constexpr int kExitSignalBase = 128;     // 128 + N: the command died of signal N
constexpr int kExitCheckFailed = 1;      // `agentjail check`: a profile is invalid

}  // namespace aj
