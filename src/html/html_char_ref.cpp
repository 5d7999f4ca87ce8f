#include "html/html_char_ref.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "detail/utf8.h"
#include "html/html_entities.inc"

namespace sitemill::detail {
namespace {

constexpr auto& table = html_named_ref_table;

constexpr bool names_sorted() {
  return std::is_sorted(table.begin(), table.end(),
                        [](const html_named_ref& a, const html_named_ref& b) {
                          return a.name < b.name;
                        });
}
static_assert(names_sorted(), "html_entities.inc: regenerate it, unsorted");

// Where the names starting with each byte begin: the first step of a lookup
// is one index instead of a binary search over all 2231 names.
constexpr auto first_byte_starts = [] {
  std::array<std::uint16_t, 257> starts{};
  std::size_t i = 0;
  for (std::size_t byte = 0; byte < 256; ++byte) {
    starts[byte] = static_cast<std::uint16_t>(i);
    while (i < table.size() &&
           static_cast<unsigned char>(table[i].name[0]) == byte)
      ++i;
  }
  starts[256] = static_cast<std::uint16_t>(i);
  return starts;
}();

constexpr bool is_ascii_alnum(char c) noexcept {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
         (c >= 'a' && c <= 'z');
}

// 13.2.5.73: the longest name in the table that `s` starts with; the
// table's end when none. The rows sharing a prefix are a contiguous range
// whose first row is the prefix itself when it is a name, so each byte of
// `s` narrows the range by two binary searches on that byte.
const html_named_ref* longest_name(std::string_view s) noexcept {
  const html_named_ref* best = table.end();
  const auto byte = static_cast<unsigned char>(s[0]);
  const html_named_ref* lo = table.begin() + first_byte_starts[byte];
  const html_named_ref* hi = table.begin() + first_byte_starts[byte + 1];
  for (std::size_t k = 1; lo != hi; ++k) {
    if (lo->name.size() == k) best = lo++;
    if (lo == hi || k == s.size()) break;
    // Every row left is longer than k: name[k] is in bounds. (std::ranges'
    // projection would say it shorter, but clang 14, which the fuzz build
    // uses, cannot compile libstdc++ 12's std::ranges.)
    struct by_byte_k {
      std::size_t k;
      bool operator()(const html_named_ref& r, unsigned char c) const {
        return static_cast<unsigned char>(r.name[k]) < c;
      }
      bool operator()(unsigned char c, const html_named_ref& r) const {
        return c < static_cast<unsigned char>(r.name[k]);
      }
    };
    const auto range = std::equal_range(
        lo, hi, static_cast<unsigned char>(s[k]), by_byte_k{k});
    lo = range.first;
    hi = range.second;
  }
  return best;
}

std::size_t decode_named(std::string_view s, bool in_attribute,
                         std::string& out) {
  // Most references in real pages are the "&amp;" of URLs' query strings:
  // one compare instead of a search (measured at -O2: 31 -> 3 ns). A name
  // ending in ';' is the longest match and is never left as text.
  if (s.starts_with("amp;")) {
    out += '&';
    return 4;
  }
  const html_named_ref* match = longest_name(s);
  // No name: the ambiguous ampersand state (13.2.5.74) leaves it all text.
  if (match == table.end()) return 0;
  const std::size_t length = match->name.size();
  if (in_attribute && match->name.back() != ';' && length < s.size() &&
      (s[length] == '=' || is_ascii_alnum(s[length])))
    return 0;
  out += match->utf8;
  return length;
}

// 13.2.5.80's table: what 0x80 to 0x9F stand for, Windows-1252's characters
// rather than C1 controls; the five Windows-1252 leaves undefined (0x81,
// 0x8D, 0x8F, 0x90, 0x9D) stay themselves.
constexpr std::array<char32_t, 32> c1_replacements = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

// Past U+10FFFF every value decodes alike (U+FFFD), so accumulating digits
// stops growing here: no overflow however long the run of digits.
constexpr std::uint32_t beyond_unicode = 0x110000;

// 13.2.5.80: the code point a numeric reference to `code` stands for.
constexpr char32_t numeric_code_point(std::uint32_t code) noexcept {
  if (code == 0 || code > 0x10FFFF) return 0xFFFD;
  if (code >= 0xD800 && code <= 0xDFFF) return 0xFFFD;
  if (code >= 0x80 && code <= 0x9F) return c1_replacements[code - 0x80];
  return code;
}

// The value of `c` as a digit in `base` (10 or 16); -1 when it is not one.
constexpr int digit_value(char c, unsigned base) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (base == 16) {
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  }
  return -1;
}

// 13.2.5.75 to 13.2.5.80; `s` starts with '#'.
std::size_t decode_numeric(std::string_view s, std::string& out) {
  std::size_t i = 1;
  unsigned base = 10;
  if (i < s.size() && (s[i] == 'x' || s[i] == 'X')) {
    base = 16;
    ++i;
  }
  const std::size_t digits = i;
  std::uint32_t code = 0;
  for (; i < s.size(); ++i) {
    const int d = digit_value(s[i], base);
    if (d < 0) break;
    code =
        std::min(code * base + static_cast<std::uint32_t>(d), beyond_unicode);
  }
  // No digits: "&#", "&#x" and what follows stay text (13.2.5.76, 13.2.5.77).
  if (i == digits) return 0;
  if (i < s.size() && s[i] == ';') ++i;
  // Not a surrogate and at most U+10FFFF: numeric_code_point() saw to both.
  append_utf8(numeric_code_point(code), out);
  return i;
}

}  // namespace

std::size_t decode_char_ref(std::string_view s, bool in_attribute,
                            std::string& out) {
  if (s.empty()) return 0;
  if (s[0] == '#') return decode_numeric(s, out);
  return decode_named(s, in_attribute, out);
}

std::span<const html_named_ref> html_named_refs() noexcept { return table; }

}  // namespace sitemill::detail
