// A strict JSON (RFC 8259) reader over one text in memory, pulled by the
// caller: the piece under source/jsonl_reader.cpp, which maps what it reads
// onto records. Hand-written rather than nlohmann::json or simdjson because
// it gives views instead of copies, keeps a number's text as written ("0.80"
// stays "0.80"), reports the column of the first error, passes bytes that are
// not UTF-8 on for the caller to judge, and is faster than both on JSONL
// (benchmarks/README.md, "Readers against libraries").
//
// Contract:
// - The caller walks a value: peek() says what starts there, each_member() and
//   each_element() step through an object or a list and hand each member or
//   element to a callback, which must read it whole (read_string(),
//   read_number(), literal(), a nested each_*(), or skip_value()).
//   read_value() does the walk for a visitor, and skip_value() checks a value
//   without keeping it.
// - A string without escapes is a view into the text; one with escapes is
//   decoded into the caller's scratch string (valid until that string is used
//   again). Decoded text is never longer than the JSON that spells it.
// - A number is its text as written, checked against the grammar, never
//   converted.
// - A call that meets invalid JSON returns false and leaves in error() a
//   reason (a static string) and the byte offset where it was found; the
//   callbacks return false on to the caller, which stops (there is no
//   recovery within a text). Nothing throws but std::string growth; nothing
//   reads outside the text.
// - Limits: containers nested deeper than max_depth are refused, so the
//   recursion of skip_value() and read_value() stays bounded on any input.
//
// What it does not do: validate UTF-8 (bytes pass through; "\u" escapes are
// checked and give UTF-8), notice duplicate keys, convert numbers, skip a BOM
// or comments, or require the text to end after a value (read_document()
// does; a caller of read_value() checks at_end() after skip_space()). Not
// thread-safe; one reader per thread.
#ifndef SITEMILL_DETAIL_JSON_LEXER_H
#define SITEMILL_DETAIL_JSON_LEXER_H

#include <cstddef>
#include <string>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sitemill::detail {

/// Where and why a JSON text was refused.
struct json_error {
  std::string_view reason;  ///< a static string: "unterminated string", ...
  std::size_t offset = 0;   ///< bytes from the start of the text
};

/// The first byte from `p` on that ends a run of plain string text: '"',
/// '\\' or a control byte; `end` when there is none.
inline const char* json_plain_run_end(const char* p, const char* end) noexcept {
#if defined(__SSE2__)
  // 16 bytes per step, as a loc is long and plain: the byte loop made the
  // JSONL reader slower than simdjson (benchmarks/README.md). min_epu8
  // compares unsigned, so UTF-8 bytes (0x80 and up) count as plain.
  for (; end - p >= 16; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    const __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    const __m128i control =
        _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
    const auto m = static_cast<unsigned>(_mm_movemask_epi8(
        _mm_or_si128(_mm_or_si128(quote, backslash), control)));
    if (m != 0) return p + __builtin_ctz(m);
  }
#endif
  while (p != end && *p != '"' && *p != '\\' &&
         static_cast<unsigned char>(*p) >= 0x20) {
    ++p;
  }
  return p;
}

class json_lexer {
 public:
  /// Containers nested deeper than this are refused ("values nested too
  /// deeply"): a line of 100,000 '[' cannot exhaust the stack.
  static constexpr int max_depth = 256;

  /// Starts reading `text`, which must outlive the views handed out.
  void reset(std::string_view text) noexcept {
    begin_ = p_ = text.data();
    end_ = p_ + text.size();
    error_ = {};
  }

  [[nodiscard]] std::size_t size() const noexcept {
    return static_cast<std::size_t>(end_ - begin_);
  }
  /// Bytes read so far: the offset of the next byte.
  [[nodiscard]] std::size_t offset() const noexcept {
    return static_cast<std::size_t>(p_ - begin_);
  }
  [[nodiscard]] bool at_end() const noexcept { return p_ == end_; }
  /// The next byte; requires !at_end().
  [[nodiscard]] char peek() const noexcept { return *p_; }
  /// The offset of the opening quote of the key each_member() handed on last.
  [[nodiscard]] std::size_t key_offset() const noexcept { return key_at_; }
  [[nodiscard]] const json_error& error() const noexcept { return error_; }

  static bool is_space(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }
  static bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
  /// Whether a value that starts with `c` is a number.
  static bool starts_number(char c) noexcept { return c == '-' || is_digit(c); }

  void skip_space() noexcept {
    while (p_ != end_ && is_space(*p_)) ++p_;
  }

  /// Records the error `reason` at the current offset; returns false.
  bool fail(std::string_view reason) noexcept {
    error_ = {reason, offset()};
    return false;
  }

  /// The string at the next byte (its opening quote): a view into the text
  /// when it has no escapes, else the decoded text in `scratch`.
  bool read_string(std::string_view& out, std::string& scratch) {
    const char* start = ++p_;
    p_ = json_plain_run_end(p_, end_);
    if (p_ != end_ && *p_ == '"') {
      out = std::string_view(start, p_ - start);
      ++p_;
      return true;
    }
    return read_escaped(start, out, scratch);
  }

  /// The number at the next byte, as written:
  /// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  bool read_number(std::string_view& out) {
    const char* start = p_;
    if (*p_ == '-') ++p_;
    if (p_ == end_ || !is_digit(*p_)) return fail("invalid number");
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ != end_ && is_digit(*p_)) ++p_;
    }
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      if (p_ == end_ || !is_digit(*p_)) return fail("invalid number");
      while (p_ != end_ && is_digit(*p_)) ++p_;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ == end_ || !is_digit(*p_)) return fail("invalid number");
      while (p_ != end_ && is_digit(*p_)) ++p_;
    }
    out = std::string_view(start, p_ - start);
    return true;
  }

  /// `word` (true, false or null) at the next byte.
  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() ||
        std::string_view(p_, word.size()) != word) {
      return fail("invalid literal");
    }
    p_ += word.size();
    return true;
  }

  /// Calls member(key) for each member of the object at the next byte (its
  /// '{'), with the reader on the member's value, which member() reads;
  /// false when the JSON is invalid or member() returned false. `key` may
  /// view `scratch`: good until the next string decoded into it.
  template <class F>
  bool each_member(std::string& scratch, F&& member) {
    ++p_;
    skip_space();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
      return true;
    }
    for (;;) {
      if (p_ == end_ || *p_ != '"') return fail("expected a string key");
      key_at_ = offset();
      std::string_view key;
      if (!read_string(key, scratch)) return false;
      skip_space();
      if (p_ == end_ || *p_ != ':') return fail("expected ':' after a key");
      ++p_;
      skip_space();
      if (p_ == end_) return fail("expected a value");
      if (!member(key)) return false;
      skip_space();
      if (p_ != end_ && *p_ == ',') {
        ++p_;
        skip_space();
        continue;
      }
      if (p_ != end_ && *p_ == '}') {
        ++p_;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }

  /// Calls element() for each element of the list at the next byte (its
  /// '['), with the reader on the element, which element() reads.
  template <class F>
  bool each_element(F&& element) {
    ++p_;
    skip_space();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
      return true;
    }
    for (;;) {
      if (p_ == end_) return fail("expected a value");
      if (!element()) return false;
      skip_space();
      if (p_ != end_ && *p_ == ',') {
        ++p_;
        skip_space();
        continue;
      }
      if (p_ != end_ && *p_ == ']') {
        ++p_;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }

  /// Reads the value at the next byte whole and tells `v` what it holds, in
  /// order: begin_object(offset), key(text, offset), end_object(offset),
  /// begin_list, end_list, string(text, offset), number(text, offset),
  /// literal(word, offset). Offsets are of each token's first byte. `depth`
  /// counts the containers the value is inside (0 for a document).
  template <class V>
  bool read_value(V& v, std::string& scratch, int depth) {
    if (p_ == end_) return fail("expected a value");
    const std::size_t at = offset();
    switch (*p_) {
      case '"': {
        std::string_view text;
        if (!read_string(text, scratch)) return false;
        v.string(text, at);
        return true;
      }
      case 't':
        return literal("true") && (v.literal("true", at), true);
      case 'f':
        return literal("false") && (v.literal("false", at), true);
      case 'n':
        return literal("null") && (v.literal("null", at), true);
      case '{': {
        if (depth == max_depth) return fail("values nested too deeply");
        v.begin_object(at);
        const bool ok = each_member(scratch, [&](std::string_view key) {
          v.key(key, key_at_);
          return read_value(v, scratch, depth + 1);
        });
        if (ok) v.end_object(offset() - 1);
        return ok;
      }
      case '[': {
        if (depth == max_depth) return fail("values nested too deeply");
        v.begin_list(at);
        const bool ok =
            each_element([&] { return read_value(v, scratch, depth + 1); });
        if (ok) v.end_list(offset() - 1);
        return ok;
      }
      default: {
        if (!starts_number(*p_)) return fail("unexpected character");
        std::string_view text;
        if (!read_number(text)) return false;
        v.number(text, at);
        return true;
      }
    }
  }

  /// The whole text as one value, with space around it allowed: what
  /// read_value() tells `v`, and "unexpected text after the value" when more
  /// follows.
  template <class V>
  bool read_document(V& v, std::string& scratch) {
    skip_space();
    if (!read_value(v, scratch, 0)) return false;
    skip_space();
    return p_ == end_ || fail("unexpected text after the value");
  }

  /// Checks and skips the value at the next byte (one the caller does not
  /// read), `depth` containers deep.
  bool skip_value(int depth, std::string& scratch);

 private:
  // read_string() past its first escape or control byte: decodes from
  // `start` (after the opening quote) into `scratch`.
  bool read_escaped(const char* start, std::string_view& out,
                    std::string& scratch);
  bool hex4(unsigned& out);

  const char* begin_ = nullptr;
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  std::size_t key_at_ = 0;
  json_error error_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_JSON_LEXER_H
