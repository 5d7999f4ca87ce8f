// The one UTF-8 validator, and the one encoder (append_utf8()): Unicode 15
// table 3-7 (the same set RFC 3629 allows). Inline because URL normalisation
// runs it on every non-ASCII loc.
#ifndef SITEMILL_DETAIL_UTF8_H
#define SITEMILL_DETAIL_UTF8_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace sitemill::detail {

/// Length (1 to 4) of the well-formed UTF-8 sequence that starts at `s[i]`,
/// or 0 when none does: an overlong form, a surrogate, a code point above
/// U+10FFFF, a stray continuation byte or a sequence cut off by the end of
/// `s`. Requires `i < s.size()`.
constexpr std::size_t utf8_sequence_length(std::string_view s,
                                           std::size_t i) noexcept {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return 1;
  std::size_t length;
  // Table 3-7 narrows only the second byte, and only after these leads.
  unsigned char low = 0x80, high = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) low = 0xA0;   // below: overlong
    if (c == 0xED) high = 0x9F;  // above: a surrogate
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) low = 0x90;   // below: overlong
    if (c == 0xF4) high = 0x8F;  // above: beyond U+10FFFF
  } else {
    return 0;
  }
  if (s.size() - i < length) return 0;
  const auto second = static_cast<unsigned char>(s[i + 1]);
  if (second < low || second > high) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  return length;
}

/// Where utf8_sequence_length() is 0: how many bytes (at least 1) the
/// ill-formed part at `s[i]` spans, as "maximal subparts" (Unicode 15,
/// 3.9, and the Encoding standard's decoder) count them: a lead byte and the
/// continuation bytes that could still have completed it. Each such part
/// reads as one U+FFFD. Requires `i < s.size()`.
constexpr std::size_t utf8_invalid_length(std::string_view s,
                                          std::size_t i) noexcept {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    length = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    length = 3;
    if (c == 0xE0) low = 0xA0;
    if (c == 0xED) high = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    length = 4;
    if (c == 0xF0) low = 0x90;
    if (c == 0xF4) high = 0x8F;
  } else {
    return 1;
  }
  std::size_t n = 1;
  while (n < length && i + n < s.size()) {
    const auto b = static_cast<unsigned char>(s[i + n]);
    if (n == 1 ? (b < low || b > high) : (b & 0xC0) != 0x80) break;
    ++n;
  }
  return n;
}

/// `s` with every ill-formed part replaced by U+FFFD, one per maximal
/// subpart (utf8_invalid_length()), as the Encoding standard's decoder
/// reads it.
inline std::string utf8_with_replacements(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 16);
  std::size_t i = 0;
  while (i < s.size()) {
    const std::size_t length = utf8_sequence_length(s, i);
    if (length != 0) {
      out.append(s.substr(i, length));
      i += length;
    } else {
      out.append("\xEF\xBF\xBD");
      i += utf8_invalid_length(s, i);
    }
  }
  return out;
}

/// True when `s` is well-formed UTF-8 from end to end (empty included).
inline bool is_valid_utf8(std::string_view s) noexcept {
  std::size_t i = 0;
  while (i < s.size()) {
    // Most text is ASCII: eight bytes with no high bit are skipped at once.
    if (s.size() - i >= 8) {
      std::uint64_t word;
      std::memcpy(&word, s.data() + i, sizeof word);
      if ((word & 0x8080808080808080u) == 0) {
        i += 8;
        continue;
      }
    }
    const std::size_t length = utf8_sequence_length(s, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

/// True when `s` is well-formed UTF-8 whose every character XML 1.0 can hold
/// (section 2.2, Char): no C0 control but TAB, LF and CR, and neither U+FFFE
/// nor U+FFFF. Text with any other character makes a document that is not
/// well-formed, whatever the escaping.
inline bool is_xml_text(std::string_view s) noexcept {
  if (!is_valid_utf8(s)) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
    // In well-formed UTF-8, EF BF BE and EF BF BF are U+FFFE and U+FFFF.
    if (c == 0xEF && i + 2 < s.size() &&
        static_cast<unsigned char>(s[i + 1]) == 0xBF &&
        (static_cast<unsigned char>(s[i + 2]) & 0xFE) == 0xBE)
      return false;
  }
  return true;
}

/// Appends code point `cp` to `out` as UTF-8 (1 to 4 bytes). `cp` must be
/// a Unicode scalar value (at most U+10FFFF, not a surrogate): the callers
/// (character references, JSON escapes) replace any other first.
inline void append_utf8(char32_t cp, std::string& out) {
  char bytes[4];
  std::size_t n;
  if (cp < 0x80) {
    bytes[0] = static_cast<char>(cp);
    n = 1;
  } else if (cp < 0x800) {
    bytes[0] = static_cast<char>(0xC0 | (cp >> 6));
    bytes[1] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 2;
  } else if (cp < 0x10000) {
    bytes[0] = static_cast<char>(0xE0 | (cp >> 12));
    bytes[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    bytes[2] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 3;
  } else {
    bytes[0] = static_cast<char>(0xF0 | (cp >> 18));
    bytes[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    bytes[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    bytes[3] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 4;
  }
  out.append(bytes, n);
}

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_UTF8_H
