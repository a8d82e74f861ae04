#include "journal/json_read.h"

#include <fmt/format.h>

#include <charconv>

#include "base/utf8.h"

namespace aj {
namespace {

constexpr int kMaxDepth = 64;

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  Result<JsonValue> document() {
    JsonValue v = AJ_TRY(value(0));
    skip_space();
    if (i_ != s_.size()) return error("unexpected text after the value");
    return v;
  }

 private:
  Unexpected<Error> error(std::string_view what) const {
    return fail(fmt::format("at byte {}: {}", i_, what));
  }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  bool eat(char c) {
    skip_space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }

  Result<JsonValue> value(int depth) {
    if (depth > kMaxDepth) return error("nested too deeply");
    skip_space();
    if (i_ >= s_.size()) return error("expected a value");
    JsonValue v;
    char c = s_[i_];
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    if (c == '"') {
      v.kind = JsonValue::Kind::kString;
      v.text = AJ_TRY(string());
    } else if (literal("true") || literal("false")) {
      v.kind = JsonValue::Kind::kBool;
      v.boolean = c == 't';
    } else if (literal("null")) {
      v.kind = JsonValue::Kind::kNull;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = JsonValue::Kind::kNumber;
      v.text = AJ_TRY(number());
    } else {
      return error("expected a value");
    }
    return v;
  }

  Result<JsonValue> object(int depth) {
    ++i_;  // '{'
    JsonValue v;
    v.kind = JsonValue::Kind::kObject;
    if (eat('}')) return v;
    do {
      skip_space();
      if (i_ >= s_.size() || s_[i_] != '"') return error("expected a member name");
      std::string key = AJ_TRY(string());
      if (!eat(':')) return error("expected ':'");
      JsonValue member = AJ_TRY(value(depth + 1));
      v.members.emplace_back(std::move(key), std::move(member));
    } while (eat(','));
    if (!eat('}')) return error("expected ',' or '}'");
    return v;
  }

  Result<JsonValue> array(int depth) {
    ++i_;  // '['
    JsonValue v;
    v.kind = JsonValue::Kind::kArray;
    if (eat(']')) return v;
    do {
      v.items.push_back(AJ_TRY(value(depth + 1)));
    } while (eat(','));
    if (!eat(']')) return error("expected ',' or ']'");
    return v;
  }

  Result<std::string> number() {
    std::size_t start = i_;
    auto digits = [&] {
      std::size_t from = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ > from;
    };
    if (s_[i_] == '-') ++i_;
    if (i_ < s_.size() && s_[i_] == '0') {
      ++i_;
    } else if (!digits()) {
      return error("expected digits");
    }
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (!digits()) return error("expected digits after '.'");
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (!digits()) return error("expected an exponent");
    }
    return std::string(s_.substr(start, i_ - start));
  }

  Result<std::uint32_t> hex4() {
    if (s_.size() - i_ < 4) return error("expected four hex digits");
    std::uint32_t cp = 0;
    auto [end, ec] = std::from_chars(s_.data() + i_, s_.data() + i_ + 4, cp, 16);
    if (ec != std::errc() || end != s_.data() + i_ + 4) return error("expected four hex digits");
    i_ += 4;
    return cp;
  }

  Result<void> escape(std::string& out) {
    if (i_ >= s_.size()) return error("unterminated escape");
    char e = s_[i_++];
    switch (e) {
      case '"': out += '"'; return {};
      case '\\': out += '\\'; return {};
      case '/': out += '/'; return {};
      case 'b': out += '\b'; return {};
      case 'f': out += '\f'; return {};
      case 'n': out += '\n'; return {};
      case 'r': out += '\r'; return {};
      case 't': out += '\t'; return {};
      case 'u': break;
      default: --i_; return error("invalid escape");
    }
    std::uint32_t cp = AJ_TRY(hex4());
    if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(i_, 2) == "\\u") {
      std::size_t save = i_;
      i_ += 2;
      std::uint32_t low = AJ_TRY(hex4());
      if (low >= 0xDC00 && low < 0xE000) {
        append_utf8(out, 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00));
        return {};
      }
      i_ = save;
    }
    // A lone surrogate is not a character: stand in U+FFFD, as the writer does.
    append_utf8(out, cp >= 0xD800 && cp < 0xE000 ? 0xFFFD : cp);
    return {};
  }

  Result<std::string> string() {
    ++i_;  // '"'
    std::string out;
    while (true) {
      if (i_ >= s_.size()) return error("unterminated string");
      unsigned char c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') {
        ++i_;
        return out;
      }
      if (c == '\\') {
        ++i_;
        AJ_TRY(escape(out));
      } else if (c < 0x20) {
        return error("control character in a string");
      } else if (c < 0x80) {
        out += static_cast<char>(c);
        ++i_;
      } else {
        std::size_t n = utf8_sequence_length(s_, i_);
        if (n == 0) return error("invalid UTF-8");
        out.append(s_.substr(i_, n));
        i_ += n;
      }
    }
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace

const JsonValue* JsonValue::get(std::string_view key) const {
  for (const auto& [k, v] : members)
    if (k == key) return &v;
  return nullptr;
}

std::optional<std::int64_t> JsonValue::as_int() const {
  if (kind != Kind::kNumber) return std::nullopt;
  std::int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return n;
}

std::optional<std::uint64_t> JsonValue::as_uint() const {
  if (kind != Kind::kNumber) return std::nullopt;
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return n;
}

std::string JsonValue::string_or(std::string_view key, std::string_view fallback) const {
  const JsonValue* v = get(key);
  return v && v->is_string() ? v->text : std::string(fallback);
}

Result<JsonValue> parse_json(std::string_view text) { return Parser(text).document(); }

}  // namespace aj
