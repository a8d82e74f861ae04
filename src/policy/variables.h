// Profile variables (${HOME}, ${WORKSPACE}, ${TMPDIR}, ${STATE}, ${SESSION}, ~)
// and lexical path helpers. Pure: nothing here touches the disk.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "base/error.h"

namespace aj {

struct Variables {
  std::string home, workspace, tmpdir, state, session;
};

// The names accepted inside ${...}, in documentation order.
inline constexpr std::array<std::string_view, 5> kVariableNames = {"HOME", "WORKSPACE", "TMPDIR",
                                                                   "STATE", "SESSION"};

bool is_known_variable(std::string_view name);

// Checks every ${...} in raw without expanding: an unterminated "${" or an
// unknown name is an error (message names the offending text).
Result<void> check_variables(std::string_view raw);

// Expands ${NAME} anywhere and "~" / "~/..." at the start ("~" is ${HOME}).
// Errors: unknown or unterminated ${...}, "~user", or a variable whose value is
// empty (so "${HOME}/.ssh" never silently becomes "/.ssh").
Result<std::string> expand_variables(std::string_view raw, const Variables& vars);

// Lexical clean-up in the manner of Go's path.Clean: collapses "//" and "/./",
// resolves ".." against the preceding component ("/.." is "/"), drops a
// trailing slash. The empty path becomes ".". Never touches the disk.
std::string normalize_path(std::string_view path);

// An absolute path that normalize_path would return unchanged.
bool is_clean_absolute(std::string_view s);

// True when path is dir or lies under it, compared component by component
// after normalize_path: "/a/b/c" is within "/a/b", "/a/bc" is not.
bool path_is_within(std::string_view path, std::string_view dir);

}  // namespace aj
