// Feed and HTTP dates (RFC 5322, RFC 3339, RFC 9110) read into the one
// w3c_datetime. Each grammar only takes a date apart; the ranges, the
// calendar and the zone offsets are checked once, by parse_w3c_datetime(),
// on the date rewritten as W3C text, so that a date read here is one the
// lastmod parser accepts by construction.
#include "sitemill/date/dates.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "date/lastmod_parts.h"
#include "detail/text.h"

namespace sitemill {
namespace {

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
// RFC 5322 FWS: spaces and tabs, and line breaks folded inside them.
constexpr bool is_fws(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

constexpr std::string_view month_names[12] = {"Jan", "Feb", "Mar", "Apr",
                                              "May", "Jun", "Jul", "Aug",
                                              "Sep", "Oct", "Nov", "Dec"};
// Monday first, as ISO 8601 counts.
constexpr std::string_view day_names[7] = {"Mon", "Tue", "Wed", "Thu",
                                           "Fri", "Sat", "Sun"};
constexpr std::string_view long_day_names[7] = {
    "Monday", "Tuesday",  "Wednesday", "Thursday",
    "Friday", "Saturday", "Sunday"};

// RFC 5322 1.2.2 writes its grammar in ABNF, whose quoted strings are
// case-insensitive, so "gmt" and "SEP" are as good as "GMT" and "Sep";
// RFC 9110 5.6.7 says "HTTP-date is case sensitive".
template <std::size_t N>
int find_name(std::string_view word, const std::string_view (&names)[N],
              bool ignore_case) noexcept {
  for (std::size_t i = 0; i < N; ++i)
    if (ignore_case ? detail::iequals(word, names[i]) : word == names[i])
      return static_cast<int>(i);
  return -1;
}

// Value of the two digits at p, or -1.
int two_digits(const char* p) noexcept {
  return is_digit(p[0]) && is_digit(p[1]) ? (p[0] - '0') * 10 + (p[1] - '0')
                                          : -1;
}

// A date taken apart by one of the grammars, not yet range-checked.
struct fields {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  bool has_seconds = true;
  int weekday = -1;    // as written, Monday 0; -1 when absent
  char zone[7] = "Z";  // "Z" or "+hh:mm", as W3C writes it
  date_note zone_note = date_note::none;
};

date_problem from_w3c(datetime_problem p) noexcept {
  switch (p) {
    case datetime_problem::ok:
      return date_problem::ok;
    case datetime_problem::malformed:
      return date_problem::malformed;
    case datetime_problem::no_timezone:
      return date_problem::no_zone;
    case datetime_problem::impossible_date:
      return date_problem::impossible_date;
    case datetime_problem::impossible_time:
      return date_problem::impossible_time;
    case datetime_problem::bad_offset:
      return date_problem::bad_offset;
  }
  return date_problem::malformed;
}

// Monday 0; from the local date, which is what a written weekday names.
int weekday_of(const w3c_datetime& v) noexcept {
  w3c_datetime date = v;
  date.form = datetime_form::date;
  const std::int64_t days = date.unix_seconds() / 86'400;
  return static_cast<int>(((days % 7) + 7 + 3) % 7);  // 1970-01-01: Thursday
}

// RFC 5322 3.3: "The year is any numeric year 1900 or later". IMF-fixdate
// is an RFC 5322 date in fixed columns (RFC 9110 5.6.7), and its obsolete
// siblings get the same floor, so that every date read here obeys it.
constexpr int first_year = 1900;

// Range-checks `f` by writing it as W3C text and reading that back.
date_problem finish(const fields& f, date_syntax syntax,
                    parsed_date& out) noexcept {
  if (f.year < first_year || f.year > 9'999) return date_problem::bad_year;
  date_detail::date_parts parts;
  parts.year = f.year;
  parts.month = f.month;
  parts.day = f.day;
  parts.hour = f.hour;
  parts.minute = f.minute;
  // RFC 5322 3.3 and RFC 9110 5.6.7 allow second 60 (a leap second); W3C,
  // XSD and POSIX time have none, so it is read as the second before.
  const bool leap = f.second == 60;
  parts.second = leap ? 59 : f.second;
  parts.form = f.has_seconds ? datetime_form::seconds : datetime_form::minutes;
  parts.zone = f.zone[0];  // "Z" or "+hh:mm"
  const int zone_minutes = parts.zone == 'Z' ? 0 : two_digits(f.zone + 4);
  if (parts.zone != 'Z')
    parts.offset_minutes = two_digits(f.zone + 1) * 60 + zone_minutes;
  w3c_datetime value;
  datetime_problem problem = date_detail::to_w3c(parts, value);
  // The zone is judged last, as the W3C parser judges it ("+0160" would
  // otherwise be written as +02:00).
  if (problem == datetime_problem::ok && zone_minutes > 59)
    problem = datetime_problem::bad_offset;
  if (problem != datetime_problem::ok) return from_w3c(problem);
  out.value = value;
  out.syntax = syntax;
  out.leap_second = leap;
  // RFC 5322 3.3: the day-of-week "MUST be the day implied by the date";
  // which of the two is wrong cannot be known, and readers go by the date.
  out.note = f.weekday >= 0 && f.weekday != weekday_of(value)
                 ? date_note::weekday_mismatch
                 : f.zone_note;
  return date_problem::ok;
}

// "+hhmm" (RFC 5322) as "+hh:mm".
void numeric_zone(std::string_view z, fields& f) noexcept {
  f.zone[0] = z[0];
  f.zone[1] = z[1];
  f.zone[2] = z[2];
  f.zone[3] = ':';
  f.zone[4] = z[3];
  f.zone[5] = z[4];
  f.zone[6] = 0;
}

void set_zone(fields& f, std::string_view w3c) noexcept {
  std::size_t i = 0;
  for (; i < w3c.size() && i < 6; ++i) f.zone[i] = w3c[i];
  f.zone[i] = 0;
}

// RFC 5322 obs-zone, and "UTC". Returns false for a name it does not know.
bool named_zone(std::string_view name, fields& f) noexcept {
  struct named {
    std::string_view name, w3c;
  };
  static constexpr named zones[] = {{"UT", "Z"},       {"GMT", "Z"},
                                    {"EST", "-05:00"}, {"EDT", "-04:00"},
                                    {"CST", "-06:00"}, {"CDT", "-05:00"},
                                    {"MST", "-07:00"}, {"MDT", "-06:00"},
                                    {"PST", "-08:00"}, {"PDT", "-07:00"}};
  for (const auto& z : zones) {
    if (detail::iequals(name, z.name)) {
      set_zone(f, z.w3c);
      return true;
    }
  }
  // "UTC" is no RFC 5322 zone, but feeds write it by the thousand and its
  // meaning is not in doubt (RFC 5322 4.3 reads an unknown zone as -0000
  // only "unless there is a clear indication"): read as GMT, with a note.
  if (detail::iequals(name, "UTC")) {
    set_zone(f, "Z");
    f.zone_note = date_note::utc_zone;
    return true;
  }
  if (name.size() == 1 && detail::ascii_lower(name[0]) != 'j') {
    // RFC 5322 4.3: RFC 822 gave the military zones the wrong sign, so
    // they "SHOULD all be considered equivalent to -0000" (offset
    // unknown). Z is zero either way.
    set_zone(f, detail::ascii_lower(name[0]) == 'z' ? "Z" : "-00:00");
    return true;
  }
  // Other names (CET, IST, AEST) are left unread: many are ambiguous, and
  // neither the checker nor the converter has ever read them.
  return false;
}

// RFC 5322 3.3 date-time with the obsolete forms of 4.3 (which "MUST be
// accepted and parsed by a conforming receiver"): optional day of week,
// two-digit years, named and military zones, FWS between tokens. Comments
// in parentheses (CFWS) are not read. `s` is trimmed and not empty.
date_problem parse_rfc5322(std::string_view s, parsed_date& out) noexcept {
  const std::size_t n = s.size();
  std::size_t i = 0;
  auto fws = [&] {
    const std::size_t start = i;
    while (i < n && is_fws(s[i])) ++i;
    return i > start;
  };
  auto word = [&] {
    const std::size_t start = i;
    while (i < n && is_alpha(s[i])) ++i;
    return s.substr(start, i - start);
  };
  // A run of digits: its value (the first nine) and its length.
  auto number = [&](std::size_t& len) {
    const std::size_t start = i;
    int v = 0;
    for (; i < n && is_digit(s[i]); ++i)
      if (i - start < 9) v = v * 10 + (s[i] - '0');
    len = i - start;
    return v;
  };
  auto two = [&](int& v) {
    std::size_t len = 0;
    v = number(len);
    return len == 2;
  };

  fields f;
  if (is_alpha(s[0])) {
    const std::string_view name = word();
    if (name.size() != 3) return date_problem::malformed;
    f.weekday = find_name(name, day_names, true);
    if (f.weekday < 0) return date_problem::unknown_day_name;
    fws();
    if (i == n || s[i] != ',') return date_problem::malformed;
    ++i;
    fws();
  }
  std::size_t len = 0;
  f.day = number(len);
  if (len < 1 || len > 2 || !fws()) return date_problem::malformed;
  const std::string_view month = word();
  if (month.size() != 3) return date_problem::malformed;
  f.month = find_name(month, month_names, true) + 1;
  if (f.month == 0) return date_problem::unknown_month;
  if (!fws()) return date_problem::malformed;
  f.year = number(len);
  if (len == 0) return date_problem::malformed;
  // RFC 5322 4.3: 00-49 are 2000-2049, 50-99 are 1950-1999. It adds 1900
  // to three-digit years, a repair for software long gone; a three-digit
  // year in a feed is far likelier a typo ("201"), so it is refused.
  if (len == 2)
    f.year += f.year < 50 ? 2000 : 1900;
  else if (len != 4)
    return date_problem::bad_year;
  if (!fws() || !two(f.hour) || i == n || s[i] != ':')
    return date_problem::malformed;
  ++i;
  if (!two(f.minute)) return date_problem::malformed;
  f.has_seconds = i < n && s[i] == ':';
  if (f.has_seconds) {
    ++i;
    if (!two(f.second)) return date_problem::malformed;
  }
  if (i == n) return date_problem::no_zone;
  if (!fws()) return date_problem::malformed;
  if (s[i] == '+' || s[i] == '-') {
    const std::string_view zone = s.substr(i);
    if (zone.size() != 5 || two_digits(zone.data() + 1) < 0 ||
        two_digits(zone.data() + 3) < 0)
      return date_problem::malformed;
    numeric_zone(zone, f);
  } else {
    const std::string_view zone = word();
    if (zone.empty() || i != n) return date_problem::malformed;
    if (!named_zone(zone, f)) return date_problem::unknown_zone;
  }
  return finish(f, date_syntax::rfc5322, out);
}

// What an ISO date used of RFC 3339 beyond the W3C profile.
struct iso_spelling {
  date_note separator = date_note::none;  // lowercase_t_or_z or space_for_t
  bool lowercase_z = false;
  bool leap = false;
};

// RFC 3339 5.6 date-time is a W3C datetime (seconds form) but for what its
// notes allow: "t" and "z" in lowercase, a space for "T" ("for the sake of
// readability"), and second 60 (5.7). Those are rewritten to the W3C
// spelling, the fraction cut to the nine digits W3C keeps, and the result
// read by parse_w3c_datetime(), which also reads the W3C-only forms (a date
// alone, minutes). `s` is trimmed and starts with "YYYY".
date_problem parse_iso(std::string_view s, parsed_date& out,
                       iso_spelling& spelling) noexcept {
  char buf[48];
  std::size_t n = 0;
  const std::size_t head = s.size() < 19 ? s.size() : 19;
  for (; n < head; ++n) buf[n] = s[n];
  if (head > 10) {
    if (buf[10] == 't') {
      buf[10] = 'T';
      spelling.separator = date_note::lowercase_t_or_z;
    } else if (buf[10] == ' ') {
      buf[10] = 'T';
      spelling.separator = date_note::space_for_t;
    }
  }
  if (head == 19 && buf[16] == ':' && buf[17] == '6' && buf[18] == '0') {
    buf[18] = '9';
    buf[17] = '5';
    spelling.leap = true;
  }
  std::size_t i = head;
  if (i < s.size() && s[i] == '.' && head == 19) {
    buf[n++] = s[i++];
    for (std::size_t digits = 0; i < s.size() && is_digit(s[i]); ++i)
      if (digits++ < 9) buf[n++] = s[i];
  }
  if (s.size() - i > sizeof buf - n) return date_problem::malformed;
  for (; i < s.size(); ++i) buf[n++] = s[i];
  if (n > 10 && buf[n - 1] == 'z') {
    buf[n - 1] = 'Z';
    spelling.lowercase_z = true;
  }
  w3c_datetime value;
  const datetime_problem problem =
      parse_w3c_datetime(std::string_view(buf, n), value);
  if (problem != datetime_problem::ok) return from_w3c(problem);
  out.value = value;
  out.leap_second = spelling.leap;
  out.syntax = spelling.separator != date_note::none || spelling.lowercase_z ||
                       spelling.leap
                   ? date_syntax::rfc3339
                   : date_syntax::w3c;
  out.note = date_note::none;
  return date_problem::ok;
}

// The note for an ISO date in an element asking for `format`, the first
// in reading order.
date_note iso_note(const parsed_date& d, const iso_spelling& spelling,
                   feed_date_format format) noexcept {
  const bool date_time = d.value.form == datetime_form::seconds ||
                         d.value.form == datetime_form::fraction;
  switch (format) {
    case feed_date_format::rfc822:
      return date_note::other_format;
    case feed_date_format::rfc3339:
      // RFC 4287 3.3: Atom dates follow RFC 3339, "In addition, an
      // uppercase "T" character MUST be used to separate date and time,
      // and an uppercase "Z" character MUST be present in the absence of
      // a numeric time zone offset."
      if (spelling.separator != date_note::none) return spelling.separator;
      if (!date_time) return date_note::not_a_date_time;
      if (spelling.lowercase_z) return date_note::lowercase_t_or_z;
      return date_note::none;
    case feed_date_format::w3c:
      // NOTE-datetime: "T" and "Z" appear literally, seconds are 00-59.
      if (spelling.separator != date_note::none) return spelling.separator;
      if (spelling.leap) return date_note::leap_second;
      if (spelling.lowercase_z) return date_note::lowercase_t_or_z;
      return date_note::none;
  }
  return date_note::none;
}

// "YYYY" or "YYYY-...": W3C and RFC 3339 dates; everything else is read
// as RFC 5322, whose dates start with a day name or a one- or two-digit
// day.
bool iso_shaped(std::string_view s) noexcept {
  return s.size() >= 4 && is_digit(s[0]) && is_digit(s[1]) && is_digit(s[2]) &&
         is_digit(s[3]) && (s.size() == 4 || s[4] == '-');
}

// "hh:mm:ss" at p (eight bytes there).
bool http_time(const char* p, fields& f) noexcept {
  f.hour = two_digits(p);
  f.minute = two_digits(p + 3);
  f.second = two_digits(p + 6);
  return p[2] == ':' && p[5] == ':' && (f.hour | f.minute | f.second) >= 0;
}

date_problem http_zone(std::string_view z) noexcept {
  if (z == "GMT") return date_problem::ok;
  for (const char c : z)
    if (!is_alpha(c)) return date_problem::malformed;
  return date_problem::unknown_zone;
}

}  // namespace

std::string_view describe(date_problem problem) noexcept {
  switch (problem) {
    case date_problem::ok:
      return "a date sitemill reads";
    case date_problem::empty:
      return "it is empty";
    case date_problem::malformed:
      return "its words, digits or punctuation fit no date format";
    case date_problem::unknown_day_name:
      return "the day of the week is not one of Mon, Tue, Wed, Thu, Fri, Sat, "
             "Sun";
    case date_problem::unknown_month:
      return "the month is not one of Jan, Feb, Mar, Apr, May, Jun, Jul, Aug, "
             "Sep, Oct, Nov, Dec";
    case date_problem::bad_year:
      return "the year must have four digits (or two) and be 1900 or later";
    case date_problem::impossible_date:
      return "there is no such date (the day must exist in its month, the "
             "month be 1-12 and the year 0001-9999)";
    case date_problem::impossible_time:
      return "there is no such time (hours are 00-23, minutes 00-59, seconds "
             "00-60)";
    case date_problem::no_zone:
      return "the time has no time zone";
    case date_problem::unknown_zone:
      return "the time zone is none the RFCs name (write GMT or an offset "
             "such as +0200)";
    case date_problem::bad_offset:
      return "the zone offset must lie between -14:00 and +14:00, with "
             "minutes 00-59";
  }
  return "unknown date problem";
}

std::string_view describe(date_note note) noexcept {
  switch (note) {
    case date_note::none:
      return "it is in the element's format";
    case date_note::other_format:
      return "it is written in another date format";
    case date_note::weekday_mismatch:
      return "the day of the week is not the date's";
    case date_note::utc_zone:
      return "\"UTC\" is not an RFC 822 zone (write GMT or +0000)";
    case date_note::lowercase_t_or_z:
      return "T and Z must be uppercase";
    case date_note::space_for_t:
      return "date and time must be joined by a T, not a space";
    case date_note::leap_second:
      return "second 60 (a leap second) has no W3C datetime";
    case date_note::not_a_date_time:
      return "RFC 3339 needs the full date and time, with seconds and a zone";
  }
  return "unknown date note";
}

date_problem parse_feed_date(std::string_view text, feed_date_format format,
                             parsed_date& out) noexcept {
  text = detail::trim(text);
  if (text.empty()) return date_problem::empty;
  parsed_date d;
  if (iso_shaped(text)) {
    iso_spelling spelling;
    const date_problem p = parse_iso(text, d, spelling);
    if (p != date_problem::ok) return p;
    d.note = iso_note(d, spelling, format);
  } else {
    const date_problem p = parse_rfc5322(text, d);
    if (p != date_problem::ok) return p;
    if (format != feed_date_format::rfc822) d.note = date_note::other_format;
  }
  out = d;
  return date_problem::ok;
}

date_problem parse_http_date(std::string_view s, int reference_year,
                             parsed_date& out) noexcept {
  // RFC 9110 5.6.7: IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT", and the
  // forms a recipient MUST also accept, rfc850-date "Sunday, 06-Nov-94
  // 08:49:37 GMT" and asctime-date "Sun Nov  6 08:49:37 1994". All are GMT.
  std::size_t name_end = 0;
  while (name_end < s.size() && is_alpha(s[name_end])) ++name_end;
  if (name_end == s.size()) return date_problem::malformed;
  const std::string_view name = s.substr(0, name_end);
  fields f;
  date_syntax syntax;
  if (s[name_end] == ',' && name.size() == 3) {
    syntax = date_syntax::imf_fixdate;
    f.weekday = find_name(name, day_names, false);
    const std::string_view r = s.substr(name_end + 1);  // " 06 Nov 1994 ..."
    if (r.size() != 25 || r[0] != ' ' || r[3] != ' ' || r[7] != ' ' ||
        r[12] != ' ' || r[21] != ' ')
      return date_problem::malformed;
    f.day = two_digits(r.data() + 1);
    f.month = find_name(r.substr(4, 3), month_names, false) + 1;
    const int hi = two_digits(r.data() + 8), lo = two_digits(r.data() + 10);
    if (f.day < 0 || (hi | lo) < 0 || !http_time(r.data() + 13, f))
      return date_problem::malformed;
    f.year = hi * 100 + lo;
    if (f.weekday < 0) return date_problem::unknown_day_name;
    if (f.month == 0) return date_problem::unknown_month;
    if (const auto z = http_zone(r.substr(22)); z != date_problem::ok) return z;
  } else if (s[name_end] == ',') {
    syntax = date_syntax::rfc850;
    f.weekday = find_name(name, long_day_names, false);
    const std::string_view r = s.substr(name_end + 1);  // " 06-Nov-94 ..."
    if (r.size() != 23 || r[0] != ' ' || r[3] != '-' || r[7] != '-' ||
        r[10] != ' ' || r[19] != ' ')
      return date_problem::malformed;
    f.day = two_digits(r.data() + 1);
    f.month = find_name(r.substr(4, 3), month_names, false) + 1;
    const int yy = two_digits(r.data() + 8);
    if (f.day < 0 || yy < 0 || !http_time(r.data() + 11, f))
      return date_problem::malformed;
    if (f.weekday < 0) return date_problem::unknown_day_name;
    if (f.month == 0) return date_problem::unknown_month;
    if (const auto z = http_zone(r.substr(20)); z != date_problem::ok) return z;
    // RFC 9110 5.6.7: a two-digit year that "appears to be more than 50
    // years in the future" is "the most recent year in the past that had
    // the same last two digits". Judged by the year alone, that makes a
    // window of a century ending 50 years after the reference.
    f.year = reference_year - reference_year % 100 + yy;
    if (f.year > reference_year + 50)
      f.year -= 100;
    else if (f.year <= reference_year - 50)
      f.year += 100;
  } else if (s[name_end] == ' ' && name.size() == 3) {
    syntax = date_syntax::asctime;
    f.weekday = find_name(name, day_names, false);
    const std::string_view r = s.substr(name_end + 1);  // "Nov  6 08:..."
    if (r.size() != 20 || r[3] != ' ' || r[6] != ' ' || r[15] != ' ')
      return date_problem::malformed;
    f.month = find_name(r.substr(0, 3), month_names, false) + 1;
    // date3 = month SP ( 2DIGIT / ( SP DIGIT ) )
    f.day = r[4] == ' ' && is_digit(r[5]) ? r[5] - '0' : two_digits(&r[4]);
    const int hi = two_digits(r.data() + 16), lo = two_digits(r.data() + 18);
    if (f.day < 0 || (hi | lo) < 0 || !http_time(r.data() + 7, f))
      return date_problem::malformed;
    f.year = hi * 100 + lo;
    if (f.weekday < 0) return date_problem::unknown_day_name;
    if (f.month == 0) return date_problem::unknown_month;
  } else {
    return date_problem::malformed;
  }
  return finish(f, syntax, out);
}

std::chrono::sys_seconds to_time_point(const w3c_datetime& value) noexcept {
  return std::chrono::sys_seconds{std::chrono::seconds{value.unix_seconds()}};
}

std::optional<std::string> feed_date_to_w3c(std::string_view text) {
  parsed_date d;
  // The element's format changes only the note, never whether it reads.
  if (parse_feed_date(text, feed_date_format::w3c, d) != date_problem::ok)
    return std::nullopt;
  char buf[max_lastmod_length];
  return std::string(buf, format_lastmod(d.value, buf));
}

}  // namespace sitemill
