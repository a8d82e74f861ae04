// A small strict JSON parser for reading journal lines back (RFC 8259: no
// trailing commas, no comments, valid UTF-8, nesting at most 64 deep). Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/error.h"

namespace aj {

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::string text;              // a string's decoded value, or a number's literal text
  std::vector<JsonValue> items;  // array
  std::vector<std::pair<std::string, JsonValue>> members;  // object, in order

  bool is_string() const { return kind == Kind::kString; }
  bool is_number() const { return kind == Kind::kNumber; }
  bool is_object() const { return kind == Kind::kObject; }
  bool is_array() const { return kind == Kind::kArray; }
  bool is_bool() const { return kind == Kind::kBool; }

  // An object's member (the first of that name), or nullptr.
  const JsonValue* get(std::string_view key) const;
  // A number that is an integer in range, or nullopt.
  std::optional<std::int64_t> as_int() const;
  std::optional<std::uint64_t> as_uint() const;
  // A string member's value, or fallback when absent or not a string.
  std::string string_or(std::string_view key, std::string_view fallback = {}) const;
};

// Parses exactly one JSON value (surrounding whitespace allowed). The error
// says where: "at byte 17: expected ':'".
Result<JsonValue> parse_json(std::string_view text);

}  // namespace aj
