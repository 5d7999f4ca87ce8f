// sitemill: W3C datetime (https://www.w3.org/TR/NOTE-datetime), the lastmod
// format.
//
// The W3C profile and sitemap.xsd disagree in both directions (docs/protocol.md
// section 2): "2005" and "2005-07-16T19:20+01:00" are W3C-valid but
// XSD-invalid, "2005-07-16T19:20:30" (no zone) is XSD-valid but not W3C.
// parse_w3c_datetime() accepts exactly the six W3C forms with real calendar
// values; format_lastmod() writes only forms both accept.
#ifndef SITEMILL_W3C_DATETIME_H
#define SITEMILL_W3C_DATETIME_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sitemill {

/// Which of the six W3C forms a value was written in.
enum class datetime_form : std::uint8_t {
  year,        ///< YYYY
  year_month,  ///< YYYY-MM
  date,        ///< YYYY-MM-DD
  minutes,     ///< YYYY-MM-DDThh:mmTZD
  seconds,     ///< YYYY-MM-DDThh:mm:ssTZD
  fraction,    ///< YYYY-MM-DDThh:mm:ss.sTZD
};

/// A parsed W3C datetime. Fields a form lacks are at their lowest value
/// (month 1, day 1, 00:00:00, offset 0).
struct w3c_datetime {
  std::int16_t year = 0;            ///< 0001..9999
  std::uint8_t month = 1, day = 1;  ///< calendar-checked, leap years included
  std::uint8_t hour = 0, minute = 0, second = 0;  ///< 00..23, 00..59, 00..59
  std::uint32_t nanos = 0;  ///< fraction of a second, in nanoseconds
  std::uint8_t fraction_digits =
      0;  ///< digits written (1..9); extra digits are truncated
  std::int16_t offset_minutes = 0;  ///< zone offset east of UTC; Z is 0
  bool zulu = false;                ///< the zone was written as "Z"
  /// The zone was written "-00:00" (RFC 3339: local offset unknown), which
  /// offset_minutes alone cannot tell from "+00:00"; format_lastmod() keeps it.
  bool negative_zero_offset = false;
  datetime_form form = datetime_form::date;

  /// Seconds since 1970-01-01T00:00:00Z; a date without time is midnight UTC
  /// (Google's reading). For ordering values written with different zones.
  std::int64_t unix_seconds() const noexcept;
};

/// Why a value is not a W3C datetime.
enum class datetime_problem : std::uint8_t {
  ok = 0,
  malformed,        ///< not one of the six forms (wrong punctuation, digits,
                    ///< separators)
  no_timezone,      ///< a time without a zone designator (Google: "invalid date
                    ///< error")
  impossible_date,  ///< month 13, 2024-02-30, year 0000, ...
  impossible_time,  ///< hour 24 or more, minute or second 60 or more
  bad_offset,       ///< zone offset beyond +-14:00 (xsd) or minutes 60 or more
};

/// A sentence saying why ("a time needs a zone: add Z or +hh:mm").
std::string_view describe(datetime_problem problem) noexcept;

/// Parses `text` (no surrounding whitespace allowed: trim first) into `out`,
/// which is left untouched unless the result is ok. When a value has several
/// problems, a wrong shape (malformed) wins, then the first in reading order:
/// date, time, then the zone (no_timezone or bad_offset). Thread-safe, no
/// allocation.
[[nodiscard]] datetime_problem parse_w3c_datetime(std::string_view text,
                                                  w3c_datetime& out) noexcept;

/// Largest output of format_lastmod().
inline constexpr std::size_t max_lastmod_length = 35;

/// Writes `value` in a form both the W3C profile and sitemap.xsd accept and
/// returns its length: YYYY-MM-DD for date forms (YYYY and YYYY-MM become the
/// first day of their period), otherwise YYYY-MM-DDThh:mm:ss[.s]TZD (seconds
/// ":00" added to the minutes form), with the zone as written ("Z" or +hh:mm).
/// `buf` must hold max_lastmod_length bytes; nothing is NUL-terminated.
/// `value` should hold the ranges parse_w3c_datetime() guarantees; other
/// values still stay inside the buffer but give meaningless text.
std::size_t format_lastmod(const w3c_datetime& value, char* buf) noexcept;

/// True when `text` is accepted by sitemap.xsd's tLastmod (xsd:date |
/// xsd:dateTime, after whitespace collapse), regardless of the W3C profile.
/// The checker uses this to tell "W3C-valid but XSD-invalid" apart. It follows
/// libxml2 2.9 (xmllint) exactly, including XSD 1.0's "24:00:00", years
/// beyond 9999 or negative, and seconds summed as a double (so
/// "59.99999999999999" is refused, as xmllint refuses it).
bool xsd_accepts_lastmod(std::string_view text) noexcept;

}  // namespace sitemill

#endif  // SITEMILL_W3C_DATETIME_H
