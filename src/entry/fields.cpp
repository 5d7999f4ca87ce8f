// changefreq and priority: the two small <url> fields (docs/protocol.md 1.1,
// checklist 8-9 and 33-34).
#include "sitemill/entry/fields.h"

#include <cstddef>
#include <iterator>
#include <optional>
#include <string_view>

#include "detail/text.h"

namespace sitemill {
namespace {

constexpr bool is_digit(char c) noexcept {
  return static_cast<unsigned char>(c) - unsigned{'0'} < 10u;
}

// The sitemaps.org spellings, indexed by changefreq's value.
constexpr std::string_view changefreq_names[] = {
    "", "always", "hourly", "daily", "weekly", "monthly", "yearly", "never"};

// The index in changefreq_names of `text` spelled exactly so, or 0.
std::size_t exact_changefreq(std::string_view text) noexcept {
  if (text.size() < 5 || text.size() > 7) return 0;
  std::size_t i = 0;
  switch (text[0]) {
    case 'a':
      i = 1;
      break;
    case 'h':
      i = 2;
      break;
    case 'd':
      i = 3;
      break;
    case 'w':
      i = 4;
      break;
    case 'm':
      i = 5;
      break;
    case 'y':
      i = 6;
      break;
    case 'n':
      i = 7;
      break;
    default:
      return 0;
  }
  // A byte loop: at most 7 bytes, where operator== calls memcmp.
  const std::string_view name = changefreq_names[i];
  if (text.size() != name.size()) return 0;
  for (std::size_t k = 1; k < name.size(); ++k)
    if (text[k] != name[k]) return 0;
  return i;
}

}  // namespace

std::optional<changefreq> parse_changefreq(std::string_view text) noexcept {
  // The spelling every export writes, lowercase and untrimmed, is told by its
  // length and first letter with one compare, before any folding.
  if (const std::size_t i = exact_changefreq(text); i != 0)
    return static_cast<changefreq>(i);
  text = detail::trim(text);
  // The longest token is "monthly"; anything longer cannot match, and the
  // fixed buffer keeps this allocation-free.
  constexpr std::size_t max_length = 7;
  if (text.size() < 5 || text.size() > max_length) return std::nullopt;
  char lower[max_length];
  for (std::size_t i = 0; i < text.size(); ++i)
    lower[i] = detail::ascii_lower(text[i]);
  const std::string_view folded(lower, text.size());
  for (std::size_t i = 1; i < std::size(changefreq_names); ++i) {
    if (folded == changefreq_names[i]) return static_cast<changefreq>(i);
  }
  return std::nullopt;
}

std::string_view to_string(changefreq value) noexcept {
  const auto i = static_cast<std::size_t>(value);
  return i < std::size(changefreq_names) ? changefreq_names[i]
                                         : std::string_view();
}

std::optional<priority> priority::parse(std::string_view text) noexcept {
  // "0.8" and "1.0", the spellings almost every input uses, are already
  // canonical; this saves the general parse on the hot path.
  if (text.size() == 3 && text[1] == '.' && is_digit(text[2]) &&
      (text[0] == '0' || (text[0] == '1' && text[2] == '0'))) {
    priority result;
    text.copy(result.text_, 3);
    result.len_ = 3;
    return result;
  }
  // Decimal text is compared and rewritten as digits, never converted to a
  // float, so "0.1" stays exactly 0.1 and "1.0000000001" is exactly > 1.
  text = detail::trim(text);
  const char* const s = text.data();
  const std::size_t n = text.size();
  std::size_t i = 0;
  bool negative = false;
  if (i < n && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  std::size_t int_begin = i;
  while (i < n && is_digit(s[i])) ++i;
  const std::size_t int_end = i;
  std::size_t frac_begin = i;
  std::size_t frac_end = i;
  if (i < n && s[i] == '.') {
    frac_begin = ++i;
    while (i < n && is_digit(s[i])) ++i;
    frac_end = i;
  }
  // xsd:decimal: [+-]?(d+(.d*)?|.d+); no exponent, no comma, no bare ".".
  if (i != n || (int_end == int_begin && frac_end == frac_begin))
    return std::nullopt;

  while (int_begin < int_end && s[int_begin] == '0') ++int_begin;
  while (frac_end > frac_begin && s[frac_end - 1] == '0') --frac_end;
  const std::size_t int_digits = int_end - int_begin;
  const std::size_t frac_digits = frac_end - frac_begin;
  // sitemap.xsd tPriority: minInclusive 0.0, maxInclusive 1.0.
  const bool is_one = int_digits == 1 && s[int_begin] == '1';
  if (int_digits > 1 || (int_digits == 1 && !is_one)) return std::nullopt;
  if (is_one && frac_digits > 0) return std::nullopt;
  if (negative && (int_digits > 0 || frac_digits > 0)) return std::nullopt;
  if (frac_digits > max_fraction_digits) return std::nullopt;

  priority result;
  std::size_t len = 0;
  result.text_[len++] = is_one ? '1' : '0';
  result.text_[len++] = '.';
  if (frac_digits == 0) {
    result.text_[len++] = '0';
  } else {
    for (std::size_t k = frac_begin; k < frac_end; ++k)
      result.text_[len++] = s[k];
  }
  result.len_ = static_cast<std::uint8_t>(len);
  return result;
}

}  // namespace sitemill
