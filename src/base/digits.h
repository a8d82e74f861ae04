// Numbers as text without allocating or locale: for code that runs between
// clone and exec, where only async-signal-safe work is allowed.
#pragma once

#include <cstdint>

namespace aj {

// Writes v in base 8 or 10 at out, NUL-terminated; returns the end (the NUL).
// out needs room for 23 characters in base 8, 21 in base 10.
inline char* write_unsigned(char* out, std::uint64_t v, unsigned base = 10) noexcept {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % base);
    v /= base;
  } while (v != 0);
  while (n > 0) *out++ = digits[--n];
  *out = '\0';
  return out;
}

}  // namespace aj
