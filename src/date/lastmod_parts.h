// Internals shared by the lastmod reader's files (lastmod_reading.cpp,
// date_pattern.cpp, time_zones.cpp): a date taken apart by a grammar,
// before the one range check.
#ifndef SITEMILL_DATE_LASTMOD_PARTS_H
#define SITEMILL_DATE_LASTMOD_PARTS_H

#include <cstdint>

#include "sitemill/date/w3c_datetime.h"

namespace sitemill::date_detail {

/// A date as a grammar found it, not yet range-checked.
struct date_parts {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  std::uint32_t nanos = 0;  ///< the fraction, in nanoseconds
  int fraction_digits = 0;  ///< 0: none written
  datetime_form form = datetime_form::date;
  char zone = 0;           ///< 0 (none written), 'Z', '+' or '-'
  int offset_minutes = 0;  ///< its magnitude, for '+' and '-' (minutes of
                           ///< the hour already checked to be 00-59)
};

/// Range-checks `parts` by writing them as W3C text and reading that back
/// with parse_w3c_datetime(), the one range check of a lastmod. A time
/// without a zone is read as UTC: the caller places it in its zone.
datetime_problem to_w3c(const date_parts& parts, w3c_datetime& out) noexcept;

/// The UTC date-time `seconds` after 1970-01-01T00:00:00Z, with `nanos`
/// written in `fraction_digits` digits (0: none). False beyond year 9999.
bool from_unix_time(std::int64_t seconds, std::uint32_t nanos,
                    int fraction_digits, w3c_datetime& out) noexcept;

}  // namespace sitemill::date_detail

#endif  // SITEMILL_DATE_LASTMOD_PARTS_H
