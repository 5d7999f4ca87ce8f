// jsonl / ndjson: one JSON object per line (RFC 8259), keys loc, lastmod,
// changefreq and priority. A small strict parser rather than a JSON library:
// it returns views into the line (copies only for strings with escapes), keeps
// a number's text as written ("0.80" stays "0.80"), and never throws. It is
// also faster than nlohmann::json and simdjson on the same lines
// (benchmarks/README.md, "Readers against libraries").
#include <string>

#include "source/readers.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sitemill::detail {
namespace {

constexpr std::size_t field_count = 4;
constexpr std::string_view key_names[field_count] = {"loc", "lastmod",
                                                     "changefreq", "priority"};
constexpr std::string_view type_problems[field_count] = {
    "field loc must be a string", "field lastmod must be a string",
    "field changefreq must be a string",
    "field priority must be a number or a string"};
constexpr std::string_view duplicate_problems[field_count] = {
    "duplicate key loc", "duplicate key lastmod", "duplicate key changefreq",
    "duplicate key priority"};

// Values nested deeper are refused: recursion depth stays bounded on any line.
constexpr int max_depth = 256;

bool is_json_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

// The first byte from `p` on that ends a run of plain string text: '"',
// '\\' or a control byte; `end` when there is none.
const char* plain_run_end(const char* p, const char* end) noexcept {
#if defined(__SSE2__)
  // 16 bytes per step, as a loc is long and plain: the byte loop made this
  // reader slower than simdjson (benchmarks/README.md). min_epu8 compares
  // unsigned, so UTF-8 bytes (0x80 and up) count as plain.
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

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

class jsonl_reader final : public line_record_reader {
 public:
  using line_record_reader::line_record_reader;

  bool next(input_record& out) override {
    line_reader::line l;
    while (lines_.next(l)) {
      if (!l.too_long && is_blank_line(l.text)) continue;
      out = input_record{};
      out.line = l.number;
      if (l.too_long) {
        out.problem = too_long_;
      } else if (!parse(l.text)) {
        out.problem = problem_;
      } else {
        out.loc = values_[0];
        out.lastmod = values_[1];
        out.changefreq = values_[2];
        out.priority = values_[3];
      }
      return true;
    }
    return false;
  }

 private:
  // Parses one line into values_; false with problem_ set when it is not an
  // object with usable values.
  bool parse(std::string_view text) {
    begin_ = p_ = text.data();
    end_ = p_ + text.size();
    for (std::size_t k = 0; k < field_count; ++k) {
      values_[k] = {};
      seen_[k] = false;
    }
    std::string_view type_problem;
    skip_space();
    if (p_ == end_ || *p_ != '{') {
      problem_ = "invalid JSON: the line is not a JSON object";
      return false;
    }
    ++p_;
    skip_space();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
    } else {
      for (;;) {
        if (p_ == end_ || *p_ != '"') return fail("expected a string key");
        std::string_view key;
        if (!parse_string(key, scratch_)) return false;
        std::size_t k = 0;
        while (k < field_count && key != key_names[k]) ++k;
        skip_space();
        if (p_ == end_ || *p_ != ':') return fail("expected ':' after a key");
        ++p_;
        skip_space();
        if (k == field_count) {
          if (!skip_value(0)) return false;
        } else {
          if (seen_[k] && type_problem.empty())
            type_problem = duplicate_problems[k];
          seen_[k] = true;
          if (!parse_field(k, type_problem)) return false;
        }
        skip_space();
        if (p_ != end_ && *p_ == ',') {
          ++p_;
          skip_space();
          continue;
        }
        if (p_ != end_ && *p_ == '}') {
          ++p_;
          break;
        }
        return fail("expected ',' or '}'");
      }
    }
    skip_space();
    if (p_ != end_) return fail("unexpected text after the object");
    // Only a well-formed line gets a type problem: "invalid JSON" comes first.
    if (!type_problem.empty()) {
      problem_ = type_problem;
      return false;
    }
    return true;
  }

  bool parse_field(std::size_t k, std::string_view& type_problem) {
    if (p_ == end_) return fail("expected a value");
    const char c = *p_;
    if (c == '"') return parse_string(values_[k], owned_[k]);
    if (c == '-' || is_digit(c)) {
      const char* start = p_;
      if (!skip_number()) return false;
      if (k == 3) {
        values_[k] = std::string_view(start, p_ - start);
      } else if (type_problem.empty()) {
        type_problem = type_problems[k];
      }
      return true;
    }
    if (c == 'n') return literal("null");  // null: the field is absent
    if (!skip_value(0)) return false;
    if (type_problem.empty()) type_problem = type_problems[k];
    return true;
  }

  void skip_space() noexcept {
    while (p_ != end_ && is_json_space(*p_)) ++p_;
  }

  bool fail(std::string_view reason) {
    problem_text_ = "invalid JSON: ";
    problem_text_.append(reason);
    problem_text_.append(" at column ");
    problem_text_.append(std::to_string(p_ - begin_ + 1));
    problem_ = problem_text_;
    return false;
  }

  bool literal(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) < word.size() ||
        std::string_view(p_, word.size()) != word) {
      return fail("invalid literal");
    }
    p_ += word.size();
    return true;
  }

  // -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
  bool skip_number() {
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
    return true;
  }

  bool hex4(std::uint32_t& out) {
    if (end_ - p_ < 4) return fail("invalid \\u escape");
    out = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = *p_++;
      std::uint32_t digit = 0;
      if (c >= '0' && c <= '9') {
        digit = static_cast<std::uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        digit = static_cast<std::uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        digit = static_cast<std::uint32_t>(c - 'A' + 10);
      } else {
        --p_;
        return fail("invalid \\u escape");
      }
      out = out << 4 | digit;
    }
    return true;
  }

  // A string at p_ (on its opening quote): a view into the line when it has
  // no escapes, else the decoded text in `scratch`. Bytes are passed through
  // as they are; judging UTF-8 is the entry stage's job.
  bool parse_string(std::string_view& out, std::string& scratch) {
    const char* start = ++p_;
    p_ = plain_run_end(p_, end_);
    if (p_ != end_ && *p_ == '"') {
      out = std::string_view(start, p_ - start);
      ++p_;
      return true;
    }
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
          std::uint32_t cp = 0;
          if (!hex4(cp)) return false;
          if (cp >= 0xDC00 && cp <= 0xDFFF)
            return fail("unpaired surrogate in \\u escape");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            std::uint32_t low = 0;
            if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') {
              return fail("unpaired surrogate in \\u escape");
            }
            p_ += 2;
            if (!hex4(low)) return false;
            if (low < 0xDC00 || low > 0xDFFF)
              return fail("unpaired surrogate in \\u escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          }
          append_utf8(scratch, cp);
          break;
        }
        default:
          --p_;
          return fail("invalid escape in a string");
      }
    }
  }

  // Checks and skips any value (of a key sitemill does not read).
  bool skip_value(int depth) {
    if (p_ == end_) return fail("expected a value");
    switch (*p_) {
      case '"': {
        std::string_view ignored;
        return parse_string(ignored, scratch_);
      }
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      case '{':
      case '[': {
        if (depth == max_depth) return fail("values nested too deeply");
        const char close = *p_ == '{' ? '}' : ']';
        const bool object = close == '}';
        ++p_;
        skip_space();
        if (p_ != end_ && *p_ == close) {
          ++p_;
          return true;
        }
        for (;;) {
          if (object) {
            if (p_ == end_ || *p_ != '"') return fail("expected a string key");
            std::string_view ignored;
            if (!parse_string(ignored, scratch_)) return false;
            skip_space();
            if (p_ == end_ || *p_ != ':')
              return fail("expected ':' after a key");
            ++p_;
            skip_space();
          }
          if (!skip_value(depth + 1)) return false;
          skip_space();
          if (p_ != end_ && *p_ == ',') {
            ++p_;
            skip_space();
            continue;
          }
          if (p_ != end_ && *p_ == close) {
            ++p_;
            return true;
          }
          return fail(object ? "expected ',' or '}'" : "expected ',' or ']'");
        }
      }
      default:
        if (*p_ == '-' || is_digit(*p_)) return skip_number();
        return fail("unexpected character");
    }
  }

  const char* begin_ = nullptr;
  const char* p_ = nullptr;
  const char* end_ = nullptr;
  std::string_view values_[field_count];
  std::string owned_[field_count];
  bool seen_[field_count] = {};
  std::string scratch_;
  std::string_view problem_;
  std::string problem_text_;
};

}  // namespace

std::unique_ptr<record_reader> make_jsonl_reader(
    std::unique_ptr<byte_source> source, std::string name,
    reader_tuning tuning) {
  return std::make_unique<jsonl_reader>(std::move(source), std::move(name),
                                        tuning);
}

}  // namespace sitemill::detail
