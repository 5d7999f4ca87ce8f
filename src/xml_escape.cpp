#include "sitemill/xml_escape.h"

#include <array>
#include <cstdint>

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

}  // namespace

void append_xml_escaped(std::string& out, std::string_view text) {
  const char* run = text.data();
  const char* const end = text.data() + text.size();
  for (const char* p = run; p != end; ++p) {
    if (extra[static_cast<unsigned char>(*p)] == 0) continue;
    out.append(run, p);
    out.append(entity(*p));
    run = p + 1;
  }
  out.append(run, end);
}

std::size_t xml_escaped_size(std::string_view text) noexcept {
  std::size_t n = text.size();
  for (char c : text) n += extra[static_cast<unsigned char>(c)];
  return n;
}

}  // namespace sitemill
