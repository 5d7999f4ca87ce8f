// sitemill: the dates other than lastmod's that sitemill reads, each into the
// one w3c_datetime so that check, generate and the HTTP client read a date
// the same way:
//  * RSS 2.0 <pubDate>: RFC 822 as RFC 5322 section 3.3 now defines it, with
//    the obsolete forms of section 4.3 that receivers must still accept;
//  * Atom <updated>: RFC 3339 section 5.6 (which RFC 4287 3.3 narrows);
//  * RSS 1.0 <dc:date>: a W3C datetime (parse_w3c_datetime());
//  * HTTP (Retry-After): RFC 9110 5.6.7's IMF-fixdate and its two obsolete
//    forms, rfc850-date and asctime-date.
// A feed date is *read* whatever format it is in (generate --from-sitemap
// converts it); a date readable but not in its element's format carries a
// note (check warns). Whether a date reads never depends on the element.
#ifndef SITEMILL_DATES_H
#define SITEMILL_DATES_H

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sitemill/date/w3c_datetime.h"

namespace sitemill {

/// Entries sharing one identical lastmod that make a stamp rather than a
/// date: check's lastmod-all-same fires when every entry of a document (at
/// least this many) has one, and generate warns when every page of a
/// directory gets one. Fewer is ordinary (a small site updated in one go);
/// this many is a generator's run time, which Google learns to ignore
/// (docs/protocol.md section 3).
inline constexpr std::uint64_t lastmod_all_same_entries = 10;

/// The grammar a date was read with.
enum class date_syntax : std::uint8_t {
  w3c,          ///< a W3C datetime; RFC 3339's uppercase date-times are ones
  rfc3339,      ///< RFC 3339 beyond W3C: "t", "z", a space for T, second 60
  rfc5322,      ///< "Sat, 07 Sep 2002 00:00:01 GMT" and its obsolete forms
  imf_fixdate,  ///< HTTP's "Sun, 06 Nov 1994 08:49:37 GMT"
  rfc850,       ///< HTTP's obsolete "Sunday, 06-Nov-94 08:49:37 GMT"
  asctime,      ///< HTTP's obsolete "Sun Nov  6 08:49:37 1994"
};

/// The format a feed's date element asks for.
enum class feed_date_format : std::uint8_t {
  rfc822,   ///< RSS 2.0 <pubDate>
  rfc3339,  ///< Atom <updated> (1.0), <modified> (0.3)
  w3c,      ///< RSS 1.0 <dc:date>
};

/// Why a date cannot be read; the first problem in reading order.
enum class date_problem : std::uint8_t {
  ok = 0,
  empty,             ///< nothing but whitespace
  malformed,         ///< not the shape of any format read (punctuation, digits)
  unknown_day_name,  ///< a day of the week that is not Mon..Sun
  unknown_month,     ///< a month name that is not Jan..Dec
  bad_year,          ///< 3 or 5+ digits, or before 1900 (RFC 5322 3.3)
  impossible_date,   ///< 31 Feb, month 13, year 0000
  impossible_time,   ///< hour 24 or more, minute 60 or more
  no_zone,           ///< a time without a zone
  unknown_zone,      ///< a zone name no RFC defines ("CET"), or military "J"
  bad_offset,        ///< offset minutes 60 or more, or beyond +-14:00
};

/// What a readable date does that its element's format does not allow;
/// when there are several, the first in reading order.
enum class date_note : std::uint8_t {
  none = 0,
  other_format,      ///< RFC 822 where an ISO date is due, or the reverse
  weekday_mismatch,  ///< the day of the week is not the date's; the date wins
  utc_zone,          ///< "UTC", which RFC 5322 does not name; read as GMT
  lowercase_t_or_z,  ///< "t" or "z": RFC 3339 allows them, W3C and Atom do not
  space_for_t,       ///< a space for T: RFC 3339 allows it, W3C and Atom do not
  leap_second,       ///< second 60 in a W3C datetime, which has none
  not_a_date_time,   ///< a W3C date, or a time without seconds, where RFC
                     ///< 3339 (Atom) needs a full date-time
};

/// A date read by parse_feed_date() or parse_http_date().
struct parsed_date {
  /// The instant as written: its form tells what the text left out (a
  /// time without seconds is datetime_form::minutes), and a zone whose
  /// offset is unknown (RFC 5322 "-0000", a military zone) has
  /// negative_zero_offset set. A leap second is kept as :59.
  w3c_datetime value;
  date_syntax syntax = date_syntax::w3c;
  date_note note = date_note::none;  ///< none for parse_http_date() unless
                                     ///< the weekday is wrong
  bool leap_second = false;          ///< the text said second 60
};

/// A clause saying why, with no ": " of its own, to follow one in a message.
std::string_view describe(date_problem problem) noexcept;

/// A clause saying what is off, with no ": " of its own, to follow one in a
/// message.
std::string_view describe(date_note note) noexcept;

/// Reads a feed date in any of RFC 822 (RFC 5322), RFC 3339 or W3C, after
/// trimming surrounding ASCII whitespace; `format`, the element's, only
/// decides `out.note`. `out` is left untouched unless the result is ok.
/// Thread-safe, no allocation.
[[nodiscard]] date_problem parse_feed_date(std::string_view text,
                                           feed_date_format format,
                                           parsed_date& out) noexcept;

/// Reads an HTTP-date (RFC 9110 5.6.7) in any of its three forms, exactly as
/// written (case-sensitive, no surrounding whitespace). An rfc850-date's
/// two-digit year is the year with those digits that lies at most 50 years
/// after `reference_year` and less than 50 before it. `out` is left
/// untouched unless the result is ok. Thread-safe, no allocation.
[[nodiscard]] date_problem parse_http_date(std::string_view text,
                                           int reference_year,
                                           parsed_date& out) noexcept;

/// The instant `value` names, in whole seconds (its fraction is in
/// value.nanos): sys_seconds, because system_clock's nanosecond ticks end
/// in 2262 and W3C years go to 9999. A date without time is midnight UTC.
std::chrono::sys_seconds to_time_point(const w3c_datetime& value) noexcept;

/// A feed date as the lastmod text generate writes (format_lastmod()), or
/// std::nullopt when parse_feed_date() cannot read it. Thread-safe.
std::optional<std::string> feed_date_to_w3c(std::string_view text);

}  // namespace sitemill

#endif  // SITEMILL_DATES_H
