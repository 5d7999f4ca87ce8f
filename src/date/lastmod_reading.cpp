// The lastmod reader's formats: auto (W3C first, then the forms exports
// write) and w3c. Patterns are in date_pattern.cpp, zones in time_zones.cpp.
#include "sitemill/date/lastmod_reading.h"

#include <date/date.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "date/lastmod_parts.h"
#include "detail/text.h"
#include "sitemill/date/dates.h"

namespace sitemill {
namespace {

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

constexpr std::string_view not_auto =
    "not a date `date_format` auto reads: write a W3C datetime "
    "(2025-05-14T10:23:00Z), 2025-05-14 10:23:00 with or without a zone "
    "(Z, +02, +0200, +02:00), an RFC 2822 or HTTP date, or Unix seconds; "
    "or give `date_format` a pattern";
constexpr std::string_view bad_number =
    "a bare number is read as Unix time: 9 or 10 digits (seconds) or 13 "
    "(milliseconds)";

char* put2(char* p, int v) noexcept {
  p[0] = static_cast<char>('0' + v / 10 % 10);
  p[1] = static_cast<char>('0' + v % 10);
  return p + 2;
}

// Up to 9 digits of `nanos`, the first `digits` of them.
char* put_fraction(char* p, std::uint32_t nanos, int digits) noexcept {
  for (int i = 0; i < digits; ++i) {
    std::uint32_t scale = 100'000'000;
    for (int k = 0; k < i; ++k) scale /= 10;
    *p++ = static_cast<char>('0' + nanos / scale % 10);
  }
  return p;
}

// "YYYY-MM-DDThh:mm..." whose zone is written in one of the ways exports
// write it (none, Z, +hh, +hhmm, +hh:mm, " UTC"), rewritten with W3C's
// zone, or an empty view when the text is too long to be a date.
// `local` says there was none ("Z" is put in its place).
std::string_view iso_with_w3c_zone(std::string_view s, char (&buf)[64],
                                   bool& local) noexcept {
  if (s.size() + 6 > sizeof buf) return {};
  // The zone starts after the time's digits, colons and fraction.
  std::size_t i = s.size() > 11 ? 11 : s.size();
  while (i < s.size() && (is_digit(s[i]) || s[i] == ':' || s[i] == '.')) ++i;
  std::size_t n = 0;
  for (; n < i; ++n) buf[n] = s[n];
  std::string_view zone = s.substr(i);
  if (!zone.empty() && zone.front() == ' ' && s.size() > 10) {
    zone.remove_prefix(1);  // "2025-05-14 10:23:00 +02:00"
    if (zone.empty()) return {};
  }
  local = false;
  auto put = [&](std::string_view z) {
    for (char c : z) buf[n++] = c;
  };
  const bool sign = !zone.empty() && (zone[0] == '+' || zone[0] == '-');
  const auto digits_at = [&](std::size_t a, std::size_t b) {
    for (std::size_t k = a; k < b; ++k)
      if (!is_digit(zone[k])) return false;
    return true;
  };
  if (s.size() <= 10) {
    put(zone);  // a date alone: its zone (none) is the W3C parser's to judge
  } else if (zone.empty()) {
    local = true;
    put("Z");
  } else if (detail::iequals(zone, "Z") || detail::iequals(zone, "UTC") ||
             detail::iequals(zone, "GMT")) {
    put("Z");
  } else if (sign && zone.size() == 3 && digits_at(1, 3)) {
    put(zone);  // PostgreSQL's "+02"
    put(":00");
  } else if (sign && zone.size() == 5 && digits_at(1, 5)) {
    put(zone.substr(0, 3));
    put(":");
    put(zone.substr(3));
  } else {
    put(zone);  // "+02:00", or something the W3C parser refuses
  }
  return std::string_view(buf, n);
}

// An ISO date's problem in the lastmod parser's words, which say what W3C
// allows; a shape no grammar reads gets the list of what auto reads.
std::string_view iso_problem(date_problem p) noexcept {
  switch (p) {
    case date_problem::impossible_date:
    case date_problem::bad_year:
      return describe(datetime_problem::impossible_date);
    case date_problem::impossible_time:
      return describe(datetime_problem::impossible_time);
    case date_problem::bad_offset:
      return describe(datetime_problem::bad_offset);
    default:
      return not_auto;
  }
}

bool is_iso_date_start(std::string_view s) noexcept {
  return s.size() >= 10 && is_digit(s[0]) && is_digit(s[1]) && is_digit(s[2]) &&
         is_digit(s[3]) && s[4] == '-';
}

}  // namespace

namespace date_detail {

datetime_problem to_w3c(const date_parts& f, w3c_datetime& out) noexcept {
  if (f.year < 1 || f.year > 9'999) return datetime_problem::impossible_date;
  if (f.month < 0 || f.month > 99 || f.day < 0 || f.day > 99)
    return datetime_problem::impossible_date;
  if (f.hour < 0 || f.hour > 99 || f.minute < 0 || f.minute > 99 ||
      f.second < 0 || f.second > 99)
    return datetime_problem::impossible_time;
  if (f.offset_minutes < 0 || f.offset_minutes > 99 * 60 + 59)
    return datetime_problem::bad_offset;
  char buf[48];
  char* p = buf;
  p = put2(p, f.year / 100);
  p = put2(p, f.year % 100);
  *p++ = '-';
  p = put2(p, f.month);
  *p++ = '-';
  p = put2(p, f.day);
  if (f.form > datetime_form::date) {
    *p++ = 'T';
    p = put2(p, f.hour);
    *p++ = ':';
    p = put2(p, f.minute);
    if (f.form >= datetime_form::seconds) {
      *p++ = ':';
      p = put2(p, f.second);
    }
    if (f.form == datetime_form::fraction) {
      *p++ = '.';
      p = put_fraction(p, f.nanos, f.fraction_digits);
    }
    if (f.zone == '+' || f.zone == '-') {
      *p++ = f.zone;
      p = put2(p, f.offset_minutes / 60);
      *p++ = ':';
      p = put2(p, f.offset_minutes % 60);
    } else {
      *p++ = 'Z';
    }
  }
  return parse_w3c_datetime(
      std::string_view(buf, static_cast<std::size_t>(p - buf)), out);
}

bool from_unix_time(std::int64_t seconds, std::uint32_t nanos,
                    int fraction_digits, w3c_datetime& out) noexcept {
  using namespace std::chrono;
  // 9999-12-31T23:59:59Z; Unix time before 1970 is never a lastmod here.
  constexpr std::int64_t last = 253'402'300'799;
  if (seconds < 0 || seconds > last) return false;
  const date::sys_days day{days{seconds / 86'400}};
  const date::year_month_day ymd{day};
  const std::int64_t in_day = seconds % 86'400;
  date_detail::date_parts f;
  f.year = static_cast<int>(ymd.year());
  f.month = static_cast<int>(static_cast<unsigned>(ymd.month()));
  f.day = static_cast<int>(static_cast<unsigned>(ymd.day()));
  f.hour = static_cast<int>(in_day / 3'600);
  f.minute = static_cast<int>(in_day / 60 % 60);
  f.second = static_cast<int>(in_day % 60);
  f.nanos = nanos;
  f.fraction_digits = fraction_digits;
  f.form =
      fraction_digits > 0 ? datetime_form::fraction : datetime_form::seconds;
  f.zone = 'Z';
  return to_w3c(f, out) == datetime_problem::ok;
}

}  // namespace date_detail

std::string_view describe(lastmod_note note) noexcept {
  switch (note) {
    case lastmod_note::none:
      return "read as written";
    case lastmod_note::zone_assumed:
      return "the time has no zone and was read as UTC";
    case lastmod_note::dst_gap:
      return "the local time does not exist (the clocks skipped it at a "
             "daylight saving change) and was read with the offset in force "
             "before the change";
    case lastmod_note::dst_overlap:
      return "the local time happens twice (the clocks went back at a "
             "daylight saving change) and was read as the earlier one";
  }
  return "unknown lastmod note";
}

lastmod_reader::lastmod_reader() noexcept {
  using namespace std::chrono;
  const date::year_month_day today{floor<days>(system_clock::now())};
  reference_year_ = static_cast<int>(today.year());
}

lastmod_reading lastmod_reader::read_slow(
    std::string_view text) const noexcept {
  if (format_count_ == 1) return read_one(formats_[0], text);
  // Several formats: the first that reads the text. A pattern that read
  // its shape and found no such date says so; else one reason for all.
  std::string_view impossible;
  for (std::uint8_t i = 0; i < format_count_; ++i) {
    lastmod_reading r = read_one(formats_[i], text);
    if (r.ok()) return r;
    if (impossible.empty() && formats_[i].kind == format_kind::pattern &&
        !r.why.starts_with("does not match"))
      impossible = r.why;
  }
  lastmod_reading r;
  r.why = !impossible.empty() ? impossible
                              : "matches none of the `date_format` formats, "
                                "each tried in order";
  return r;
}

lastmod_reading lastmod_reader::read_one(const format_entry& f,
                                         std::string_view text) const noexcept {
  lastmod_reading r;
  switch (f.kind) {
    case format_kind::w3c:
      r.why = describe(parse_w3c_datetime(text, r.value));
      return r;
    case format_kind::pattern:
      return read_pattern(text, f.first, f.end);
    case format_kind::automatic:
      break;
  }
  return read_auto(text);
}

lastmod_reading lastmod_reader::read_auto(
    std::string_view text) const noexcept {
  lastmod_reading r;
  if (text.empty()) {
    r.why = describe(date_problem::empty);
    return r;
  }
  std::size_t digits = 0;
  while (digits < text.size() && is_digit(text[digits])) ++digits;
  if (digits == text.size()) {
    // Unix time: 9 or 10 digits are seconds from 1973-03-03 to 2286; 13 are
    // the milliseconds JavaScript and Java write.
    std::int64_t v = 0;
    for (char c : text.substr(0, 18)) v = v * 10 + (c - '0');
    bool ok = false;
    if (digits == 9 || digits == 10)
      ok = date_detail::from_unix_time(v, 0, 0, r.value);
    else if (digits == 13)
      ok = date_detail::from_unix_time(
          v / 1'000, static_cast<std::uint32_t>(v % 1'000) * 1'000'000,
          v % 1'000 == 0 ? 0 : 3, r.value);
    if (!ok) r.why = bad_number;
    return r;
  }

  char buf[64];
  parsed_date d;
  if (is_iso_date_start(text)) {
    // The SQL form and its relatives, rewritten to a zone RFC 3339 writes
    // and read by the feed date parser (space or t for T, second 60).
    bool local = false;
    const std::string_view iso = iso_with_w3c_zone(text, buf, local);
    const date_problem p = iso.empty()
                               ? date_problem::malformed
                               : parse_feed_date(iso, feed_date_format::w3c, d);
    if (p == date_problem::ok) {
      if (local) return place(d.value);
      r.value = d.value;
      return r;
    }
    r.why = iso_problem(p);
    return r;
  }

  // RFC 5322 (and so HTTP's IMF-fixdate), then HTTP's obsolete forms.
  date_problem p = parse_feed_date(text, feed_date_format::rfc822, d);
  if (p == date_problem::no_zone && text.size() + 4 <= sizeof buf) {
    // "Wed, 14 May 2025 10:23:00" with no zone: a local time.
    std::size_t n = 0;
    for (char c : text) buf[n++] = c;
    for (char c : std::string_view(" GMT")) buf[n++] = c;
    if (parse_feed_date(std::string_view(buf, n), feed_date_format::rfc822,
                        d) == date_problem::ok)
      return place(d.value);
  }
  if (p == date_problem::ok) {
    r.value = d.value;
    return r;
  }
  if (parse_http_date(text, reference_year_, d) == date_problem::ok) {
    r.value = d.value;
    return r;
  }
  r.why = p == date_problem::malformed ? not_auto : describe(p);
  return r;
}

lastmod_reading read_date_auto(std::string_view text) noexcept {
  static const lastmod_reader reader;
  return reader.read(detail::trim(text));
}

}  // namespace sitemill
