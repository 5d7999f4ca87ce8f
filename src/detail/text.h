// Small text helpers shared by the library's stages.
#ifndef SITEMILL_DETAIL_TEXT_H
#define SITEMILL_DETAIL_TEXT_H

#include <cstdint>
#include <string>
#include <string_view>

#include "sitemill/numbers.h"

namespace sitemill::detail {

constexpr bool is_ascii_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
         c == '\v';
}

constexpr bool is_ascii_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_ascii_alpha(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
constexpr bool is_ascii_hex(char c) noexcept {
  return is_ascii_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/// ASCII lowercase; every other byte, UTF-8 included, unchanged.
constexpr char ascii_lower(char c) noexcept {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

/// `a` equals `b` ignoring ASCII case (protocol keywords such as
/// "Sitemap:", "HTTPS", ".TSV"; never locale-dependent).
constexpr bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}

/// `s` starts with `prefix`, ignoring ASCII case.
constexpr bool istarts_with(std::string_view s,
                            std::string_view prefix) noexcept {
  return s.size() >= prefix.size() &&
         iequals(s.substr(0, prefix.size()), prefix);
}

/// `s` ends with `suffix`, ignoring ASCII case.
constexpr bool iends_with(std::string_view s,
                          std::string_view suffix) noexcept {
  return s.size() >= suffix.size() &&
         iequals(s.substr(s.size() - suffix.size()), suffix);
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

/// `s` in double quotes, as append_printable() writes it: a value quoted
/// in a message ("image \"x.jpg\" not listed").
std::string quoted_printable(std::string_view s, std::size_t limit = 120);

// One way to write counts, shared with front ends through the public API.
using ::sitemill::with_commas;

/// Lowercase hex of `value`, `digits` wide.
std::string to_hex(std::uint64_t value, int digits = 16);

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_TEXT_H
