// Gathers the real HostFacts and offers the real Disk (lstat/realpath).
#pragma once

#include "base/error.h"
#include "plan/host_facts.h"

namespace aj {

class RealDisk final : public Disk {
 public:
  FileKind kind(const std::string& path) const override;
  std::optional<std::string> read_link(const std::string& path) const override;
  std::optional<std::string> real_path(const std::string& path) const override;
  std::vector<std::string> list_dir(const std::string& path) const override;
  std::uint64_t link_count(const std::string& path) const override;
  std::optional<std::string> read_text(const std::string& path, std::size_t max) const override;
};

Result<HostFacts> probe_host(char** environ_ptr);

// 16 hex digits from getrandom(2).
std::string new_session_id();

}  // namespace aj
