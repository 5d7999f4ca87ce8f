#include "parse/url_scan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <array>

#include "detail/text.h"
#include "parse/value_checks.h"

namespace sitemill::detail {
namespace {

// One table lookup per byte of a URL tells everything the checks need, so a
// loc is read once (the parser's hot path: every <loc> of a 50 MB file).
enum : unsigned char {
  k_space = 1,     // XML whitespace
  k_cont = 2,      // a UTF-8 continuation byte
  k_high = 4,      // not ASCII
  k_unsafe = 8,    // a control byte, or one of < > " { } | \ ^ `
  k_special = 16,  // % # [ ], which decide anyURI validity
};

constexpr std::array<unsigned char, 256> make_url_table() {
  std::array<unsigned char, 256> t{};
  for (int c = 0; c < 256; ++c) {
    unsigned char f = 0;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
      f |= k_space;
    else if (c < 0x20 || c == 0x7F)
      f |= k_unsafe;
    if (c >= 0x80) f |= k_high;
    if (c >= 0x80 && c < 0xC0) f |= k_cont;
    if (c == '<' || c == '>' || c == '"' || c == '{' || c == '}' || c == '|' ||
        c == '\\' || c == '^' || c == '`')
      f |= k_unsafe;
    if (c == '%' || c == '#' || c == '[' || c == ']') f |= k_special;
    t[static_cast<std::size_t>(c)] = f;
  }
  return t;
}
constexpr std::array<unsigned char, 256> url_table = make_url_table();

#if defined(__SSE2__)
// Bit i set when byte i of the 16 at `p` may have a flag in url_table: a
// superset (it also marks $ = _ ~, rare in URLs), so that runs of letters,
// digits and / - . ? & cost a few instructions per 16 bytes instead of a
// lookup per byte. On the bench's 50,000-URL file scan_url was 28% of
// sitemill check's instructions (callgrind); see the test
// url_scan_blocks_test.cpp, which checks every byte value at every offset.
unsigned attention_mask(const char* p) noexcept {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  // [lo, lo + span]: v - lo, unsigned, is at most span.
  const auto in_range = [&v](char lo, char span) {
    const __m128i d = _mm_sub_epi8(v, _mm_set1_epi8(lo));
    return _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(span)), d);
  };
  // Signed: controls, the space, and every byte >= 0x80.
  const __m128i low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x21));
  const __m128i high = _mm_cmpgt_epi8(v, _mm_set1_epi8(0x7A));  // { | } ~ DEL
  const __m128i marks = _mm_or_si128(
      _mm_or_si128(in_range(0x22, 3), in_range(0x3C, 2)),  // "#$% <=>
      _mm_or_si128(in_range(0x5B, 3),                      // [\]^
                   _mm_cmpeq_epi8(v, _mm_set1_epi8('`'))));
  return static_cast<unsigned>(
      _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(low, high), marks)));
}
#endif

}  // namespace

url_scan scan_url(std::string_view s) noexcept {
  url_scan r;
  std::size_t continuation = 0, repeated_space = 0;
  const auto visit = [&](std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const unsigned char f = url_table[c];
    if (f == 0) return;
    if (f & k_cont) ++continuation;
    if (f & k_high) r.non_ascii = true;
    if (f & k_space) {
      r.space = true;
      if (i > 0 && is_xml_space(s[i - 1])) ++repeated_space;
    }
    if ((f & k_unsafe) && !r.unsafe) {
      r.unsafe = true;
      r.unsafe_char = static_cast<char>(c);
    }
    if (f & k_special) {
      if (c == '%') {
        if (i + 2 >= s.size() || !is_ascii_hex(s[i + 1]) ||
            !is_ascii_hex(s[i + 2]))
          r.bad_percent = true;
      } else if (c == '#') {
        ++r.hashes;
      } else {
        r.brackets = true;
      }
    }
  };
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= s.size(); i += 16)
    for (unsigned m = attention_mask(s.data() + i); m != 0; m &= m - 1)
      visit(i + static_cast<std::size_t>(__builtin_ctz(m)));
  if (i < s.size() && s.size() >= 16) {
    // The bytes after the last whole block, as the end of a block that
    // overlaps it, without the bytes already seen: each byte once, in order.
    const std::size_t last = s.size() - 16, seen = i - last;
    for (unsigned m = attention_mask(s.data() + last) >> seen << seen; m != 0;
         m &= m - 1)
      visit(last + static_cast<std::size_t>(__builtin_ctz(m)));
    i = s.size();
  }
#endif
  for (; i < s.size(); ++i) visit(i);
  r.chars = s.size() - continuation;
  r.collapsed = r.chars - repeated_space;
  return r;
}

}  // namespace sitemill::detail
