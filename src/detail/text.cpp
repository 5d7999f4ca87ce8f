#include "detail/text.h"

namespace sitemill::detail {

namespace {

// Length of the well-formed UTF-8 sequence at the start of `s` (RFC 3629:
// no overlongs, no surrogates, nothing above U+10FFFF), or 0.
std::size_t utf8_sequence(std::string_view s) noexcept {
  auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  auto cont = [&](std::size_t i) {
    return i < s.size() && (b(i) & 0xC0) == 0x80;
  };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(1) >= 0xA0) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && b(1) >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

}  // namespace

void append_printable(std::string& out, std::string_view s, std::size_t limit) {
  static constexpr char hex[] = "0123456789ABCDEF";
  const bool cut = s.size() > limit;
  if (cut) s = s.substr(0, limit);
  // Control bytes and bytes that are not UTF-8 become \xHH, so a report is
  // always clean UTF-8 text whatever the input held.
  while (!s.empty()) {
    std::size_t n = utf8_sequence(s);
    auto c = static_cast<unsigned char>(s[0]);
    if (n == 0 || (n == 1 && (c < 0x20 || c == 0x7F))) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
      n = 1;
    } else {
      out.append(s.data(), n);
    }
    s.remove_prefix(n);
  }
  if (cut) out += "...";
}

std::string with_commas(std::uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  out.reserve(digits.size() + digits.size() / 3);
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string to_hex(std::uint64_t value, int digits) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out(static_cast<std::size_t>(digits), '0');
  for (int i = digits - 1; i >= 0 && value != 0; --i, value >>= 4)
    out[static_cast<std::size_t>(i)] = hex[value & 15];
  return out;
}

}  // namespace sitemill::detail
