#include "policy/layers.h"

#include <array>

namespace aj {
namespace {

constexpr std::array<LayerInfo, 7> kLayers = {{
    {"userns", "unprivileged user namespace with mount, PID, IPC, UTS and cgroup namespaces"},
    {"landlock", "Landlock filesystem rules (read, write, execute per path)"},
    {"landlock-net", "Landlock TCP bind/connect port rules (ABI 4 or later)"},
    {"landlock-scope", "Landlock scoping of abstract unix sockets and signals (ABI 6 or later)"},
    {"seccomp", "seccomp-bpf system call filter"},
    {"cgroup", "cgroup memory, process and CPU limits (a delegated, writable cgroup)"},
    {"netns", "network namespace (no host network unless mode = \"host\")"},
}};

}  // namespace

std::span<const LayerInfo> known_layers() { return kLayers; }

bool is_known_layer(std::string_view name) {
  for (const auto& l : kLayers) {
    if (l.name == name) return true;
  }
  return false;
}

std::string_view known_layer_list() {
  return "userns, landlock, landlock-net, landlock-scope, seccomp, cgroup, netns";
}

}  // namespace aj
