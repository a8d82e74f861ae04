// The filter actually installed when the supervisor observes the command: the
// enforcing program with every errno refusal turned into a user notification
// (the supervisor answers with the very same errno, found by running the
// enforcing program in seccomp/bpf_eval, and journals it), plus a prefix that
// notifies execve/execveat (answered CONTINUE: observation only, never a grant:
// the kernel re-runs nothing, but the enforcing program allows exec anyway).
// A dead supervisor makes notified calls fail with ENOSYS: still refused.
#pragma once

#include <vector>

#include "seccomp/filter.h"

namespace aj {

struct NotifyOptions {
  bool exec = true;        // notify execve/execveat
  bool denials = true;     // notify (instead of answering) errno refusals
  std::vector<int> extra;  // more syscall numbers to notify (trace mode)
};

BpfProgram make_notifying_program(const BpfProgram& enforcing, const NotifyOptions& options);

// True when a returned action is an errno refusal the supervisor must journal
// (ENOSYS answers, e.g. clone3's, are compatibility, not refusals).
bool is_journaled_refusal(std::uint32_t action);

}  // namespace aj
