// Reading small kernel and config files whole (/proc, /sys, cgroupfs), and
// symbolic links.
#pragma once

#include <optional>
#include <string>

namespace aj {

// The whole file, or nullopt when it cannot be opened or read.
std::optional<std::string> read_file(const std::string& path);

// The target of a symbolic link (also /proc's magic links such as
// /proc/PID/cwd), or nullopt when path is not one or cannot be read.
std::optional<std::string> read_link(const std::string& path);

// A sysctl such as /proc/sys/kernel/foo as a number; nullopt when the file
// is missing or does not start with one.
std::optional<long> read_sysctl(const std::string& path);

}  // namespace aj
