// sitemill: the two small sitemap fields, changefreq and priority.
#ifndef SITEMILL_FIELDS_H
#define SITEMILL_FIELDS_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace sitemill {

/// The seven changefreq values of sitemaps.org (a hint, not a command).
enum class changefreq : std::uint8_t {
  unset = 0,
  always,
  hourly,
  daily,
  weekly,
  monthly,
  yearly,
  never
};

/// Parses a changefreq in any letter case, surrounding ASCII whitespace
/// ignored ("Weekly" -> weekly). std::nullopt for anything else.
std::optional<changefreq> parse_changefreq(std::string_view text) noexcept;

/// The lowercase protocol spelling ("weekly"); "" for unset.
std::string_view to_string(changefreq value) noexcept;

/// A priority as an exact decimal in [0.0, 1.0], kept as its canonical text:
/// no sign, no leading zeros beyond one, no trailing zeros, at least one
/// decimal ("1" -> "1.0", ".5" -> "0.5", "0.80" -> "0.8", "-0.0" -> "0.0").
class priority {
 public:
  /// Most fraction digits kept; a value with more is refused, not rounded.
  static constexpr std::size_t max_fraction_digits = 10;

  /// Parses the xsd:decimal lexical form ([+-]?(d+(.d*)?|.d+); no exponent,
  /// no comma), surrounding ASCII whitespace ignored, and checks the range.
  static std::optional<priority> parse(std::string_view text) noexcept;

  /// The canonical text, e.g. "0.8".
  std::string_view text() const noexcept { return {text_, len_}; }

  friend bool operator==(const priority& a, const priority& b) noexcept {
    return a.text() == b.text();
  }

 private:
  char text_[2 + max_fraction_digits] = {};
  std::uint8_t len_ = 0;
};

}  // namespace sitemill

#endif  // SITEMILL_FIELDS_H
