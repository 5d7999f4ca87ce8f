#include "sitemill/xml_escape.h"

#include <array>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sitemill {
namespace {

// Extra bytes each character costs once escaped; 0 for bytes copied as is.
constexpr std::array<std::uint8_t, 256> make_extra() {
  std::array<std::uint8_t, 256> t{};
  t['&'] = 4;   // &amp;
  t['\''] = 5;  // &apos;
  t['"'] = 5;   // &quot;
  t['<'] = 3;   // &lt;
  t['>'] = 3;   // &gt;
  return t;
}
constexpr auto extra = make_extra();

std::string_view entity(char c) noexcept {
  switch (c) {
    case '&':
      return "&amp;";
    case '\'':
      return "&apos;";
    case '"':
      return "&quot;";
    case '<':
      return "&lt;";
    default:
      return "&gt;";
  }
}

// True when any of the 8 bytes of `v` is one of & ' " < > (SWAR: a byte
// equals c exactly when (v ^ c*0x01..01) has a zero byte there).
[[maybe_unused]] inline bool has_special(std::uint64_t v) noexcept {
  constexpr std::uint64_t ones = 0x0101010101010101ull,
                          highs = 0x8080808080808080ull;
  auto zero_byte = [](std::uint64_t x) { return (x - ones) & ~x & highs; };
  return zero_byte(v ^ (ones * '&')) | zero_byte(v ^ (ones * '\'')) |
         zero_byte(v ^ (ones * '"')) | zero_byte(v ^ (ones * '<')) |
         zero_byte(v ^ (ones * '>'));
}

#if defined(__SSE2__)
// Bit i set when byte i of the 16 at `p` is one of & ' " < >. '&' and '\''
// are 0x26 and 0x27, '<' and '>' 0x3C and 0x3E: or-ing in the low bit (and
// bit 1) folds each pair onto one compare.
inline unsigned special_mask(const char* p) noexcept {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i amp_apos =
      _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(1)), _mm_set1_epi8('\''));
  const __m128i lt_gt =
      _mm_cmpeq_epi8(_mm_or_si128(v, _mm_set1_epi8(2)), _mm_set1_epi8('>'));
  const __m128i quot = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
  return static_cast<unsigned>(
      _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(amp_apos, lt_gt), quot)));
}
#endif

}  // namespace

void append_xml_escaped(std::string& out, std::string_view text) {
  const char* run = text.data();
  const char* const end = text.data() + text.size();
  const char* p = run;
  auto escape_at = [&](const char* q) {
    out.append(run, q);
    out.append(entity(*q));
    run = q + 1;
  };
#if defined(__SSE2__)
  // 16 bytes per step; most URLs have no special byte at all.
  for (; end - p >= 16; p += 16) {
    for (unsigned m = special_mask(p); m != 0; m &= m - 1)
      escape_at(p + __builtin_ctz(m));
  }
  if (p != end && text.size() >= 16) {
    // The last 16 bytes, overlapping those checked: their new lanes only,
    // instead of a byte loop over the rest.
    const char* const last = end - 16;
    const unsigned seen = static_cast<unsigned>(p - last);
    for (unsigned m = special_mask(last) >> seen << seen; m != 0; m &= m - 1)
      escape_at(last + __builtin_ctz(m));
    p = end;
  }
#else
  // Skip 8 clean bytes at a time; the byte loop below takes the rest.
  for (; end - p >= 8; p += 8) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    if (!has_special(v)) continue;
    for (const char* q = p; q != p + 8; ++q)
      if (extra[static_cast<unsigned char>(*q)] != 0) escape_at(q);
  }
#endif
  for (; p != end; ++p)
    if (extra[static_cast<unsigned char>(*p)] != 0) escape_at(p);
  out.append(run, end);
}

void append_xml_escaped_exact(std::string& out, std::string_view text,
                              bool attribute) {
  const std::string_view whitespace =
      attribute ? std::string_view("\t\n\r") : std::string_view("\r");
  for (;;) {
    const std::size_t at = text.find_first_of(whitespace);
    append_xml_escaped(out, text.substr(0, at));
    if (at == std::string_view::npos) return;
    out += text[at] == '\t' ? "&#9;" : text[at] == '\n' ? "&#10;" : "&#13;";
    text.remove_prefix(at + 1);
  }
}

std::size_t xml_escaped_size(std::string_view text) noexcept {
  std::size_t n = text.size();
  for (char c : text) n += extra[static_cast<unsigned char>(c)];
  return n;
}

void append_xml_unescaped(std::string& out, std::string_view escaped) {
  static constexpr std::pair<std::string_view, char> references[] = {
      {"&amp;", '&'},
      {"&apos;", '\''},
      {"&quot;", '"'},
      {"&lt;", '<'},
      {"&gt;", '>'}};
  while (!escaped.empty()) {
    const std::size_t amp = escaped.find('&');
    out.append(escaped.substr(0, amp));
    if (amp == std::string_view::npos) return;
    escaped.remove_prefix(amp);
    bool known = false;
    for (const auto& [ref, c] : references) {
      if (escaped.starts_with(ref)) {
        out += c;
        escaped.remove_prefix(ref.size());
        known = true;
        break;
      }
    }
    if (!known) {
      out += '&';
      escaped.remove_prefix(1);
    }
  }
}

}  // namespace sitemill
