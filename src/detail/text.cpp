#include "detail/text.h"

#include "detail/utf8.h"

namespace sitemill::detail {

void append_printable(std::string& out, std::string_view s, std::size_t limit) {
  static constexpr char hex[] = "0123456789ABCDEF";
  const bool cut = s.size() > limit;
  if (cut) s = s.substr(0, limit);
  // Control bytes and bytes that are not UTF-8 become \xHH, so a report is
  // always clean UTF-8 text whatever the input held.
  while (!s.empty()) {
    std::size_t n = utf8_sequence_length(s, 0);
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

std::string quoted_printable(std::string_view s, std::size_t limit) {
  std::string out = "\"";
  append_printable(out, s, limit);
  out += '"';
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
