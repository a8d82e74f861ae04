// UTF-8 validation shared by the JSON writer, the journal's JSON reader and
// the journal table's display escaping.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace aj {

// Length of the valid UTF-8 sequence starting at s[i] (1 for ASCII), or 0
// when the bytes there are not valid UTF-8 (overlong forms, surrogates and
// code points above U+10FFFF are invalid).
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);

// s with what a terminal would act on made visible: control characters
// (newlines and escapes included: a path of a project's or the command's
// making must not forge a line, move the cursor or set the clipboard), C1
// controls, bidi controls and other invisible characters, and bytes that are
// not UTF-8, as \xNN, \uNNNN or \UNNNNNNNN. kDisplay also writes \n, \t,
// \r and doubles backslashes, so that no text can pass for an escape.
enum class Escapes { kTerminal, kDisplay };
std::string visible_text(std::string_view s, Escapes style);

// visible_text(s, Escapes::kTerminal): for lines agentjail itself writes.
std::string terminal_safe(std::string_view s);

}  // namespace aj
