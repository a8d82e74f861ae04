#include "base/error.h"

#include <cstring>

namespace aj {

std::string Error::render() const {
  std::string out;
  for (auto it = context.rbegin(); it != context.rend(); ++it) {
    out += *it;
    out += ": ";
  }
  out += op;
  if (!subject.empty()) {
    out += " '";
    out += subject;
    out += "'";
  }
  if (errnum != 0) {
    out += ": ";
    out += std::strerror(errnum);
  }
  return out;
}

Error& Error::with_context(std::string ctx) & {
  context.push_back(std::move(ctx));
  return *this;
}

Error&& Error::with_context(std::string ctx) && {
  context.push_back(std::move(ctx));
  return std::move(*this);
}

Unexpected<Error> sys_error(std::string op, std::string subject, int errnum) {
  return unexpected(Error{std::move(op), std::move(subject), errnum, {}});
}

Unexpected<Error> fail(std::string message) {
  return unexpected(Error{std::move(message), {}, 0, {}});
}

}  // namespace aj
