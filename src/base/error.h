// Errors are values: an operation, the subject it acted on, an errno, and the
// context added on the way up. Rendered once, at the top.
#pragma once

#include <string>
#include <vector>

#include "base/expected.h"

namespace aj {

struct Error {
  std::string op;                    // "open", "mount", or a whole message when errnum == 0
  std::string subject;               // usually a path; may be empty
  int errnum = 0;                    // 0 when not a system error
  std::vector<std::string> context;  // innermost first

  // "<context>: <op> '<subject>': <strerror>" without the "agentjail: " prefix.
  std::string render() const;
  Error& with_context(std::string ctx) &;
  Error&& with_context(std::string ctx) &&;
};

template <typename T = void>
using Result = Expected<T, Error>;

// A system call failed: op names it, subject is what it acted on.
Unexpected<Error> sys_error(std::string op, std::string subject, int errnum);
// A plain message (validation, usage), no errno.
Unexpected<Error> fail(std::string message);

}  // namespace aj

// Propagate an error; evaluate to the value otherwise (GNU statement expression,
// supported by GCC and Clang).
#define AJ_TRY(expr)                                              \
  ({                                                              \
    auto aj_try_result_ = (expr);                                 \
    if (!aj_try_result_) {                                        \
      return ::aj::unexpected(std::move(aj_try_result_).error()); \
    }                                                             \
    std::move(aj_try_result_).value();                            \
  })

// Same, adding context to the error on the way up.
#define AJ_TRY_CTX(expr, ctx)                                                       \
  ({                                                                                \
    auto aj_try_result_ = (expr);                                                   \
    if (!aj_try_result_) {                                                          \
      return ::aj::unexpected(std::move(aj_try_result_).error().with_context(ctx)); \
    }                                                                               \
    std::move(aj_try_result_).value();                                              \
  })
