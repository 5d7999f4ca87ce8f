// sitemill internals: the byte classes and small readers xml_scanner is
// made of (XML 1.0 Char, ASCII names, the 5 predefined entities and
// character references, the namespace names it takes), eight bytes at a time
// where the scanner's hot loops need it.
#ifndef SITEMILL_PARSE_XML_BYTES_H
#define SITEMILL_PARSE_XML_BYTES_H

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "detail/utf8.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sitemill::detail::xml_bytes {

using uchar = unsigned char;

// XML's S, less CR: libxml2 folds CR LF and a lone CR into LF before it
// counts lines, which the scanner does not do, so a CR hands over.
constexpr bool is_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n';
}
// ASCII names only (NCName's first ranges): 1 may start a name, 2 may
// follow; a name with any other character is libxml2's to read.
constexpr std::array<std::uint8_t, 256> make_name_bytes() {
  std::array<std::uint8_t, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[static_cast<std::size_t>(c)] = 3;
  for (int c = 'A'; c <= 'Z'; ++c) t[static_cast<std::size_t>(c)] = 3;
  t['_'] = 3;
  for (int c = '0'; c <= '9'; ++c) t[static_cast<std::size_t>(c)] = 2;
  t['-'] = t['.'] = 2;
  return t;
}
inline constexpr std::array<std::uint8_t, 256> name_bytes = make_name_bytes();
constexpr bool name_start(char c) noexcept {
  return (name_bytes[static_cast<unsigned char>(c)] & 1) != 0;
}
constexpr bool name_char(char c) noexcept {
  return name_bytes[static_cast<unsigned char>(c)] != 0;
}

// A QName at `q`: NCName (':' NCName)?, ASCII only. done with the parts,
// more when the bytes end inside it, stop when it is not one (or is too
// long) and libxml2 should say so.
enum class name_read : std::uint8_t { done, more, bad };
inline name_read read_qname(const char*& q, const char* e,
                            std::string_view& prefix, std::string_view& local,
                            std::size_t max_name) {
  const char* s = q;
  const auto ncname = [&]() -> name_read {
    if (q >= e) return name_read::more;
    if (!name_start(*q)) return name_read::bad;
    ++q;
    while (q < e && name_char(*q)) ++q;
    return q >= e ? name_read::more : name_read::done;
  };
  name_read r = ncname();
  if (r != name_read::done) return r;
  prefix = {};
  if (*q == ':') {
    prefix = std::string_view(s, static_cast<std::size_t>(q - s));
    ++q;
    const char* l = q;
    r = ncname();
    if (r != name_read::done) return r;
    local = std::string_view(l, static_cast<std::size_t>(q - l));
  } else {
    local = std::string_view(s, static_cast<std::size_t>(q - s));
  }
  // What follows a name is a space, '=', '>' or '/'; anything else (a second
  // colon, a non-ASCII name character) is libxml2's to read.
  if (static_cast<std::size_t>(q - s) > max_name ||
      !(is_space(*q) || *q == '=' || *q == '>' || *q == '/'))
    return name_read::bad;
  return name_read::done;
}

// XML 1.0's Char (section 2.2).
constexpr bool is_char(std::uint32_t v) noexcept {
  return v == 0x9 || v == 0xA || v == 0xD || (v >= 0x20 && v <= 0xD7FF) ||
         (v >= 0xE000 && v <= 0xFFFD) || (v >= 0x10000 && v <= 0x10FFFF);
}

// Eight bytes at a time (the scanner's hot loops; the prototype's
// measurements, docs/architecture.md).
inline constexpr std::uint64_t ones = 0x0101010101010101u;
inline constexpr std::uint64_t highs = 0x8080808080808080u;
inline std::uint64_t load8(const char* p) noexcept {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}
// 0x80 in each byte of `w` that is zero, and only there.
constexpr std::uint64_t zero_bytes(std::uint64_t w) noexcept {
  const std::uint64_t low7 = ~highs;
  return ~(((w & low7) + low7) | w | low7);
}

// Characters in [b, e): bytes less UTF-8 continuation bytes (10xxxxxx).
inline std::uint64_t chars(const char* b, const char* e) noexcept {
  std::uint64_t n = static_cast<std::uint64_t>(e - b);
#if defined(__SSE2__)
  // As signed bytes, continuation bytes are those below -64 (0xC0).
  for (; e - b >= 16; b += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
    if (_mm_movemask_epi8(v) == 0) continue;  // ASCII
    n -= static_cast<std::uint64_t>(__builtin_popcount(static_cast<unsigned>(
        _mm_movemask_epi8(_mm_cmplt_epi8(v, _mm_set1_epi8(-64))))));
  }
#endif
  for (; e - b >= 8; b += 8) {
    const std::uint64_t w = load8(b);
    if ((w & highs) != 0)
      n -= static_cast<std::uint64_t>(
          __builtin_popcountll(w & ~(w << 1) & highs));
  }
  for (; b < e; ++b) n -= (static_cast<uchar>(*b) & 0xC0) == 0x80;
  return n;
}

// LF bytes in [b, e).
inline std::uint64_t newlines(const char* b, const char* e) noexcept {
  std::uint64_t n = 0;
  for (; e - b >= 8; b += 8)
    n += static_cast<std::uint64_t>(
        __builtin_popcountll(zero_bytes(load8(b) ^ ('\n' * ones))));
  for (; b < e; ++b) n += *b == '\n';
  return n;
}

inline std::uint32_t load4(const char* p) noexcept {
  std::uint32_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

// The first and last 8 bytes of a name (or, when shorter, its first and
// last 4, or its first, middle and last byte) mixed with its length: names
// differ there, and it costs a few instructions (no call to memcpy with a
// variable size).
inline std::uint32_t name_hash(std::string_view s) noexcept {
  std::uint64_t a, b;
  const char* d = s.data();
  const std::size_t n = s.size();
  if (n >= 8) {
    a = load8(d);
    b = load8(d + n - 8);
  } else if (n >= 4) {
    a = load4(d);
    b = load4(d + n - 4);
  } else if (n > 0) {
    a = static_cast<uchar>(d[0]) |
        (static_cast<std::uint64_t>(static_cast<uchar>(d[n / 2])) << 8);
    b = static_cast<uchar>(d[n - 1]);
  } else {
    a = b = 0;
  }
  std::uint64_t h = (a * 0x9E3779B97F4A7C15u) ^ (b * 0xC2B2AE3D27D4EB4Fu) ^
                    (n * 0x165667B19E3779F9u);
  h ^= h >> 29;
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

// One of 64 slots for a name, by its length, first and last byte: the few
// names of a sitemap each get their own.
inline std::size_t name_slot(std::string_view s) noexcept {
  if (s.empty()) return 0;
  return (s.size() ^ (static_cast<std::size_t>(static_cast<uchar>(s[0])) << 1) ^
          static_cast<uchar>(s.back())) &
         63;
}

inline bool same_bytes(const char* x, const char* y, std::size_t n) noexcept {
  if (n >= 8 && n <= 16)
    return load8(x) == load8(y) && load8(x + n - 8) == load8(y + n - 8);
  if (n >= 4 && n < 8)
    return load4(x) == load4(y) && load4(x + n - 4) == load4(y + n - 4);
  if (n < 4) {
    for (std::size_t i = 0; i < n; ++i)
      if (x[i] != y[i]) return false;
    return true;
  }
  return std::memcmp(x, y, n) == 0;
}

// Sixteen bytes of printable ASCII: as signed bytes, all at least 0x20.
inline bool printable16(const char* p) noexcept {
#if defined(__SSE2__)
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return _mm_movemask_epi8(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20))) == 0;
#else
  (void)p;
  return false;
#endif
}

// Eight bytes of printable ASCII (no control character, no byte above
// 0x7F): text() passes over them at once.
constexpr bool printable8(std::uint64_t w) noexcept {
  return ((w & highs) | zero_bytes(w & (0xE0 * ones))) == 0;
}

// Where a run of text stops being plain: the first byte in [s, e) that is a
// control character (TAB and LF too), above 0x7F, '<', '&' or ']'; `e` when
// none is. text() reads a text in one pass with it, sixteen bytes at a time.
constexpr std::array<bool, 256> make_text_stops() {
  std::array<bool, 256> t{};
  for (std::size_t c = 0; c < 256; ++c)
    t[c] = c < 0x20 || c >= 0x80 || c == '<' || c == '&' || c == ']';
  return t;
}
inline constexpr std::array<bool, 256> text_stops = make_text_stops();
inline const char* text_stop(const char* s, const char* e) noexcept {
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(0x20);
  const __m128i lt = _mm_set1_epi8('<');
  const __m128i amp = _mm_set1_epi8('&');
  const __m128i bracket = _mm_set1_epi8(']');
  for (; e - s >= 16; s += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    // As signed bytes, those above 0x7F are below 0x20 too.
    const __m128i stop = _mm_or_si128(
        _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, lt)),
        _mm_or_si128(_mm_cmpeq_epi8(v, amp), _mm_cmpeq_epi8(v, bracket)));
    const int bits = _mm_movemask_epi8(stop);
    if (bits != 0) return s + __builtin_ctz(static_cast<unsigned>(bits));
  }
#endif
  for (; s < e; ++s)
    if (text_stops[static_cast<uchar>(*s)]) return s;
  return e;
}

// No LF and no byte above 0x7F in [b, e): a column there moves by bytes.
inline bool ascii_one_line(const char* b, const char* e) noexcept {
#if defined(__SSE2__)
  const __m128i lf = _mm_set1_epi8('\n');
  for (; e - b >= 16; b += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
    if (_mm_movemask_epi8(_mm_or_si128(v, _mm_cmpeq_epi8(v, lf))) != 0)
      return false;
  }
#endif
  for (; e - b >= 8; b += 8) {
    const std::uint64_t w = load8(b);
    if (((w & highs) | zero_bytes(w ^ ('\n' * ones))) != 0) return false;
  }
  for (; b < e; ++b)
    if (static_cast<uchar>(*b) >= 0x80 || *b == '\n') return false;
  return true;
}

// Length of the non-ASCII character at `s` (well-formed UTF-8 and an XML
// Char), or 0.
inline std::size_t wide_char(const char* s, const char* e) noexcept {
  const std::size_t n = utf8_sequence_length(
      std::string_view(s, static_cast<std::size_t>(e - s)), 0);
  if (n == 3 && static_cast<uchar>(s[0]) == 0xEF &&
      static_cast<uchar>(s[1]) == 0xBF &&
      (static_cast<uchar>(s[2]) & 0xFE) == 0xBE)
    return 0;  // U+FFFE, U+FFFF
  return n;
}

// Comment, PI and CDATA content: characters, no CR.
inline bool plain_chars(const char* s, const char* e) noexcept {
  while (s < e) {
    const auto c = static_cast<uchar>(*s);
    if (c >= 0x80) {
      const std::size_t n = wide_char(s, e);
      if (n == 0) return false;
      s += n;
    } else if (c < 0x20 && c != '\t' && c != '\n') {
      return false;
    } else {
      ++s;
    }
  }
  return true;
}

// A reference at s[0] == '&', ending before `e`: the character it stands
// for, or 0 when it is not one of the 5 predefined entities or a character
// reference to an XML Char. `next` is past its ';'.
inline std::uint32_t reference(const char* s, const char* e,
                               const char*& next) {
  const auto semi = static_cast<const char*>(std::memchr(
      s, ';', static_cast<std::size_t>(std::min<std::ptrdiff_t>(e - s, 12))));
  if (semi == nullptr) return 0;
  next = semi + 1;
  const std::string_view name(s + 1, static_cast<std::size_t>(semi - s - 1));
  if (name == "amp") return '&';
  if (name == "lt") return '<';
  if (name == "gt") return '>';
  if (name == "quot") return '"';
  if (name == "apos") return '\'';
  if (name.size() < 2 || name[0] != '#') return 0;
  std::uint32_t v = 0;
  const bool hex = name[1] == 'x';
  const std::string_view digits = name.substr(hex ? 2 : 1);
  if (digits.empty() || digits.size() > 8) return 0;
  for (const char c : digits) {
    std::uint32_t d;
    if (c >= '0' && c <= '9') {
      d = static_cast<std::uint32_t>(c - '0');
    } else if (hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f') {
      d = static_cast<std::uint32_t>((c | 0x20) - 'a' + 10);
    } else {
      return 0;
    }
    v = v * (hex ? 16 : 10) + d;
  }
  return is_char(v) ? v : 0;
}

// A namespace name xmlParseURI reads without complaint and with a scheme
// (libxml2 warns about a relative default namespace): scheme ":" and then,
// after an optional "//" authority of unreserved characters and
// sub-delimiters but '&', a path of those and ':' '@' '/'. No '%', '?', '#',
// brackets, ports or user info: a namespace that has them goes to libxml2.
inline bool plain_absolute_uri(std::string_view u) noexcept {
  const auto unreserved_or_sub = [](char c) {
    // Not '&': in the attribute it starts a reference.
    return name_char(c) || c == '~' || c == '!' || c == '$' || c == '\'' ||
           c == '(' || c == ')' || c == '*' || c == '+' || c == ',' ||
           c == ';' || c == '=';
  };
  std::size_t i = 0;
  if (u.empty() || !((u[0] | 0x20) >= 'a' && (u[0] | 0x20) <= 'z'))
    return false;
  while (i < u.size() && u[i] != ':') {
    const char c = u[i];
    if (!(name_char(c) && c != '_') && c != '+') return false;
    ++i;
  }
  if (i == u.size()) return false;
  ++i;
  if (u.substr(i, 2) == "//") {
    i += 2;
    while (i < u.size() && u[i] != '/') {
      if (!unreserved_or_sub(u[i])) return false;
      ++i;
    }
  }
  for (; i < u.size(); ++i)
    if (!unreserved_or_sub(u[i]) && u[i] != ':' && u[i] != '@' && u[i] != '/')
      return false;
  return true;
}

}  // namespace sitemill::detail::xml_bytes

#endif  // SITEMILL_PARSE_XML_BYTES_H
