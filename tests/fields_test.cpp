// changefreq and priority (docs/protocol.md 1.1, checklist 8-9 and 33-34).
#include "sitemill/entry/fields.h"

#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace sitemill {

void PrintTo(changefreq value, std::ostream* os) {
  *os << "changefreq::"
      << (value == changefreq::unset ? "unset" : to_string(value));
}

namespace {

// ---- changefreq ------------------------------------------------------------

void expect_changefreq(std::string_view text, std::optional<changefreq> want) {
  EXPECT_EQ(parse_changefreq(text), want) << "text: \"" << text << "\"";
}

TEST(Changefreq, ParsesAnyLetterCase) {
  // Checklist 33: lenient readers compare case-insensitively ("Monthly").
  struct {
    std::string_view text;
    changefreq want;
  } const cases[] = {
      {"always", changefreq::always},   {"hourly", changefreq::hourly},
      {"daily", changefreq::daily},     {"weekly", changefreq::weekly},
      {"monthly", changefreq::monthly}, {"yearly", changefreq::yearly},
      {"never", changefreq::never},     {"Monthly", changefreq::monthly},
      {"NEVER", changefreq::never},     {"wEeKlY", changefreq::weekly},
      {"ALWAYS", changefreq::always},   {"Hourly", changefreq::hourly},
      {"DAILY", changefreq::daily},     {"YearlY", changefreq::yearly},
  };
  for (const auto& c : cases) expect_changefreq(c.text, c.want);
}

TEST(Changefreq, IgnoresSurroundingAsciiWhitespace) {
  // Checklist 29: " monthly " is schema-invalid, but the value is clear.
  expect_changefreq(" monthly ", changefreq::monthly);
  expect_changefreq("\tdaily\r\n", changefreq::daily);
  expect_changefreq("\n\n  Never\n  ", changefreq::never);
}

TEST(Changefreq, RejectsEverythingElse) {
  const std::string_view cases[] = {
      "",
      " ",
      "sometimes",
      "week ly",
      "weeklyy",
      "alway",
      "never!",
      "unset",
      "dail",
      "monthly.",
      "bi-weekly",
      "1",
      "yearly,",
      "\xc2\xa0weekly",  // NBSP: not ASCII space
      "\xef\xbd\x97"
      "eekly",  // fullwidth w
      "daily daily",
  };
  for (const std::string_view text : cases)
    expect_changefreq(text, std::nullopt);
  expect_changefreq(std::string_view("daily\0", 6), std::nullopt);
}

TEST(Changefreq, WritesTheSevenLowercaseTokens) {
  // sitemap.xsd tChangeFreq: an enumeration of exactly these strings.
  EXPECT_EQ(to_string(changefreq::always), "always");
  EXPECT_EQ(to_string(changefreq::hourly), "hourly");
  EXPECT_EQ(to_string(changefreq::daily), "daily");
  EXPECT_EQ(to_string(changefreq::weekly), "weekly");
  EXPECT_EQ(to_string(changefreq::monthly), "monthly");
  EXPECT_EQ(to_string(changefreq::yearly), "yearly");
  EXPECT_EQ(to_string(changefreq::never), "never");
  EXPECT_EQ(to_string(changefreq::unset), "");
  EXPECT_EQ(to_string(static_cast<changefreq>(99)), "");
}

TEST(Changefreq, RoundTripsEveryValue) {
  for (int i = 1; i <= 7; ++i) {
    const auto value = static_cast<changefreq>(i);
    EXPECT_EQ(parse_changefreq(to_string(value)), value) << i;
  }
}

// ---- priority --------------------------------------------------------------

void expect_priority(std::string_view text, std::string_view canonical) {
  const std::optional<priority> p = priority::parse(text);
  ASSERT_TRUE(p.has_value()) << "text: \"" << text << "\"";
  EXPECT_EQ(p->text(), canonical) << "text: \"" << text << "\"";
}

void expect_refused(std::string_view text) {
  const std::optional<priority> p = priority::parse(text);
  EXPECT_FALSE(p.has_value())
      << "text: \"" << text << "\" gave \"" << (p ? p->text() : "") << "\"";
}

// Every "d.d" spelling, the shape parse() takes a shortcut for: in range
// exactly for 0.0-0.9 and 1.0, and already canonical.
TEST(Priority, EveryDigitDotDigitSpelling) {
  for (char a = '0'; a <= '9'; ++a) {
    for (char b = '0'; b <= '9'; ++b) {
      const std::string text{a, '.', b};
      if (a == '0' || (a == '1' && b == '0')) {
        expect_priority(text, text);
      } else {
        expect_refused(text);
      }
    }
  }
}

TEST(Priority, AcceptsXsdDecimalsInRangeAndWritesThemCanonically) {
  // Checklist 34 and edge case E17: `1`, `.5`, `+0.5`, `-0.0` are valid.
  struct {
    std::string_view text, canonical;
  } const cases[] = {
      {"0.5", "0.5"},
      {"1", "1.0"},
      {"1.0", "1.0"},
      {"1.000", "1.0"},
      {"1.", "1.0"},
      {"0", "0.0"},
      {"0.0", "0.0"},
      {"-0.0", "0.0"},
      {"-0", "0.0"},
      {"-.0", "0.0"},
      {"+0.5", "0.5"},
      {"+1", "1.0"},
      {".5", "0.5"},
      {"0.80", "0.8"},
      {"0.", "0.0"},
      {"00.25", "0.25"},
      {"000", "0.0"},
      {"01.00", "1.0"},
      {"0.1", "0.1"},
      {"0.05", "0.05"},
      {"0.123", "0.123"},
      {"0.0001", "0.0001"},
      {"0000000000000000000000001", "1.0"},
      {"0.9999999999", "0.9999999999"},
  };
  for (const auto& c : cases) expect_priority(c.text, c.canonical);
}

TEST(Priority, IgnoresSurroundingAsciiWhitespace) {
  expect_priority(" 0.5 ", "0.5");
  expect_priority("\t1\r\n", "1.0");
  expect_priority("\n  .25\n", "0.25");
}

TEST(Priority, RejectsValuesOutsideZeroToOne) {
  // sitemap.xsd tPriority: minInclusive 0.0, maxInclusive 1.0; edge case E18.
  const std::string_view cases[] = {
      "1.5",
      "1.01",
      "-0.1",
      "-1",
      "2",
      "10",
      "5.",  // "5." is lexically fine
      "1.0000000001",
      "-0.0000000001",
      "100",
      "1.00000000000000000001",
      "-.5",
  };
  for (const std::string_view text : cases) expect_refused(text);
}

TEST(Priority, RejectsTextThatIsNotAnXsdDecimal) {
  // xsd:decimal is [+-]?(d+(.d*)?|.d+): no exponent, comma, hex or words.
  const std::string_view cases[] = {
      "",
      " ",
      ".",
      "+",
      "-",
      "+.",
      "-.",
      "5e-1",
      "0.5e0",
      "0,5",
      "0.5.1",
      "0x1",
      "1 .0",
      "0. 5",
      "++0.5",
      "+-0.5",
      "NaN",
      "inf",
      "0.5f",
      "½",
      "0.5%",
      "\xc2\xa0"
      "0.5",   // NBSP is not ASCII whitespace
      "０.5",  // fullwidth zero
  };
  for (const std::string_view text : cases) expect_refused(text);
  expect_refused(std::string_view("0.5\0", 4));
}

TEST(Priority, RefusesMoreThanTenSignificantFractionDigits) {
  // Refused rather than rounded, so a value never silently changes.
  expect_priority("0.1234567891", "0.1234567891");
  expect_priority("0.12345678910000", "0.1234567891");
  expect_priority("0.0000000001", "0.0000000001");
  expect_refused("0.12345678912");
  expect_refused("0.00000000001");
  expect_refused("0.99999999999");
}

TEST(Priority, CanonicalTextParsesBackToItself) {
  const std::string_view cases[] = {"1",     ".5",           "0.80", "-0.0",
                                    "00.25", "0.1234567891", "+0",   "1.000"};
  for (const std::string_view text : cases) {
    const std::optional<priority> once = priority::parse(text);
    ASSERT_TRUE(once.has_value()) << text;
    const std::optional<priority> twice = priority::parse(once->text());
    ASSERT_TRUE(twice.has_value()) << text;
    EXPECT_EQ(twice->text(), once->text()) << text;
    EXPECT_LE(once->text().size(), 2 + priority::max_fraction_digits);
  }
}

TEST(Priority, EqualityComparesValuesNotSpelling) {
  EXPECT_EQ(priority::parse(".5"), priority::parse("0.50"));
  EXPECT_EQ(priority::parse("1"), priority::parse("+1.000"));
  EXPECT_EQ(priority::parse("-0"), priority::parse("0.0"));
  EXPECT_NE(priority::parse("0.5"), priority::parse("0.05"));
  EXPECT_NE(priority::parse("0.1"), priority::parse("0.1000000001"));
}

}  // namespace
}  // namespace sitemill
