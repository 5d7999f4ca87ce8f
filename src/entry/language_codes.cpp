#include "entry/language_codes.h"

#include <algorithm>
#include <array>
#include <cstddef>

#include "detail/text.h"
#include "entry/language_code_tables.h"

namespace sitemill::detail {
namespace {

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& table,
            std::string_view code) noexcept {
  return std::binary_search(table.begin(), table.end(), code);
}

// The two-letter tables as 26 x 26 bitmaps, built at compile time: a
// lookup per hreflang link, the one that every page's links make, costs an
// index instead of a binary search of string comparisons. `first` is the
// tables' case ('a' for ISO 639-1, 'A' for ISO 3166-1).
template <std::size_t N>
constexpr std::array<bool, 26 * 26> two_letter_set(
    const std::array<std::string_view, N>& table, char first) {
  std::array<bool, 26 * 26> set{};
  for (std::string_view code : table)
    set[static_cast<std::size_t>((code[0] - first) * 26 + (code[1] - first))] =
        true;
  return set;
}
constexpr auto iso639_1_set = two_letter_set(tables::iso639_1, 'a');
constexpr auto iso3166_alpha2_set = two_letter_set(tables::iso3166_alpha2, 'A');

bool in_two_letter_set(const std::array<bool, 26 * 26>& set, char first,
                       std::string_view code) noexcept {
  if (code.size() != 2) return false;
  const auto a = static_cast<unsigned>(code[0] - first),
             b = static_cast<unsigned>(code[1] - first);
  return a < 26 && b < 26 && set[a * 26 + b];
}

// The M.49 areas the IANA language subtag registry lists as regions
// (RFC 5646 section 2.2.4): continents and sub-regions, never countries,
// which BCP 47 spells with ISO 3166-1. es-419 is the one seen in practice.
constexpr std::array<std::string_view, 31> m49_areas = {
    "001", "002", "003", "005", "009", "011", "013", "014", "015", "017", "018",
    "019", "021", "029", "030", "034", "035", "039", "053", "054", "057", "061",
    "142", "143", "145", "150", "151", "154", "155", "202", "419"};

constexpr bool is_letter(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

bool all_letters(std::string_view s) noexcept {
  return std::all_of(s.begin(), s.end(), is_letter);
}
bool all_digits(std::string_view s) noexcept {
  return std::all_of(s.begin(), s.end(), is_digit);
}

// A subtag re-cased into a small buffer, so lookups stay exact-case
// binary searches while hreflang itself is case-insensitive.
class cased {
 public:
  enum style { lower, upper, title };
  cased(std::string_view s, style how) noexcept : size_(s.size()) {
    for (std::size_t i = 0; i < size_; ++i) {
      const char c = ascii_lower(s[i]);
      const bool up = how == upper || (how == title && i == 0);
      buf_[i] = up && c >= 'a' && c <= 'z' ? static_cast<char>(c - 32) : c;
    }
  }
  std::string_view view() const noexcept { return {buf_.data(), size_}; }

 private:
  std::array<char, 8> buf_{};
  std::size_t size_;
};

}  // namespace

bool is_iso639_1(std::string_view code) noexcept {
  return in_two_letter_set(iso639_1_set, 'a', code);
}
bool is_iso639_2(std::string_view code) noexcept {
  return listed(tables::iso639_2, code);
}
bool is_iso3166_alpha2(std::string_view code) noexcept {
  return in_two_letter_set(iso3166_alpha2_set, 'A', code);
}
bool is_iso15924(std::string_view code) noexcept {
  return listed(tables::iso15924, code);
}
bool is_m49_area(std::string_view code) noexcept {
  return listed(m49_areas, code);
}

hreflang_problem check_hreflang(std::string_view tag) noexcept {
  if (tag.empty()) return hreflang_problem::empty;
  if (iequals(tag, "x-default")) return hreflang_problem::x_default;
  if (tag.find('_') != std::string_view::npos)
    return hreflang_problem::underscore;

  // xs:language's shape: [a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*.
  std::array<std::string_view, 8> parts;
  std::size_t count = 0;
  for (std::string_view rest = tag;;) {
    const std::size_t dash = rest.find('-');
    const std::string_view part = rest.substr(0, dash);
    if (part.empty() || part.size() > 8 ||
        !std::all_of(part.begin(), part.end(),
                     [](char c) { return is_letter(c) || is_digit(c); }))
      return hreflang_problem::bad_shape;
    if (count == parts.size()) return hreflang_problem::too_many_parts;
    parts[count++] = part;
    if (dash == std::string_view::npos) break;
    rest.remove_prefix(dash + 1);
  }
  if (!all_letters(parts[0])) return hreflang_problem::bad_shape;
  const cased language(parts[0], cased::lower);
  if (parts[0].size() != 2 || !is_iso639_1(language.view()))
    return hreflang_problem::unknown_language;

  std::size_t next = 1;
  if (next < count && parts[next].size() == 4 && all_letters(parts[next])) {
    const cased script(parts[next], cased::title);
    if (!is_iso15924(script.view())) return hreflang_problem::unknown_script;
    ++next;
  }
  if (next < count) {
    const std::string_view region = parts[next];
    const bool alpha2 = region.size() == 2 && all_letters(region);
    const bool numeric = region.size() == 3 && all_digits(region);
    if (alpha2 || numeric || (region.size() == 3 && all_letters(region))) {
      const cased upper(region, cased::upper);
      const bool known = alpha2 ? is_iso3166_alpha2(upper.view())
                                : numeric && is_m49_area(region);
      if (!known) return hreflang_problem::unknown_region;
      ++next;
    }
  }
  return next == count ? hreflang_problem::ok
                       : hreflang_problem::too_many_parts;
}

std::string_view describe(hreflang_problem problem) noexcept {
  switch (problem) {
    case hreflang_problem::ok:
    case hreflang_problem::x_default:
      return {};
    case hreflang_problem::empty:
      return "empty";
    case hreflang_problem::underscore:
      return "use '-' not '_' (de-DE)";
    case hreflang_problem::bad_shape:
      return "not a language tag (letters, digits and single '-')";
    case hreflang_problem::unknown_language:
      return "not an ISO 639-1 language code (two letters: en, not eng)";
    case hreflang_problem::unknown_script:
      return "not an ISO 15924 script code (Latn, Hant)";
    case hreflang_problem::unknown_region:
      return "not an ISO 3166-1 region (GB, not UK) nor a UN M.49 area (419)";
    case hreflang_problem::too_many_parts:
      return "more than language-script-region (search engines read no "
             "variants or extensions)";
  }
  return {};
}

}  // namespace sitemill::detail
