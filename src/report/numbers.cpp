#include "sitemill/report/numbers.h"

#include <cstdio>

namespace sitemill {

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

std::string percent_of(std::uint64_t n, std::uint64_t of) {
  char buf[32];
  std::snprintf(
      buf, sizeof buf, "%.1f%%",
      of == 0 ? 0.0 : 100.0 * static_cast<double>(n) / static_cast<double>(of));
  return buf;
}

}  // namespace sitemill
