// Prints the tables the documentation must agree with, for docs_sync.py:
//   layer NAME
//   group @NAME deny|allow MEMBER...     (members: syscalls and @groups)
//   about @NAME DESCRIPTION
// Reading them through the public interfaces keeps the lint independent of
// how the tables are written in the sources.
#include <iostream>

#include "policy/layers.h"
#include "seccomp/groups.h"

int main() {
  for (const auto& layer : aj::known_layers()) std::cout << "layer " << layer.name << '\n';
  for (const auto& group : aj::syscall_groups()) {
    std::cout << "group " << group.name << (group.for_allowlist ? " allow" : " deny");
    for (const auto& member : group.syscalls) std::cout << ' ' << member;
    std::cout << "\nabout " << group.name << ' ' << group.description << '\n';
  }
  return 0;
}
