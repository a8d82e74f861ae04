#include "profile/diagnostic.h"

#include <algorithm>
#include <tuple>

namespace aj {

std::string Diagnostic::str() const {
  std::string loc = where.str();
  if (loc.empty()) return message;
  return loc + ": " + message;
}

void sort_diagnostics(std::vector<Diagnostic>* diags) {
  std::stable_sort(diags->begin(), diags->end(), [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.where.file, a.where.line, a.where.column) <
           std::tie(b.where.file, b.where.line, b.where.column);
  });
}

}  // namespace aj
