// The slow paths of json_lexer: strings with escapes, and values skipped
// whole. The common case (a string without escapes, a number, a member) is
// inline in the header.
#include "detail/json_lexer.h"

#include <cstdint>

#include "detail/utf8.h"

namespace sitemill::detail {
namespace {

// What skip_value() is told about a value: nothing.
struct ignore_tokens {
  void begin_object(std::size_t) noexcept {}
  void end_object(std::size_t) noexcept {}
  void begin_list(std::size_t) noexcept {}
  void end_list(std::size_t) noexcept {}
  void key(std::string_view, std::size_t) noexcept {}
  void string(std::string_view, std::size_t) noexcept {}
  void number(std::string_view, std::size_t) noexcept {}
  void literal(std::string_view, std::size_t) noexcept {}
};

}  // namespace

bool json_lexer::skip_value(int depth, std::string& scratch) {
  ignore_tokens ignore;
  return read_value(ignore, scratch, depth);
}

bool json_lexer::hex4(unsigned& out) {
  if (end_ - p_ < 4) return fail("invalid \\u escape");
  out = 0;
  for (int i = 0; i < 4; ++i) {
    const char c = *p_++;
    unsigned digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<unsigned>(c - 'A' + 10);
    } else {
      --p_;  // the error is at the byte that is no hex digit
      return fail("invalid \\u escape");
    }
    out = out << 4 | digit;
  }
  return true;
}

bool json_lexer::read_escaped(const char* start, std::string_view& out,
                              std::string& scratch) {
  scratch.assign(start, p_);
  for (;;) {
    if (p_ == end_) return fail("unterminated string");
    const char c = *p_;
    if (c == '"') {
      ++p_;
      out = scratch;
      return true;
    }
    if (static_cast<unsigned char>(c) < 0x20) {
      return fail("control character in a string");
    }
    if (c != '\\') {
      scratch.push_back(c);
      ++p_;
      continue;
    }
    ++p_;
    if (p_ == end_) return fail("unterminated string");
    const char e = *p_++;
    switch (e) {
      case '"':
        scratch.push_back('"');
        break;
      case '\\':
        scratch.push_back('\\');
        break;
      case '/':
        scratch.push_back('/');
        break;
      case 'b':
        scratch.push_back('\b');
        break;
      case 'f':
        scratch.push_back('\f');
        break;
      case 'n':
        scratch.push_back('\n');
        break;
      case 'r':
        scratch.push_back('\r');
        break;
      case 't':
        scratch.push_back('\t');
        break;
      case 'u': {
        unsigned cp = 0;
        if (!hex4(cp)) return false;
        // RFC 8259 section 7: a code point above U+FFFF is a surrogate pair;
        // half of one is no character and cannot be written as UTF-8.
        if (cp >= 0xDC00 && cp <= 0xDFFF)
          return fail("unpaired surrogate in \\u escape");
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          unsigned low = 0;
          if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') {
            return fail("unpaired surrogate in \\u escape");
          }
          p_ += 2;
          if (!hex4(low)) return false;
          if (low < 0xDC00 || low > 0xDFFF)
            return fail("unpaired surrogate in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(static_cast<char32_t>(cp), scratch);
        break;
      }
      default:
        --p_;  // the error is at the escaped byte
        return fail("invalid escape in a string");
    }
  }
}

}  // namespace sitemill::detail
