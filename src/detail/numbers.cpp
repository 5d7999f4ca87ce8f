#include "sitemill/numbers.h"

#include <cstdio>
#include <iterator>

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

std::string counted(std::uint64_t n, std::string_view one,
                    std::string_view many) {
  std::string out = with_commas(n);
  out += ' ';
  out += n == 1 ? one : many;
  return out;
}

std::string percent_of(std::uint64_t n, std::uint64_t of) {
  char buf[32];
  std::snprintf(
      buf, sizeof buf, "%.1f%%",
      of == 0 ? 0.0 : 100.0 * static_cast<double>(n) / static_cast<double>(of));
  return buf;
}

std::string human_bytes(std::uint64_t bytes) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < std::size(units)) {
    value /= 1024.0;
    ++unit;
  }
  char buf[32];
  if (unit == 0 || value >= 9.95)
    std::snprintf(buf, sizeof buf, "%.0f %s", value, units[unit]);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", value, units[unit]);
  return buf;
}

std::string clock_time(double seconds) {
  const auto total =
      seconds > 0.0 ? static_cast<std::uint64_t>(seconds + 0.5) : 0;
  char buf[48];
  if (total >= 3600)
    std::snprintf(buf, sizeof buf, "%llu:%02llu:%02llu",
                  static_cast<unsigned long long>(total / 3600),
                  static_cast<unsigned long long>(total / 60 % 60),
                  static_cast<unsigned long long>(total % 60));
  else
    std::snprintf(buf, sizeof buf, "%llu:%02llu",
                  static_cast<unsigned long long>(total / 60),
                  static_cast<unsigned long long>(total % 60));
  return buf;
}

}  // namespace sitemill
