#include "sitemill/xml_escape.h"

#include <array>
#include <cstdint>
#include <cstring>

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
inline bool has_special(std::uint64_t v) noexcept {
  constexpr std::uint64_t ones = 0x0101010101010101ull,
                          highs = 0x8080808080808080ull;
  auto zero_byte = [](std::uint64_t x) { return (x - ones) & ~x & highs; };
  return zero_byte(v ^ (ones * '&')) | zero_byte(v ^ (ones * '\'')) |
         zero_byte(v ^ (ones * '"')) | zero_byte(v ^ (ones * '<')) |
         zero_byte(v ^ (ones * '>'));
}

}  // namespace

void append_xml_escaped(std::string& out, std::string_view text) {
  const char* run = text.data();
  const char* const end = text.data() + text.size();
  const char* p = run;
  // Most URLs have no special byte at all, or one or two: skip 8 clean
  // bytes at a time and let the byte loop below handle the rest.
  for (;;) {
    while (end - p >= 8) {
      std::uint64_t v;
      std::memcpy(&v, p, 8);
      if (has_special(v)) break;
      p += 8;
    }
    const char* stop = end - p >= 8 ? p + 8 : end;
    for (; p != stop; ++p) {
      if (extra[static_cast<unsigned char>(*p)] == 0) continue;
      out.append(run, p);
      out.append(entity(*p));
      run = p + 1;
    }
    if (p == end) break;
  }
  out.append(run, end);
}

std::size_t xml_escaped_size(std::string_view text) noexcept {
  std::size_t n = text.size();
  for (char c : text) n += extra[static_cast<unsigned char>(c)];
  return n;
}

}  // namespace sitemill
