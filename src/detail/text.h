// Small text helpers shared by the library's stages.
#ifndef SITEMILL_DETAIL_TEXT_H
#define SITEMILL_DETAIL_TEXT_H

#include <cstdint>
#include <string>
#include <string_view>

namespace sitemill::detail {

constexpr bool is_ascii_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
         c == '\v';
}

/// `s` without surrounding ASCII whitespace.
constexpr std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

/// Appends `s` for a diagnostic: control bytes as \xHH, and at most `limit`
/// bytes followed by "..." so one huge bad value cannot flood a report.
void append_printable(std::string& out, std::string_view s,
                      std::size_t limit = 120);

/// "1234567" -> "1,234,567", for people reading summaries.
std::string with_commas(std::uint64_t n);

/// Lowercase hex of `value`, `digits` wide.
std::string to_hex(std::uint64_t value, int digits = 16);

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_TEXT_H
