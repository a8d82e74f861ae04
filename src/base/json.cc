#include "base/json.h"

#include <fmt/format.h>

#include "base/utf8.h"

namespace aj {

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size();) {
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
        default: out += fmt::format("\\u{:04x}", c);
      }
      ++i;
    } else {
      std::size_t n = utf8_sequence_length(s, i);
      if (n == 0) {
        out += "\xEF\xBF\xBD";  // U+FFFD for a byte that is not UTF-8
        ++i;
      } else {
        out.append(s.substr(i, n));
        i += n;
      }
    }
  }
  out += '"';
  return out;
}

}  // namespace aj
