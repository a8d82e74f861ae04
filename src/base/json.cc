#include "base/json.h"

#include <fmt/format.h>

#include "base/utf8.h"

namespace aj {

void json_append(std::string& out, std::string_view s) {
  out.reserve(out.size() + s.size() + 2);
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    // A run of printable ASCII needs no escaping: appended at once.
    std::size_t plain = i;
    while (plain < s.size()) {
      unsigned char c = static_cast<unsigned char>(s[plain]);
      if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') break;
      ++plain;
    }
    if (plain > i) {
      out.append(s.substr(i, plain - i));
      i = plain;
      continue;
    }
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
      ++i;
    } else if (c < 0x20 || c == 0x7f) {
      switch (c) {
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        case '\r': out += "\\r"; break;
        default: fmt::format_to(std::back_inserter(out), "\\u{:04x}", c);
      }
      ++i;
    } else {
      std::size_t n = utf8_sequence_length(s, i);
      if (n == 0) {
        out += "\xEF\xBF\xBD";  // U+FFFD for a byte that is not UTF-8
        ++i;
      } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(s[i + 1]) <= 0x9F) {
        // C1 controls (U+0080-U+009F) are control characters too: escaped,
        // so that a terminal showing the raw file does not act on them.
        fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned char>(s[i + 1]));
        i += 2;
      } else {
        out.append(s.substr(i, n));
        i += n;
      }
    }
  }
  out += '"';
}

std::string json_string(std::string_view s) {
  std::string out;
  json_append(out, s);
  return out;
}

}  // namespace aj
