// The lastmod reader's patterns: a strftime-like subset, compiled once into
// a fixed array of steps and matched without allocating.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "date/lastmod_parts.h"
#include "detail/text.h"
#include "sitemill/date/lastmod_reading.h"

namespace sitemill {
namespace {

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

constexpr std::string_view directives = "YmdebBHMSfzs";

// What a directive expects, for the message when a value does not match.
std::string_view expected(char directive) noexcept {
  switch (directive) {
    case 'Y':
      return "does not match the `date_format` pattern at %Y (four digits)";
    case 'm':
      return "does not match the `date_format` pattern at %m (a month, 1-2 "
             "digits)";
    case 'd':
    case 'e':
      return "does not match the `date_format` pattern at its day (1-2 "
             "digits)";
    case 'b':
      return "does not match the `date_format` pattern at %b (an English "
             "month name, Jan or January)";
    case 'H':
    case 'M':
    case 'S':
      return "does not match the `date_format` pattern at its time (1-2 "
             "digits each)";
    case 'f':
      return "does not match the `date_format` pattern at %f (digits of a "
             "fraction of a second)";
    case 'z':
      return "does not match the `date_format` pattern at %z (Z, +hh, +hhmm "
             "or +hh:mm)";
    case 's':
      return "does not match the `date_format` pattern at %s (Unix time in "
             "seconds, up to 12 digits)";
    default:
      return "does not match the `date_format` pattern (a character differs, "
             "or text follows its end)";
  }
}

constexpr std::string_view month_names[12] = {
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};

// 1-12 for "Jan"/"January" in any case, else 0.
int month_from_name(std::string_view word) noexcept {
  for (int i = 0; i < 12; ++i) {
    const std::string_view full = month_names[i];
    if ((word.size() == 3 || word.size() == full.size()) &&
        detail::istarts_with(full, word))
      return i + 1;
  }
  return 0;
}

// Reads up to `max` digits (at least `min`) at s[i].
bool number(std::string_view s, std::size_t& i, std::size_t min,
            std::size_t max, std::int64_t& v) noexcept {
  const std::size_t start = i;
  v = 0;
  while (i < s.size() && i - start < max && is_digit(s[i]))
    v = v * 10 + (s[i++] - '0');
  return i - start >= min;
}

}  // namespace

status lastmod_reader::compile_pattern(std::string_view pattern) {
  auto fail = [](std::string why) {
    return error{"`date_format` " + std::move(why) +
                     " (it takes auto, w3c, or a pattern of %Y %m %d %e %b "
                     "%H %M %S %f %z %s %% and literal characters, e.g. "
                     "\"%d/%m/%Y %H:%M\"; docs/inputs.md)",
                 "date_format"};
  };
  std::string seen;
  const std::size_t first = steps_;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (steps_ - first == max_pattern_steps)
      return fail("is longer than " + std::to_string(max_pattern_steps) +
                  " steps");
    if (steps_ == max_total_steps)
      return fail("patterns are longer than " +
                  std::to_string(max_total_steps) + " steps together");
    pattern_step step;
    if (pattern[i] != '%') {
      step.literal = pattern[i];
    } else if (++i == pattern.size()) {
      return fail("ends with a lone %");
    } else if (pattern[i] == '%') {
      step.literal = '%';
    } else if (directives.find(pattern[i]) == std::string_view::npos) {
      std::string what = "%";
      detail::append_printable(what, pattern.substr(i, 1));
      return fail("names " + what + ", which is no directive sitemill reads");
    } else {
      step.directive = pattern[i] == 'B' ? 'b' : pattern[i];
      if (seen.find(step.directive) != std::string::npos)
        return fail("names %" + std::string(1, pattern[i]) + " twice");
      seen += step.directive;
    }
    pattern_[steps_++] = step;
  }
  auto has = [&](char d) { return seen.find(d) != std::string::npos; };
  if (seen.empty()) {
    // Appended, not "\"" + std::string(...): g++ 12 misreads that form as
    // an overlapping copy (-Wrestrict, a known false positive).
    std::string why = "\"";
    (why += pattern) += "\" is neither a format nor a pattern";
    return fail(std::move(why));
  }
  if (has('s')) {
    if (seen.find_first_not_of("sf") != std::string::npos)
      return fail("combines %s (a whole Unix time) with other fields");
    return {};
  }
  if (!has('Y') || !(has('m') || has('b')) || !(has('d') || has('e')))
    return fail("must name a whole date: %Y, %m or %b, and %d or %e (or %s)");
  if (has('m') && has('b')) return fail("names the month twice (%m and %b)");
  if (has('d') && has('e')) return fail("names the day twice (%d and %e)");
  if (has('H') != has('M')) return fail("needs %H and %M together");
  if (has('S') && !has('M')) return fail("has %S without %H:%M");
  if (has('f') && !has('S')) return fail("has %f without %S");
  return {};
}

lastmod_reading lastmod_reader::read_pattern(std::string_view s,
                                             std::uint8_t first,
                                             std::uint8_t end) const noexcept {
  lastmod_reading r;
  date_detail::date_parts f;
  bool has_time = false, has_seconds = false, has_epoch = false;
  std::int64_t epoch = 0;
  std::size_t i = 0;
  for (std::uint8_t k = first; k < end; ++k) {
    const pattern_step& step = pattern_[k];
    std::int64_t v = 0;
    bool ok = true;
    switch (step.directive) {
      case 0:
        ok = i < s.size() && s[i] == step.literal;
        ++i;
        break;
      case 'Y':
        ok = number(s, i, 4, 4, v);
        f.year = static_cast<int>(v);
        break;
      case 'm':
        ok = number(s, i, 1, 2, v);
        f.month = static_cast<int>(v);
        break;
      case 'e':
        if (i < s.size() && s[i] == ' ') ++i;
        [[fallthrough]];
      case 'd':
        ok = number(s, i, 1, 2, v);
        f.day = static_cast<int>(v);
        break;
      case 'b': {
        const std::size_t start = i;
        while (i < s.size() && is_alpha(s[i])) ++i;
        f.month = month_from_name(s.substr(start, i - start));
        ok = f.month != 0;
        break;
      }
      case 'H':
        ok = number(s, i, 1, 2, v);
        f.hour = static_cast<int>(v);
        has_time = true;
        break;
      case 'M':
        ok = number(s, i, 1, 2, v);
        f.minute = static_cast<int>(v);
        break;
      case 'S':
        ok = number(s, i, 1, 2, v);
        f.second = static_cast<int>(v);
        has_seconds = true;
        break;
      case 'f': {
        const std::size_t start = i;
        for (; i < s.size() && is_digit(s[i]); ++i)
          if (i - start < 9) f.nanos = f.nanos * 10 + (s[i] - '0');
        const std::size_t digits = i - start;
        ok = digits > 0;
        f.fraction_digits = static_cast<int>(digits < 9 ? digits : 9);
        for (std::size_t d = f.fraction_digits; d < 9; ++d) f.nanos *= 10;
        break;
      }
      case 'z':
        if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
          f.zone = 'Z';
          ++i;
        } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
          f.zone = s[i++];
          std::int64_t hours = 0, minutes = 0;
          ok = number(s, i, 2, 2, hours);
          if (ok && i < s.size() && s[i] == ':') {
            ++i;
            ok = number(s, i, 2, 2, minutes);
          } else if (ok && i < s.size() && is_digit(s[i])) {
            ok = number(s, i, 2, 2, minutes);
          }
          f.offset_minutes = static_cast<int>(hours * 60 + minutes);
          if (ok && minutes > 59) {
            r.why = describe(datetime_problem::bad_offset);
            return r;
          }
        } else {
          ok = false;
        }
        break;
      case 's':
        ok = number(s, i, 1, 12, epoch);
        has_epoch = true;
        break;
    }
    if (!ok) {
      r.why = expected(step.directive);
      return r;
    }
  }
  if (i != s.size()) {
    r.why = expected(0);
    return r;
  }
  if (has_epoch) {
    if (!date_detail::from_unix_time(epoch, f.nanos, f.fraction_digits,
                                     r.value))
      r.why = describe(datetime_problem::impossible_date);
    return r;
  }
  f.form = !has_time               ? datetime_form::date
           : !has_seconds          ? datetime_form::minutes
           : f.fraction_digits > 0 ? datetime_form::fraction
                                   : datetime_form::seconds;
  const datetime_problem p = date_detail::to_w3c(f, r.value);
  if (p != datetime_problem::ok) {
    r.why = describe(p);
    return r;
  }
  if (has_time && f.zone == 0) return place(r.value);
  return r;
}

}  // namespace sitemill
