#include "roff.h"

#include <cstdint>
#include <cstdio>

namespace sitemill::cli {
namespace {

// Decodes the UTF-8 sequence at text[i] and moves i past it; U+FFFD for a
// byte that starts none (groff takes \[uXXXX] only for what is not ASCII).
std::uint32_t next_code_point(std::string_view text, std::size_t& i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const int more = lead >= 0xF8   ? -1
                   : lead >= 0xF0 ? 3
                   : lead >= 0xE0 ? 2
                   : lead >= 0xC0 ? 1
                                  : -1;
  if (more < 0 || text.size() - i <= static_cast<std::size_t>(more)) {
    ++i;
    return 0xFFFD;
  }
  std::uint32_t cp = lead & (0x3F >> more);
  for (int k = 1; k <= more; ++k) {
    const auto next = static_cast<unsigned char>(text[i + k]);
    if ((next & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (next & 0x3F);
  }
  i += static_cast<std::size_t>(more) + 1;
  const bool overlong_or_surrogate =
      cp < 0x80 || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF;
  return overlong_or_surrogate ? 0xFFFD : cp;
}

}  // namespace

std::string roff_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  bool line_start = true;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    line_start = c == '\n';
    if (static_cast<unsigned char>(c) >= 0x80) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "\\[u%04X]",
                    static_cast<unsigned>(next_code_point(text, i)));
      out += buf;
      continue;
    }
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
    ++i;
  }
  return out;
}

std::string roff_argument(std::string_view text) {
  std::string out = "\"";
  for (const char c : roff_escape(text)) {
    if (c == '"')
      out += "\\(dq";
    else
      out += c;
  }
  return out + "\"";
}

}  // namespace sitemill::cli
