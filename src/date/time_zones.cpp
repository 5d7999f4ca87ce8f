// The lastmod reader's zones: a fixed offset, or an IANA zone whose rules
// come from the OS tz database through Howard Hinnant's date/tz (g++ 12's
// libstdc++ has no std::chrono tzdb; it came in GCC 14).
#include <date/tz.h>

#include <chrono>
#include <exception>
#include <string>
#include <string_view>

#include "detail/text.h"
#include "sitemill/date/lastmod_reading.h"

namespace sitemill {
namespace {

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

// "+hh", "+hhmm" or "+hh:mm" (or with '-'): minutes east of UTC, or false.
bool parse_offset(std::string_view z, int& minutes) noexcept {
  if (z.size() < 3 || (z[0] != '+' && z[0] != '-') || !is_digit(z[1]) ||
      !is_digit(z[2]))
    return false;
  int m = 0;
  if (z.size() == 5 && is_digit(z[3]) && is_digit(z[4]))
    m = (z[3] - '0') * 10 + (z[4] - '0');
  else if (z.size() == 6 && z[3] == ':' && is_digit(z[4]) && is_digit(z[5]))
    m = (z[4] - '0') * 10 + (z[5] - '0');
  else if (z.size() != 3)
    return false;
  if (m > 59) return false;
  minutes = ((z[1] - '0') * 10 + (z[2] - '0')) * 60 + m;
  if (z[0] == '-') minutes = -minutes;
  return true;
}

}  // namespace

status lastmod_reader::set_zone(std::string_view zone) {
  zone_kind_ = zone_kind::none;
  if (zone.empty()) return {};
  if (detail::iequals(zone, "Z") || detail::iequals(zone, "UTC")) {
    zone_kind_ = zone_kind::fixed;
    fixed_offset_ = 0;
    fixed_zulu_ = true;
    return {};
  }
  int minutes = 0;
  if (zone[0] == '+' || zone[0] == '-') {
    // W3C and sitemap.xsd bound a written offset to +-14:00.
    if (!parse_offset(zone, minutes) || minutes > 14 * 60 || minutes < -14 * 60)
      return error{"`time_zone` \"" + std::string(zone) +
                       "\" is no offset: write +hh:mm, +hhmm or +hh, from "
                       "-14:00 to +14:00",
                   "time_zone"};
    zone_kind_ = zone_kind::fixed;
    fixed_offset_ = static_cast<std::int16_t>(minutes);
    fixed_zulu_ = false;
    return {};
  }
  try {
    named_zone_ = date::locate_zone(zone);
  } catch (const std::exception&) {
    std::string name;
    detail::append_printable(name, zone);
    return error{"`time_zone` \"" + name +
                     "\" is not a zone of the tz database (/usr/share/"
                     "zoneinfo): give an IANA name such as Europe/Berlin "
                     "or America/New_York, or an offset such as +02:00",
                 "time_zone"};
  }
  zone_kind_ = zone_kind::named;
  return {};
}

lastmod_reading lastmod_reader::place(w3c_datetime local) const noexcept {
  lastmod_reading r;
  r.value = local;
  r.value.negative_zero_offset = false;
  switch (zone_kind_) {
    case zone_kind::none:
      r.value.offset_minutes = 0;
      r.value.zulu = true;
      r.note = lastmod_note::zone_assumed;
      return r;
    case zone_kind::fixed:
      r.value.offset_minutes = fixed_offset_;
      r.value.zulu = fixed_zulu_;
      return r;
    case zone_kind::named:
      break;
  }
  using namespace std::chrono;
  const date::year_month_day day{
      date::year{local.year}, date::month{local.month}, date::day{local.day}};
  const date::local_seconds when = date::local_days{day} + hours{local.hour} +
                                   minutes{local.minute} +
                                   seconds{local.second};
  try {
    const auto* zone = static_cast<const date::time_zone*>(named_zone_);
    const date::local_info info = zone->get_info(when);
    // Gap and overlap alike: the offset in force before the change, which
    // keeps the time as written and, in an overlap, is the earlier instant.
    const auto offset = duration_cast<minutes>(info.first.offset).count();
    if (info.result == date::local_info::nonexistent)
      r.note = lastmod_note::dst_gap;
    else if (info.result == date::local_info::ambiguous)
      r.note = lastmod_note::dst_overlap;
    if (offset > 14 * 60 || offset < -14 * 60) {
      r.why = describe(datetime_problem::bad_offset);
      return r;
    }
    r.value.offset_minutes = static_cast<std::int16_t>(offset);
    r.value.zulu = false;
  } catch (const std::exception&) {
    r.why = "the time zone's rules could not be read for this date";
  }
  return r;
}

result<lastmod_reader> lastmod_reader::create(std::string_view format,
                                              std::string_view zone) {
  const std::string one(format);
  return create(std::span<const std::string>(&one, 1), zone);
}

result<lastmod_reader> lastmod_reader::create(
    std::span<const std::string> formats, std::string_view zone) {
  lastmod_reader reader;
  const std::string automatic = "auto";
  if (formats.empty()) formats = std::span<const std::string>(&automatic, 1);
  if (formats.size() > max_formats)
    return error{"`date_format` takes at most " + std::to_string(max_formats) +
                     " formats, tried in order; " +
                     std::to_string(formats.size()) + " were given",
                 "date_format"};
  bool only_w3c = true;
  for (std::size_t i = 0; i < formats.size(); ++i) {
    const std::string_view format = formats[i];
    for (std::size_t j = 0; j < i; ++j)
      if (formats[j] == format || (formats[j].empty() && format == "auto") ||
          (format.empty() && formats[j] == "auto")) {
        std::string why = "`date_format` names \"";
        detail::append_printable(why, format.empty() ? "auto" : format);
        return error{why + "\" twice", "date_format"};
      }
    format_entry& f = reader.formats_[i];
    if (format.empty() || format == "auto") {
      f.kind = format_kind::automatic;
    } else if (format == "w3c") {
      f.kind = format_kind::w3c;
    } else {
      f.kind = format_kind::pattern;
      f.first = reader.steps_;
      if (status s = reader.compile_pattern(format); !s) {
        if (formats.size() == 1) return s.err();
        // Which of the patterns it is about.
        std::string why = "`date_format` \"";
        detail::append_printable(why, format);
        why += "\"";
        why += s.message().substr(std::string_view("`date_format`").size());
        return error{std::move(why), "date_format"};
      }
      f.end = reader.steps_;
    }
    only_w3c = only_w3c && f.kind == format_kind::w3c;
  }
  reader.format_count_ = static_cast<std::uint8_t>(formats.size());
  reader.format_ = reader.formats_[0].kind;
  if (only_w3c && !zone.empty())
    return error{
        "`time_zone` has no effect with `date_format` w3c: a W3C "
        "datetime always names its zone (use auto or a pattern)",
        "time_zone"};
  if (status s = reader.set_zone(zone); !s) return s.err();
  return reader;
}

}  // namespace sitemill
