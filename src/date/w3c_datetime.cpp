// W3C datetime (https://www.w3.org/TR/NOTE-datetime) for <lastmod>: the
// strict six-form parser, the W3C-and-XSD-safe writer, and a model of what
// libxml2's sitemap.xsd check accepts (docs/protocol.md section 2).
#include "sitemill/date/w3c_datetime.h"

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace sitemill {
namespace {

constexpr unsigned digit_value(char c) noexcept {
  return static_cast<unsigned>(static_cast<unsigned char>(c)) - unsigned{'0'};
}

constexpr bool is_digit(char c) noexcept { return digit_value(c) < 10; }

// Value of the two ASCII digits at p, or -1. Callers have checked the length,
// so the common forms are read at fixed offsets with no scanning.
inline int two_digits(const char* p) noexcept {
  const unsigned hi = digit_value(p[0]);
  const unsigned lo = digit_value(p[1]);
  return (hi < 10 && lo < 10) ? static_cast<int>(hi * 10 + lo) : -1;
}

inline int four_digits(const char* p) noexcept {
  const int hi = two_digits(p);
  const int lo = two_digits(p + 2);
  return (hi | lo) < 0 ? -1 : hi * 100 + lo;
}

// Proleptic Gregorian, as both the W3C NOTE (ISO 8601) and XSD 1.0 use.
// Unsigned on purpose: leap-ness does not depend on the sign of the year,
// which is how libxml2's IS_LEAP treats negative XSD years as well.
constexpr bool is_leap(std::uint64_t year) noexcept {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

// At namespace scope: a table local to the function is rebuilt on the stack
// at every call.
constexpr std::uint8_t days_per_month[12] = {31, 28, 31, 30, 31, 30,
                                             31, 31, 30, 31, 30, 31};

constexpr int days_in_month(std::uint64_t year, int month) noexcept {
  return month == 2 && is_leap(year) ? 29 : days_per_month[month - 1];
}

constexpr std::uint32_t pow10_u32[10] = {
    1,       10,        100,        1'000,       10'000,
    100'000, 1'000'000, 10'000'000, 100'000'000, 1'000'000'000};

// W3C NOTE: "TZD = time zone designator (Z or +hh:mm or -hh:mm)"; sitemap.xsd
// (XSD 1.0) bounds the offset to +-14:00, so a wider one could not be written.
constexpr int max_offset_minutes = 14 * 60;

// Days from 1970-01-01 to y-m-d (Howard Hinnant's days_from_civil), valid for
// every year, negative included, with no table and no overflow for int16.
constexpr std::int64_t days_from_civil(std::int64_t y, int m, int d) noexcept {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const std::int64_t yoe = y - era * 400;  // [0, 399]
  const std::int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const std::int64_t doe =
      yoe * 365 + yoe / 4 - yoe / 100 + doy;  // [0, 146096]
  return era * 146'097 + doe - 719'468;
}

// The last two decimal digits of every byte value, so that writing a field
// is one two-byte copy where dividing by ten twice cost about ten
// instructions (format_lastmod() runs once per <url>).
constexpr auto make_digit_pairs() noexcept {
  std::array<char, 512> t{};
  for (unsigned v = 0; v < 256; ++v) {
    t[2 * v] = static_cast<char>('0' + v / 10 % 10);
    t[2 * v + 1] = static_cast<char>('0' + v % 10);
  }
  return t;
}
constexpr std::array<char, 512> digit_pairs = make_digit_pairs();

// Writes v's last two decimal digits.
inline char* put2(char* p, unsigned v) noexcept {
  if (v > 255) v %= 100;
  std::memcpy(p, digit_pairs.data() + 2 * v, 2);
  return p + 2;
}

// W3C NOTE: YYYY is 0001-9999 (XSD 1.0 has no year zero either) and the
// date must exist in the proleptic Gregorian calendar.
constexpr bool valid_date(int year, int month, int day) noexcept {
  return year > 0 && month >= 1 && month <= 12 && day >= 1 &&
         day <= days_in_month(static_cast<std::uint64_t>(year), month);
}

struct parsed_fields {
  int year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0;
  std::uint32_t nanos = 0;
  std::size_t fraction_digits = 0;
  char zone = 0;   // 0 (none), 'Z', '+' or '-'
  int offset = 0;  // magnitude in minutes
  datetime_form form = datetime_form::year;
};

// Stores field by field rather than building a w3c_datetime and copying it:
// byte-sized stores read back by one wide copy can stall store forwarding,
// and on the fast path that costs as much as the digits themselves.
inline void store(const parsed_fields& f, w3c_datetime& out) noexcept {
  out.year = static_cast<std::int16_t>(f.year);
  out.month = static_cast<std::uint8_t>(f.month);
  out.day = static_cast<std::uint8_t>(f.day);
  out.hour = static_cast<std::uint8_t>(f.hour);
  out.minute = static_cast<std::uint8_t>(f.minute);
  out.second = static_cast<std::uint8_t>(f.second);
  out.nanos = f.nanos;
  out.fraction_digits = static_cast<std::uint8_t>(f.fraction_digits);
  out.offset_minutes =
      static_cast<std::int16_t>(f.zone == '-' ? -f.offset : f.offset);
  out.zulu = f.zone == 'Z';
  out.negative_zero_offset = f.zone == '-' && f.offset == 0;
  out.form = f.form;
}

// Eight bytes of text, byte i in bits 8i..8i+7 whatever the CPU's order.
inline std::uint64_t load8(const char* p) noexcept {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  if constexpr (std::endian::native == std::endian::big)
    w = __builtin_bswap64(w);
  return w;
}

// What eight bytes of a common form must hold, from a picture such as
// "dddd-dd-": 'd' a digit, '?' anything (checked by the caller), any other
// byte itself.
struct word_shape {
  std::uint64_t digits = 0;  // 0xff where a digit goes
  std::uint64_t fixed = 0;   // 0xff where a given byte goes
  std::uint64_t bytes = 0;   // those bytes
};
consteval word_shape shape(const char (&picture)[9]) {
  word_shape s;
  for (unsigned i = 0; i < 8; ++i) {
    const std::uint64_t at = std::uint64_t{0xff} << (8 * i);
    if (picture[i] == 'd') {
      s.digits |= at;
    } else if (picture[i] != '?') {
      s.fixed |= at;
      s.bytes |= std::uint64_t{static_cast<unsigned char>(picture[i])}
                 << (8 * i);
    }
  }
  return s;
}

constexpr std::uint64_t every_byte(unsigned char b) noexcept {
  return 0x0101010101010101u * b;
}

// When `w` has the shape: each byte i then holds the two-digit number whose
// first digit is byte i (only bytes that start one are read; a separator
// counts as 0). Otherwise every bit is set: the top bit is the verdict, and
// no caller reads a field of a failed word.
inline std::uint64_t digit_pairs_of(std::uint64_t w,
                                    const word_shape& s) noexcept {
  // A separator's byte is set to '0' so that one test covers every byte:
  // a digit is 0x30-0x39, so its high nibble is 3 and adding 6 keeps it 3.
  // A byte of 0xfa or more carries into the next byte, but fails itself.
  const std::uint64_t d = (w & s.digits) | (every_byte('0') & ~s.digits);
  const std::uint64_t high = every_byte(0xf0);
  const bool digits =
      ((d & high) | (((d + every_byte(6)) & high) >> 4)) == every_byte(0x33);
  if (!digits || (w & s.fixed) != s.bytes) return ~std::uint64_t{0};
  // No carries: a digit times ten plus the next is at most 99.
  const std::uint64_t v = d - every_byte('0');
  return (v * 10 + (v >> 8)) & 0x00ffffffffffffffu;
}

inline int byte_at(std::uint64_t w, unsigned i) noexcept {
  return static_cast<int>((w >> (8 * i)) & 0xff);
}

// The forms generators write by the million: "YYYY-MM-DD" (n == 10),
// "YYYY-MM-DDThh:mm:ssZ" (20) and "YYYY-MM-DDThh:mm:ss+hh:mm" (25). Returns
// true, with `out` filled, only for a valid value in one of them; anything
// else, valid or not, goes to the general parser, which alone classifies
// problems. Kept apart from the general parser, whose register pressure it
// would otherwise share. The text is read as two or three 8-byte words
// (SWAR), each tested with one branch, where reading it byte by byte took a
// branch per byte: 1% fewer instructions, about 12% less time (the same 10M
// lastmods, g++ -O3). Testing all words with one branch took 2% more
// instructions.
inline bool parse_common_form(const char* p, std::size_t n,
                              w3c_datetime& out) noexcept {
  constexpr std::uint64_t failed = std::uint64_t{1} << 63;
  parsed_fields f;
  const std::uint64_t a = digit_pairs_of(load8(p), shape("dddd-dd-"));
  if (a & failed) return false;
  f.year = byte_at(a, 0) * 100 + byte_at(a, 2);
  f.month = byte_at(a, 5);
  if (n == 10) {
    // The last eight bytes: "YY-MM-DD".
    const std::uint64_t b = digit_pairs_of(load8(p + 2), shape("dd-dd-dd"));
    if (b & failed) return false;
    f.day = byte_at(b, 6);
    f.form = datetime_form::date;
  } else {
    const std::uint64_t b = digit_pairs_of(load8(p + 8), shape("ddTdd:dd"));
    if (b & failed) return false;
    f.day = byte_at(b, 0);
    f.hour = byte_at(b, 3);
    f.minute = byte_at(b, 6);
    if (n == 20) {
      // The last eight: "h:mm:ssZ" (the hour's second digit again).
      const std::uint64_t c = digit_pairs_of(load8(p + 12), shape("d:dd:ddZ"));
      if (c & failed) return false;
      f.second = byte_at(c, 5);
      f.zone = 'Z';
    } else {
      // The last eight: "ss+hh:mm", the sign either way; the colon before
      // them is in neither word.
      const std::uint64_t c = digit_pairs_of(load8(p + 17), shape("dd?dd:dd"));
      f.zone = p[19];
      if ((c & failed) || p[16] != ':' || (f.zone != '+' && f.zone != '-'))
        return false;
      f.second = byte_at(c, 0);
      const int minutes = byte_at(c, 6);
      f.offset = byte_at(c, 3) * 60 + minutes;
      if (minutes > 59 || f.offset > max_offset_minutes) return false;
    }
    if (f.hour > 23 || f.minute > 59 || f.second > 59) return false;
    f.form = datetime_form::seconds;
  }
  if (!valid_date(f.year, f.month, f.day)) return false;
  store(f, out);
  return true;
}

constexpr bool is_xml_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// The six forms in full, and every problem class. Kept out of line so that
// the fast path in parse_w3c_datetime() pays for none of its registers.
[[gnu::noinline]] datetime_problem parse_any_form(const char* const p,
                                                  const std::size_t n,
                                                  w3c_datetime& out) noexcept {
  // Everything is at a fixed offset except the fraction, so each form is a
  // length check plus digit checks; values are range-checked after the shape
  // so that "malformed" always wins over a range problem.
  parsed_fields f;
  int offset_hours = 0, offset_mins = 0;
  if (n < 4) return datetime_problem::malformed;
  f.year = four_digits(p);
  if (f.year < 0) return datetime_problem::malformed;
  if (n > 4) {
    if (n < 7 || p[4] != '-') return datetime_problem::malformed;
    f.month = two_digits(p + 5);
    if (f.month < 0) return datetime_problem::malformed;
    f.form = datetime_form::year_month;
  }
  if (n > 7) {
    if (n < 10 || p[7] != '-') return datetime_problem::malformed;
    f.day = two_digits(p + 8);
    if (f.day < 0) return datetime_problem::malformed;
    f.form = datetime_form::date;
  }
  if (n > 10) {
    // NOTE-datetime: 'T' "appears literally"; lowercase or a space is not it.
    if (n < 16 || p[10] != 'T' || p[13] != ':')
      return datetime_problem::malformed;
    f.hour = two_digits(p + 11);
    f.minute = two_digits(p + 14);
    if (f.hour < 0 || f.minute < 0) return datetime_problem::malformed;
    f.form = datetime_form::minutes;
    std::size_t pos = 16;
    if (pos < n && p[pos] == ':') {
      if (n < 19) return datetime_problem::malformed;
      f.second = two_digits(p + 17);
      if (f.second < 0) return datetime_problem::malformed;
      f.form = datetime_form::seconds;
      pos = 19;
      if (pos < n && p[pos] == '.') {
        const std::size_t start = ++pos;
        // "one or more digits": any count is valid; nanoseconds keep nine.
        for (; pos < n && is_digit(p[pos]); ++pos) {
          if (pos - start < 9) f.nanos = f.nanos * 10 + digit_value(p[pos]);
        }
        const std::size_t digits = pos - start;
        if (digits == 0) return datetime_problem::malformed;
        f.fraction_digits = digits < 9 ? digits : 9;
        f.nanos *= pow10_u32[9 - f.fraction_digits];
        f.form = datetime_form::fraction;
      }
    }
    if (pos < n) {
      f.zone = p[pos];
      if (f.zone == 'Z') {
        if (n - pos != 1) return datetime_problem::malformed;
      } else if (f.zone == '+' || f.zone == '-') {
        if (n - pos != 6 || p[pos + 3] != ':')
          return datetime_problem::malformed;
        offset_hours = two_digits(p + pos + 1);
        offset_mins = two_digits(p + pos + 4);
        if (offset_hours < 0 || offset_mins < 0)
          return datetime_problem::malformed;
        f.offset = offset_hours * 60 + offset_mins;
      } else {
        return datetime_problem::malformed;
      }
    }
  }

  if (!valid_date(f.year, f.month, f.day))
    return datetime_problem::impossible_date;
  // hh 00-23, mm 00-59, ss 00-59: no "24:00" and no leap second.
  if (f.hour > 23 || f.minute > 59 || f.second > 59)
    return datetime_problem::impossible_time;
  if (f.form >= datetime_form::minutes) {
    if (f.zone == 0) return datetime_problem::no_timezone;
    if (offset_mins > 59 || f.offset > max_offset_minutes)
      return datetime_problem::bad_offset;
  }
  store(f, out);
  return datetime_problem::ok;
}

}  // namespace

std::int64_t w3c_datetime::unix_seconds() const noexcept {
  const std::int64_t days = days_from_civil(year, month, day);
  if (form == datetime_form::year || form == datetime_form::year_month ||
      form == datetime_form::date) {
    return days * 86'400;  // Google: a date alone is midnight UTC.
  }
  return days * 86'400 + hour * 3'600 + minute * 60 + second -
         std::int64_t{offset_minutes} * 60;
}

std::string_view describe(datetime_problem problem) noexcept {
  switch (problem) {
    case datetime_problem::ok:
      return "a valid W3C datetime";
    case datetime_problem::malformed:
      return "not a W3C datetime: write YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ "
             "(or +hh:mm) with exactly that punctuation and no spaces";
    case datetime_problem::no_timezone:
      return "a time needs a zone designator: add Z or +hh:mm";
    case datetime_problem::impossible_date:
      return "no such date: the year must be 0001-9999, the month 01-12 and "
             "the day must exist in that month";
    case datetime_problem::impossible_time:
      return "no such time: hours are 00-23, minutes and seconds 00-59";
    case datetime_problem::bad_offset:
      return "the zone offset must lie between -14:00 and +14:00, with "
             "minutes 00-59";
  }
  return "unknown datetime problem";
}

datetime_problem parse_w3c_datetime(std::string_view text,
                                    w3c_datetime& out) noexcept {
  const std::size_t n = text.size();
  if ((n == 10 || n == 20 || n == 25) && parse_common_form(text.data(), n, out))
    return datetime_problem::ok;
  return parse_any_form(text.data(), n, out);
}

std::size_t format_lastmod(const w3c_datetime& value, char* buf) noexcept {
  // Every field is reduced to its digit count so that even an out-of-range
  // struct cannot write past max_lastmod_length.
  char* p = buf;
  const unsigned year = static_cast<unsigned>(value.year) % 10'000;
  p = put2(p, year / 100);
  p = put2(p, year % 100);
  *p++ = '-';
  // YYYY and YYYY-MM become the first day of their period: the XSD has no
  // year-only or year-month form in tLastmod.
  const bool has_month = value.form != datetime_form::year;
  const bool has_day = has_month && value.form != datetime_form::year_month;
  p = put2(p, has_month ? value.month : 1u);
  *p++ = '-';
  p = put2(p, has_day ? value.day : 1u);
  if (value.form <= datetime_form::date)
    return static_cast<std::size_t>(p - buf);

  *p++ = 'T';
  p = put2(p, value.hour);
  *p++ = ':';
  p = put2(p, value.minute);
  *p++ = ':';
  // xsd:dateTime requires seconds, so the minutes form gains ":00".
  p = put2(p, value.second);
  if (value.form == datetime_form::fraction && value.fraction_digits > 0) {
    const unsigned digits =
        value.fraction_digits < 9 ? value.fraction_digits : 9;
    std::uint32_t frac = value.nanos % 1'000'000'000 / pow10_u32[9 - digits];
    *p++ = '.';
    for (unsigned i = digits; i > 0; --i) {
      p[i - 1] = static_cast<char>('0' + frac % 10);
      frac /= 10;
    }
    p += digits;
  }
  if (value.zulu) {
    *p++ = 'Z';
  } else {
    const int offset = value.offset_minutes;
    const bool negative =
        offset < 0 || (offset == 0 && value.negative_zero_offset);
    const unsigned magnitude =
        static_cast<unsigned>(offset < 0 ? -offset : offset);
    *p++ = negative ? '-' : '+';
    p = put2(p, magnitude / 60 % 100);
    *p++ = ':';
    p = put2(p, magnitude % 60);
  }
  return static_cast<std::size_t>(p - buf);
}

bool xsd_accepts_lastmod(std::string_view text) noexcept {
  // Modelled on libxml2 2.9.14 xmlschemastypes.c (xmlSchemaValidateDates) and
  // checked against xmllint: tLastmod is xsd:date | xsd:dateTime, both with
  // whiteSpace="collapse", so only XML whitespace is stripped.
  while (!text.empty() && is_xml_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_xml_space(text.back())) text.remove_suffix(1);
  const char* p = text.data();
  const char* const end = p + text.size();

  // Year: '-'? then four or more digits, no leading zero beyond four, never
  // zero, and (libxml2 stores it in a long) at most LONG_MAX in magnitude.
  if (p < end && *p == '-') ++p;
  const char* const year_start = p;
  std::uint64_t year = 0;
  constexpr std::uint64_t long_max = 9'223'372'036'854'775'807u;
  for (; p < end && is_digit(*p); ++p) {
    const unsigned d = digit_value(*p);
    if (year > (long_max - d) / 10) return false;
    year = year * 10 + d;
  }
  const auto year_digits = p - year_start;
  if (year_digits < 4 || (year_digits > 4 && *year_start == '0') || year == 0)
    return false;

  if (end - p < 6 || p[0] != '-' || p[3] != '-') return false;
  const int month = two_digits(p + 1);
  const int day = two_digits(p + 4);
  if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month))
    return false;
  p += 6;

  if (p < end && *p == 'T') {
    if (end - p < 9 || p[3] != ':' || p[6] != ':') return false;
    const int hour = two_digits(p + 1);
    const int minute = two_digits(p + 4);
    const int whole_seconds = two_digits(p + 7);
    if (hour < 0 || minute < 0 || whole_seconds < 0) return false;
    p += 9;
    // libxml2 sums the fraction into a double; matching its arithmetic makes
    // the verdict agree with xmllint where the sum rounds up to 60.0 (with 14
    // nines) or a far-away digit underflows away ("24:00:00.000...001").
    double seconds = whole_seconds;
    if (p < end && *p == '.') {
      ++p;
      if (p == end || !is_digit(*p)) return false;
      double mult = 1;
      for (; p < end && is_digit(*p); ++p) {
        mult /= 10;
        seconds += digit_value(*p) * mult;
      }
    }
    // XSD 1.0 (and libxml2) allow hour 24 for exactly the end of the day.
    const bool end_of_day = hour == 24 && minute == 0 && seconds == 0;
    if (!end_of_day && (hour > 23 || minute > 59 || !(seconds < 60)))
      return false;
  }

  if (p == end) return true;  // XSD makes the zone optional.
  if (*p == 'Z') return end - p == 1;
  if (*p != '+' && *p != '-') return false;
  if (end - p != 6 || p[3] != ':') return false;
  const int zone_hours = two_digits(p + 1);
  const int zone_mins = two_digits(p + 4);
  return zone_hours >= 0 && zone_mins >= 0 && zone_mins <= 59 &&
         zone_hours * 60 + zone_mins <= max_offset_minutes;
}

}  // namespace sitemill
