// UTF-8 validation shared by the JSON writer, the journal's JSON reader and
// the journal table's display escaping.
#pragma once

#include <cstddef>
#include <string_view>

namespace aj {

// Length of the valid UTF-8 sequence starting at s[i] (1 for ASCII), or 0
// when the bytes there are not valid UTF-8 (overlong forms, surrogates and
// code points above U+10FFFF are invalid).
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);

}  // namespace aj
