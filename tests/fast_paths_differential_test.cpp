// The fast paths of the per-URL field work give what the code before them
// gave, on every input: format_lastmod() (two digits per table copy) and
// parse_changefreq() (the exact lowercase spelling told by its first
// letter). The oracles below are the functions as they were before the fast
// paths, copied verbatim; each is run against the library on generated and
// hostile inputs, out-of-range structs and odd spellings included.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "detail/text.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/entry/fields.h"

namespace sitemill {
namespace {

// --- The oracles: the code before the fast paths ---------------------------

char* old_put2(char* p, unsigned v) noexcept {
  p[0] = static_cast<char>('0' + v / 10 % 10);
  p[1] = static_cast<char>('0' + v % 10);
  return p + 2;
}

constexpr std::uint32_t old_pow10[10] = {
    1,       10,        100,        1'000,       10'000,
    100'000, 1'000'000, 10'000'000, 100'000'000, 1'000'000'000};

std::size_t old_format_lastmod(const w3c_datetime& value, char* buf) noexcept {
  char* p = buf;
  const unsigned year = static_cast<unsigned>(value.year) % 10'000;
  p = old_put2(p, year / 100);
  p = old_put2(p, year % 100);
  *p++ = '-';
  const bool has_month = value.form != datetime_form::year;
  const bool has_day = has_month && value.form != datetime_form::year_month;
  p = old_put2(p, has_month ? value.month : 1u);
  *p++ = '-';
  p = old_put2(p, has_day ? value.day : 1u);
  if (value.form <= datetime_form::date)
    return static_cast<std::size_t>(p - buf);
  *p++ = 'T';
  p = old_put2(p, value.hour);
  *p++ = ':';
  p = old_put2(p, value.minute);
  *p++ = ':';
  p = old_put2(p, value.second);
  if (value.form == datetime_form::fraction && value.fraction_digits > 0) {
    const unsigned digits =
        value.fraction_digits < 9 ? value.fraction_digits : 9;
    std::uint32_t frac = value.nanos % 1'000'000'000 / old_pow10[9 - digits];
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
    p = old_put2(p, magnitude / 60 % 100);
    *p++ = ':';
    p = old_put2(p, magnitude % 60);
  }
  return static_cast<std::size_t>(p - buf);
}

constexpr std::string_view old_names[] = {
    "", "always", "hourly", "daily", "weekly", "monthly", "yearly", "never"};

std::optional<changefreq> old_parse_changefreq(std::string_view text) {
  text = detail::trim(text);
  constexpr std::size_t max_length = 7;
  if (text.size() < 5 || text.size() > max_length) return std::nullopt;
  char lower[max_length];
  for (std::size_t i = 0; i < text.size(); ++i)
    lower[i] = detail::ascii_lower(text[i]);
  const std::string_view folded(lower, text.size());
  for (std::size_t i = 1; i < std::size(old_names); ++i)
    if (folded == old_names[i]) return static_cast<changefreq>(i);
  return std::nullopt;
}

// --- format_lastmod ---------------------------------------------------------

void expect_same_text(const w3c_datetime& v) {
  char got[max_lastmod_length + 8], want[max_lastmod_length + 8];
  const std::size_t n = format_lastmod(v, got);
  const std::size_t m = old_format_lastmod(v, want);
  ASSERT_EQ(std::string_view(got, n), std::string_view(want, m))
      << "year " << v.year << " month " << int{v.month} << " day " << int{v.day}
      << " " << int{v.hour} << ":" << int{v.minute} << ":" << int{v.second}
      << " offset " << v.offset_minutes << " form " << int(v.form);
}

TEST(LastmodFastPath, WritesWhatTheOldWriterWroteForEveryParsedValue) {
  // Every value the parser can give, sampled over all its fields: each form,
  // every month and day, hours, minutes and seconds at their ends, zones.
  std::mt19937_64 rng(2026);
  const char* zones[] = {"Z",      "+00:00", "-00:00", "+14:00",
                         "-14:00", "+05:30", "-09:59", "+01:00"};
  int checked = 0;
  for (int year : {1, 9, 10, 99, 100, 999, 1000, 1999, 2024, 9999}) {
    for (int month = 1; month <= 12; ++month) {
      for (int day = 1; day <= 31; ++day) {
        char text[64];
        const int len = std::snprintf(text, sizeof text, "%04d-%02d-%02d", year,
                                      month, day);
        w3c_datetime v;
        if (parse_w3c_datetime({text, std::size_t(len)}, v) !=
            datetime_problem::ok)
          continue;
        expect_same_text(v);
        const auto hour = static_cast<int>(rng() % 24);
        const auto minute = static_cast<int>(rng() % 60);
        const auto second = static_cast<int>(rng() % 60);
        const char* zone = zones[rng() % std::size(zones)];
        const std::string forms[] = {
            std::string(text, 4),
            std::string(text, 7),
            std::string(text) + "T" + std::to_string(100 + hour).substr(1) +
                ":" + std::to_string(100 + minute).substr(1) + zone,
            std::string(text) + "T" + std::to_string(100 + hour).substr(1) +
                ":" + std::to_string(100 + minute).substr(1) + ":" +
                std::to_string(100 + second).substr(1) + zone,
            std::string(text) + "T23:59:59." +
                std::to_string(rng() % 1000000000) + zone,
            std::string(text) + "T00:00:00.5" + zone};
        for (const std::string& f : forms) {
          w3c_datetime w;
          ASSERT_EQ(parse_w3c_datetime(f, w), datetime_problem::ok) << f;
          expect_same_text(w);
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 20000);
}

TEST(LastmodFastPath, WritesWhatTheOldWriterWroteForOutOfRangeStructs) {
  // A struct no parse makes (every byte value in each field, negative
  // years, offsets past any zone) still gives the old text, inside the
  // buffer.
  std::mt19937_64 rng(5);
  for (int i = 0; i < 200000; ++i) {
    w3c_datetime v;
    v.year = static_cast<std::int16_t>(rng());
    v.month = static_cast<std::uint8_t>(rng());
    v.day = static_cast<std::uint8_t>(rng());
    v.hour = static_cast<std::uint8_t>(rng());
    v.minute = static_cast<std::uint8_t>(rng());
    v.second = static_cast<std::uint8_t>(rng());
    v.nanos = static_cast<std::uint32_t>(rng());
    v.fraction_digits = static_cast<std::uint8_t>(rng() % 12);
    v.offset_minutes = static_cast<std::int16_t>(rng());
    v.zulu = rng() % 2 == 0;
    v.negative_zero_offset = rng() % 2 == 0;
    v.form = static_cast<datetime_form>(rng() % 6);
    expect_same_text(v);
  }
  for (unsigned b = 0; b < 256; ++b) {
    w3c_datetime v;
    v.form = datetime_form::seconds;
    v.month = v.day = v.hour = v.minute = v.second =
        static_cast<std::uint8_t>(b);
    expect_same_text(v);
  }
}

// --- parse_changefreq -------------------------------------------------------

void expect_same_changefreq(std::string_view text) {
  ASSERT_EQ(parse_changefreq(text), old_parse_changefreq(text))
      << "\"" << text << "\"";
}

TEST(ChangefreqFastPath, ReadsWhatTheOldParserReadForEverySpelling) {
  // Each name in every mix of case, with blanks around it, cut short, one
  // letter off, and with a byte of every value in each place.
  for (std::string_view name : old_names) {
    if (name.empty()) continue;
    const std::string n(name);
    for (unsigned mask = 0; mask < (1u << n.size()); ++mask) {
      std::string s = n;
      for (std::size_t i = 0; i < s.size(); ++i)
        if (mask & (1u << i)) s[i] = static_cast<char>(s[i] - 'a' + 'A');
      for (const std::string& t :
           {s, " " + s, s + " ", "\t" + s + "\r", s + "\n"})
        expect_same_changefreq(t);
    }
    for (std::size_t len = 0; len <= n.size() + 1; ++len)
      expect_same_changefreq(n.substr(0, len));
    for (std::size_t i = 0; i < n.size(); ++i) {
      for (unsigned b = 0; b < 256; ++b) {
        std::string s = n;
        s[i] = static_cast<char>(b);
        expect_same_changefreq(s);
      }
    }
    expect_same_changefreq(n + "s");
    expect_same_changefreq(n + n);
  }
  std::mt19937_64 rng(9);
  const std::string alphabet = "adehlmnorstuwyADHW \t";
  for (int i = 0; i < 100000; ++i) {
    std::string s;
    const std::size_t len = rng() % 10;
    for (std::size_t k = 0; k < len; ++k)
      s += alphabet[rng() % alphabet.size()];
    expect_same_changefreq(s);
  }
}

}  // namespace
}  // namespace sitemill
