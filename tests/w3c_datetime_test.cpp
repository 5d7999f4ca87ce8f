// lastmod values: the W3C NOTE-datetime profile
// (https://www.w3.org/TR/NOTE-datetime) against what sitemap.xsd accepts, as
// laid out in docs/protocol.md section 2.
#include "sitemill/date/w3c_datetime.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

namespace sitemill {

// Readable failure messages instead of enum integers.
void PrintTo(datetime_problem problem, std::ostream* os) {
  constexpr const char* names[] = {"ok",
                                   "malformed",
                                   "no_timezone",
                                   "impossible_date",
                                   "impossible_time",
                                   "bad_offset"};
  const auto i = static_cast<std::size_t>(problem);
  *os << (i < std::size(names) ? names[i] : "?");
}

void PrintTo(datetime_form form, std::ostream* os) {
  constexpr const char* names[] = {"year",    "year_month", "date",
                                   "minutes", "seconds",    "fraction"};
  const auto i = static_cast<std::size_t>(form);
  *os << (i < std::size(names) ? names[i] : "?");
}

namespace {

using dp = datetime_problem;

datetime_problem problem_of(std::string_view text) {
  w3c_datetime value;
  return parse_w3c_datetime(text, value);
}

void expect_problem(std::string_view text, datetime_problem want) {
  EXPECT_EQ(problem_of(text), want) << "text: \"" << text << "\"";
}

w3c_datetime parse_ok(std::string_view text) {
  w3c_datetime value;
  EXPECT_EQ(parse_w3c_datetime(text, value), dp::ok)
      << "text: \"" << text << "\"";
  return value;
}

std::string format(const w3c_datetime& value) {
  char buf[max_lastmod_length];
  return std::string(buf, format_lastmod(value, buf));
}

std::string reformat(std::string_view text) { return format(parse_ok(text)); }

std::int64_t seconds_of(std::string_view text) {
  return parse_ok(text).unix_seconds();
}

// ---- parsing: the six forms (NOTE-datetime, "The formats are as follows") --

TEST(W3cDatetime, RecognisesEachOfTheSixForms) {
  struct {
    std::string_view text;
    datetime_form form;
  } const cases[] = {
      {"1997", datetime_form::year},
      {"1997-07", datetime_form::year_month},
      {"1997-07-16", datetime_form::date},
      {"1997-07-16T19:20+01:00", datetime_form::minutes},
      {"1997-07-16T19:20:30+01:00", datetime_form::seconds},
      {"1997-07-16T19:20:30.45+01:00", datetime_form::fraction},
      {"1997-07-16T19:20Z", datetime_form::minutes},
      {"1997-07-16T19:20:30Z", datetime_form::seconds},
      {"1997-07-16T19:20:30.45Z", datetime_form::fraction},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(parse_ok(c.text).form, c.form) << c.text;
  }
}

TEST(W3cDatetime, FillsEveryFieldOfTheFractionForm) {
  const w3c_datetime v = parse_ok("1997-07-16T19:20:30.45-05:30");
  EXPECT_EQ(v.year, 1997);
  EXPECT_EQ(v.month, 7);
  EXPECT_EQ(v.day, 16);
  EXPECT_EQ(v.hour, 19);
  EXPECT_EQ(v.minute, 20);
  EXPECT_EQ(v.second, 30);
  EXPECT_EQ(v.nanos, 450'000'000u);
  EXPECT_EQ(v.fraction_digits, 2);
  EXPECT_EQ(v.offset_minutes, -330);
  EXPECT_FALSE(v.zulu);
  EXPECT_FALSE(v.negative_zero_offset);
}

TEST(W3cDatetime, FillsTheSameFieldsOnTheFastPath) {
  // "YYYY-MM-DD", "...ssZ" and "...ss+hh:mm" take a shortcut; it must agree
  // with the general parser field for field.
  struct {
    std::string_view text;
    int year, month, day, hour, minute, second, offset;
    bool zulu, negative_zero;
    datetime_form form;
  } const cases[] = {
      {"2005-07-16", 2005, 7, 16, 0, 0, 0, 0, false, false,
       datetime_form::date},
      {"2005-07-16T19:20:30Z", 2005, 7, 16, 19, 20, 30, 0, true, false,
       datetime_form::seconds},
      {"2005-07-16T19:20:30-05:30", 2005, 7, 16, 19, 20, 30, -330, false, false,
       datetime_form::seconds},
      {"2005-07-16T19:20:30+14:00", 2005, 7, 16, 19, 20, 30, 840, false, false,
       datetime_form::seconds},
      {"2005-07-16T19:20:30-00:00", 2005, 7, 16, 19, 20, 30, 0, false, true,
       datetime_form::seconds},
      {"2005-07-16T19:20:30+00:00", 2005, 7, 16, 19, 20, 30, 0, false, false,
       datetime_form::seconds},
      // Same lengths (10, 20, 25) in other forms go the general way.
      {"2005-07-16T19:20+01:00", 2005, 7, 16, 19, 20, 0, 60, false, false,
       datetime_form::minutes},
      {"2005-07-16T19:20:30.1Z", 2005, 7, 16, 19, 20, 30, 0, true, false,
       datetime_form::fraction},
      {"2005-07-16T19:20:30.1234Z", 2005, 7, 16, 19, 20, 30, 0, true, false,
       datetime_form::fraction},
  };
  for (const auto& c : cases) {
    w3c_datetime v;
    v.hour = v.minute = v.second = 99;  // must be overwritten
    v.nanos = 99;
    v.fraction_digits = 99;
    v.zulu = v.negative_zero_offset = !c.zulu;
    ASSERT_EQ(parse_w3c_datetime(c.text, v), dp::ok) << c.text;
    EXPECT_EQ(v.year, c.year) << c.text;
    EXPECT_EQ(v.month, c.month) << c.text;
    EXPECT_EQ(v.day, c.day) << c.text;
    EXPECT_EQ(v.hour, c.hour) << c.text;
    EXPECT_EQ(v.minute, c.minute) << c.text;
    EXPECT_EQ(v.second, c.second) << c.text;
    EXPECT_EQ(v.offset_minutes, c.offset) << c.text;
    EXPECT_EQ(v.zulu, c.zulu) << c.text;
    EXPECT_EQ(v.negative_zero_offset, c.negative_zero) << c.text;
    EXPECT_EQ(v.form, c.form) << c.text;
    if (c.form != datetime_form::fraction) {
      EXPECT_EQ(v.nanos, 0u) << c.text;
      EXPECT_EQ(v.fraction_digits, 0) << c.text;
    }
  }
}

TEST(W3cDatetime, LeavesMissingFieldsAtTheirLowestValue) {
  const w3c_datetime year = parse_ok("2005");
  EXPECT_EQ(year.month, 1);
  EXPECT_EQ(year.day, 1);
  const w3c_datetime month = parse_ok("2005-07");
  EXPECT_EQ(month.month, 7);
  EXPECT_EQ(month.day, 1);
  const w3c_datetime minutes = parse_ok("2005-07-16T19:20Z");
  EXPECT_EQ(minutes.second, 0);
  EXPECT_EQ(minutes.nanos, 0u);
  EXPECT_EQ(minutes.fraction_digits, 0);
  EXPECT_TRUE(minutes.zulu);
  EXPECT_EQ(minutes.offset_minutes, 0);
}

TEST(W3cDatetime, KeepsNineFractionDigitsAndTruncatesTheRest) {
  // NOTE-datetime: "s = one or more digits"; nanoseconds hold nine of them.
  struct {
    std::string_view text;
    std::uint32_t nanos;
    int digits;
  } const cases[] = {
      {"2005-01-01T00:00:00.5Z", 500'000'000, 1},
      {"2005-01-01T00:00:00.000Z", 0, 3},
      {"2005-01-01T00:00:00.000000001Z", 1, 9},
      {"2005-01-01T00:00:00.123456789Z", 123'456'789, 9},
      {"2005-01-01T00:00:00.1234567899999Z", 123'456'789, 9},
      {"2005-01-01T00:00:00.99999999999999999999Z", 999'999'999, 9},
  };
  for (const auto& c : cases) {
    const w3c_datetime v = parse_ok(c.text);
    EXPECT_EQ(v.nanos, c.nanos) << c.text;
    EXPECT_EQ(v.fraction_digits, c.digits) << c.text;
  }
}

// ---- parsing: problems (docs/protocol.md section 2, checklist 32)
// ---------------

TEST(W3cDatetime, RejectsTimeWithoutZone) {
  // "Every form that includes a time includes the TZD"; Google calls a
  // missing zone an "invalid date error" although the XSD accepts it.
  expect_problem("2005-01-01T10:20:30", dp::no_timezone);
  expect_problem("2005-01-01T10:20", dp::no_timezone);
  expect_problem("2005-01-01T10:20:30.45", dp::no_timezone);
  expect_problem("2005-01-01T00:00:00", dp::no_timezone);
}

TEST(W3cDatetime, RejectsMalformedText) {
  // "Exactly the components shown here must be present, with exactly this
  // punctuation."
  const std::string_view cases[] = {
      "",
      "2",
      "200",
      "05-01-01",  // two-digit year
      "20050101",  // basic ISO 8601, not the W3C profile
      "2005/01/01",
      "2005-1-01",
      "2005-01-1",
      "2005-01-",
      "2005-",
      "+2005",
      "-2005-01-01",  // no negative years in the profile
      "12005-01-01",  // no five-digit years either
      "2005-01-01Z",  // a date takes no zone in the profile
      "2005-01-01+02:00",
      "2005-01-01 10:20:30Z",  // space instead of T
      "2005-01-01t10:20:30Z",  // lowercase t
      "2005-01-01T10:20:30z",  // lowercase z
      "2005-01-01T",
      "2005-01-01T10",
      "2005-01-01T10Z",
      "2005-01-01T10:2Z",
      "2005-01-01T1:20:30Z",
      "2005-01-01T10:20:3Z",
      "2005-01-01T10:20:",
      "2005-01-01T10:20:30.Z",  // a fraction needs a digit
      "2005-01-01T10:20:30.",
      "2005-01-01T10:20:30.5.5Z",
      "2005-01-01T10:20:30,5Z",
      "2005-01-01T10:20:30+0100",  // no colon
      "2005-01-01T10:20:30+01",
      "2005-01-01T10:20:30+1:00",
      "2005-01-01T10:20:30+01:0",
      "2005-01-01T10:20:30+01:00:00",
      "2005-01-01T10:20:30 Z",
      "2005-01-01T10:20:30ZZ",
      "2005-01-01T10:20:30Z+01:00",
      "2005-01-01T10:20:30UTC",
      "2005-01-01T10:20:30GMT+1",
      " 2005-01-01",  // whitespace is the caller's to trim
      "2005-01-01 ",
      "2005-01-01\n",
      "2005-0a-01",
      "abcd",
      "\xef\xbc\x92\xef\xbc\x90\xef\xbc\x90\xef\xbc\x95",  // fullwidth digits
      "2005-01-01T10:20:30+01:00\xc2\xa0",
  };
  for (const std::string_view text : cases) expect_problem(text, dp::malformed);
  expect_problem(std::string_view("2005-01-01\0", 11), dp::malformed);
}

TEST(W3cDatetime, RejectsImpossibleDates) {
  const std::string_view cases[] = {
      "0000",
      "0000-01",
      "0000-01-01",
      "2005-00",
      "2005-13",
      "2005-00-10",
      "2005-13-01",
      "2005-99-01",
      "2005-01-00",
      "2005-01-32",
      "2005-02-29",
      "2005-04-31",
      "2005-06-31",
      "2005-09-31",
      "2005-11-31",
      "2024-02-30",
      "2005-02-30T10:20:30Z",
  };
  for (const std::string_view text : cases)
    expect_problem(text, dp::impossible_date);
}

TEST(W3cDatetime, FollowsGregorianLeapYears) {
  // Divisible by 4, except centuries, except every fourth century.
  struct {
    std::string_view text;
    datetime_problem want;
  } const cases[] = {
      {"2024-02-29", dp::ok},
      {"2023-02-29", dp::impossible_date},
      {"1900-02-29", dp::impossible_date},
      {"2000-02-29", dp::ok},
      {"2100-02-29", dp::impossible_date},
      {"1600-02-29", dp::ok},
      {"0004-02-29", dp::ok},
      {"0001-02-29", dp::impossible_date},
      {"9996-02-29", dp::ok},
      {"2024-02-30", dp::impossible_date},
      {"2023-02-28", dp::ok},
      {"2024-12-31", dp::ok},
      {"9999-12-31", dp::ok},
      {"0001-01-01", dp::ok},
  };
  for (const auto& c : cases) expect_problem(c.text, c.want);
}

TEST(W3cDatetime, RejectsImpossibleTimes) {
  // NOTE-datetime: hh 00-23, mm 00-59, ss 00-59 (no 24:00, no leap second).
  const std::string_view cases[] = {
      "2005-01-01T24:00:00Z",   "2005-01-01T24:00Z",
      "2005-01-01T25:00:00Z",   "2005-01-01T99:00:00+01:00",
      "2005-01-01T23:60:00Z",   "2005-01-01T23:59:60Z",
      "2005-01-01T23:59:60.5Z", "2005-01-01T00:00:99Z",
  };
  for (const std::string_view text : cases)
    expect_problem(text, dp::impossible_time);
  expect_problem("2005-01-01T23:59:59.999999999Z", dp::ok);
  expect_problem("2005-01-01T00:00:00Z", dp::ok);
}

TEST(W3cDatetime, RejectsOffsetsBeyondFourteenHours) {
  // sitemap.xsd's xsd:dateTime bounds zones to +-14:00 (measured).
  struct {
    std::string_view text;
    datetime_problem want;
  } const cases[] = {
      {"2005-01-01T10:20:30+14:00", dp::ok},
      {"2005-01-01T10:20:30-14:00", dp::ok},
      {"2005-01-01T10:20:30+13:59", dp::ok},
      {"2005-01-01T10:20:30+00:00", dp::ok},
      {"2005-01-01T10:20:30-00:00", dp::ok},
      {"2005-01-01T10:20:30+05:45", dp::ok},
      {"2005-01-01T10:20:30+14:01", dp::bad_offset},
      {"2005-01-01T10:20:30-14:30", dp::bad_offset},
      {"2005-01-01T10:20:30+15:00", dp::bad_offset},
      {"2005-01-01T10:20:30+23:00", dp::bad_offset},
      {"2005-01-01T10:20:30+01:60", dp::bad_offset},
      {"2005-01-01T10:20:30-99:99", dp::bad_offset},
      {"2005-01-01T10:20+14:01", dp::bad_offset},
  };
  for (const auto& c : cases) expect_problem(c.text, c.want);
}

TEST(W3cDatetime, ReportsShapeFirstThenTheFirstProblemInReadingOrder) {
  expect_problem("2005-02-30T10:20:30", dp::impossible_date);
  expect_problem("2005-02-30T24:00:00+15:00", dp::impossible_date);
  expect_problem("2005-01-01T24:00:00", dp::impossible_time);
  expect_problem("2005-01-01T24:00:00+15:00", dp::impossible_time);
  expect_problem("2005-02-30T10:20:30+0100", dp::malformed);
  expect_problem("0000-01-01T10:20:30 ", dp::malformed);
}

TEST(W3cDatetime, LeavesOutputUntouchedOnError) {
  w3c_datetime value = parse_ok("1997-07-16T19:20:30Z");
  EXPECT_EQ(parse_w3c_datetime("2005-02-30", value), dp::impossible_date);
  EXPECT_EQ(value.year, 1997);
  EXPECT_EQ(value.day, 16);
  EXPECT_EQ(value.form, datetime_form::seconds);
}

TEST(W3cDatetime, DescribesEveryProblemDifferently) {
  const datetime_problem all[] = {dp::ok,
                                  dp::malformed,
                                  dp::no_timezone,
                                  dp::impossible_date,
                                  dp::impossible_time,
                                  dp::bad_offset};
  for (const auto a : all) {
    EXPECT_FALSE(describe(a).empty());
    for (const auto b : all) {
      if (a != b) {
        EXPECT_NE(describe(a), describe(b));
      }
    }
  }
  // The message must tell the fix, not just the failure.
  EXPECT_NE(describe(dp::no_timezone).find("Z or +hh:mm"),
            std::string_view::npos);
  EXPECT_NE(describe(dp::bad_offset).find("14:00"), std::string_view::npos);
}

// ---- formatting: only forms both NOTE-datetime and the XSD accept ----------

TEST(W3cDatetime, FormatsEveryFormInTheSafeIntersection) {
  // docs/protocol.md section 2, "Safe intersection for generators".
  struct {
    std::string_view in, out;
  } const cases[] = {
      {"2005", "2005-01-01"},
      {"2005-07", "2005-07-01"},
      {"2005-07-16", "2005-07-16"},
      {"2005-07-16T19:20+01:00", "2005-07-16T19:20:00+01:00"},
      {"2005-07-16T19:20Z", "2005-07-16T19:20:00Z"},
      {"2005-07-16T19:20:30+01:00", "2005-07-16T19:20:30+01:00"},
      {"2005-07-16T19:20:30Z", "2005-07-16T19:20:30Z"},
      {"2005-07-16T19:20:30.45+01:00", "2005-07-16T19:20:30.45+01:00"},
      {"2005-07-16T19:20:30.450Z", "2005-07-16T19:20:30.450Z"},
      {"2005-07-16T19:20:30.0Z", "2005-07-16T19:20:30.0Z"},
      {"2005-07-16T19:20:30.000000001Z", "2005-07-16T19:20:30.000000001Z"},
      {"2005-07-16T19:20:30.1234567891234Z", "2005-07-16T19:20:30.123456789Z"},
      {"0001-01-01", "0001-01-01"},
      {"9999-12-31T23:59:59.999999999-14:00",
       "9999-12-31T23:59:59.999999999-14:00"},
  };
  for (const auto& c : cases) {
    const std::string out = reformat(c.in);
    EXPECT_EQ(out, c.out) << c.in;
    EXPECT_TRUE(xsd_accepts_lastmod(out)) << out;
  }
}

TEST(W3cDatetime, FormatKeepsTheZoneAsWritten) {
  struct {
    std::string_view in, out;
  } const cases[] = {
      {"2005-07-16T19:20:30Z", "2005-07-16T19:20:30Z"},
      {"2005-07-16T19:20:30+00:00", "2005-07-16T19:20:30+00:00"},
      {"2005-07-16T19:20:30-00:00", "2005-07-16T19:20:30-00:00"},
      {"2005-07-16T19:20:30+05:30", "2005-07-16T19:20:30+05:30"},
      {"2005-07-16T19:20:30-09:30", "2005-07-16T19:20:30-09:30"},
      {"2005-07-16T19:20:30+14:00", "2005-07-16T19:20:30+14:00"},
      {"2005-07-16T19:20:30-00:01", "2005-07-16T19:20:30-00:01"},
  };
  for (const auto& c : cases) EXPECT_EQ(reformat(c.in), c.out) << c.in;
}

TEST(W3cDatetime, FormatsABuiltValue) {
  // The generator builds values itself, e.g. from a file's mtime.
  w3c_datetime v;
  v.year = 2024;
  v.month = 2;
  v.day = 29;
  v.hour = 7;
  v.minute = 5;
  v.second = 9;
  v.form = datetime_form::seconds;
  v.zulu = true;
  EXPECT_EQ(format(v), "2024-02-29T07:05:09Z");
  v.zulu = false;
  v.offset_minutes = -(3 * 60 + 30);
  EXPECT_EQ(format(v), "2024-02-29T07:05:09-03:30");
  v.form = datetime_form::fraction;
  v.nanos = 7'000'000;
  v.fraction_digits = 3;
  EXPECT_EQ(format(v), "2024-02-29T07:05:09.007-03:30");
  v.form = datetime_form::date;
  EXPECT_EQ(format(v), "2024-02-29");
  // A shorter form means only its fields count: the rest is the period start.
  v.form = datetime_form::year_month;
  EXPECT_EQ(format(v), "2024-02-01");
  v.form = datetime_form::year;
  EXPECT_EQ(format(v), "2024-01-01");
}

TEST(W3cDatetime, LongestFormatFillsTheBufferExactly) {
  std::array<char, max_lastmod_length> buf;  // exact size: ASan checks bounds
  const std::size_t n = format_lastmod(
      parse_ok("2005-07-16T19:20:30.123456789+01:00"), buf.data());
  EXPECT_EQ(n, max_lastmod_length);
  EXPECT_EQ(std::string_view(buf.data(), n),
            "2005-07-16T19:20:30.123456789+01:00");
}

TEST(W3cDatetime, FormatStaysInTheBufferForOutOfRangeFields) {
  w3c_datetime v;
  v.year = -32768;
  v.month = 255;
  v.day = 255;
  v.hour = 255;
  v.minute = 255;
  v.second = 255;
  v.nanos = 4'294'967'295u;
  v.fraction_digits = 255;
  v.offset_minutes = -32768;
  v.form = datetime_form::fraction;
  std::array<char, max_lastmod_length> buf;
  EXPECT_LE(format_lastmod(v, buf.data()), max_lastmod_length);
  v.form = static_cast<datetime_form>(200);
  EXPECT_LE(format_lastmod(v, buf.data()), max_lastmod_length);
}

TEST(W3cDatetime, FormattedTextParsesBackToTheSameInstant) {
  const std::string_view cases[] = {
      "2005",
      "2005-07",
      "2024-02-29",
      "2005-07-16T19:20+01:00",
      "2005-07-16T19:20:30-00:00",
      "2005-07-16T19:20:30.45+14:00",
      "0001-01-01T00:00:00Z",
      "9999-12-31T23:59:59.999999999999Z",
  };
  for (const std::string_view text : cases) {
    const w3c_datetime first = parse_ok(text);
    const std::string once = format(first);
    const w3c_datetime second = parse_ok(once);
    EXPECT_EQ(second.unix_seconds(), first.unix_seconds()) << text;
    EXPECT_EQ(second.nanos, first.nanos) << text;
    EXPECT_EQ(format(second), once) << text;
    EXPECT_TRUE(xsd_accepts_lastmod(once)) << once;
  }
}

// ---- unix_seconds
// ------------------------------------------------------------

TEST(W3cDatetime, ComputesUnixSecondsOfKnownInstants) {
  // Expected values from GNU `date -u -d <text> +%s`.
  struct {
    std::string_view text;
    std::int64_t seconds;
  } const cases[] = {
      {"1970-01-01", 0},
      {"1970-01-01T00:00:00Z", 0},
      {"1969-12-31T23:59:59Z", -1},
      {"2005-01-01T00:00:00Z", 1'104'537'600},
      {"2000-02-29", 951'782'400},
      {"2005-07-16T19:20:30+01:00", 1'121'538'030},
      {"2005-07-16T19:20:30.999+01:00", 1'121'538'030},
      {"1600-03-01", -11'670'912'000},
      {"0001-01-01", -62'135'596'800},
      {"9999-12-31T23:59:59Z", 253'402'300'799},
  };
  for (const auto& c : cases)
    EXPECT_EQ(seconds_of(c.text), c.seconds) << c.text;
}

TEST(W3cDatetime, OrdersInstantsWrittenInDifferentZones) {
  EXPECT_LT(seconds_of("2005-01-01T00:30:00+01:00"),
            seconds_of("2005-01-01T00:00:00Z"));
  EXPECT_EQ(seconds_of("2005-01-01T01:00:00+01:00"),
            seconds_of("2005-01-01T00:00:00Z"));
  EXPECT_EQ(seconds_of("2004-12-31T23:00:00-01:00"),
            seconds_of("2005-01-01T00:00:00Z"));
  EXPECT_EQ(seconds_of("2005-01-01T13:45:00+13:45"),
            seconds_of("2005-01-01T00:00Z"));
  EXPECT_EQ(seconds_of("2005-01-01T00:00:00-00:00"),
            seconds_of("2005-01-01T00:00:00+00:00"));
  EXPECT_GT(seconds_of("2005-01-01T00:00:00-14:00"),
            seconds_of("2005-01-01T00:00:00+14:00"));
}

TEST(W3cDatetime, ReadsDateFormsAsMidnightUtc) {
  // Google (docs/protocol.md section 2): "it defaults to midnight UTC".
  EXPECT_EQ(seconds_of("2005"), seconds_of("2005-01-01T00:00:00Z"));
  EXPECT_EQ(seconds_of("2005-07"), seconds_of("2005-07-01T00:00:00Z"));
  EXPECT_EQ(seconds_of("2005-07-16"), seconds_of("2005-07-16T00:00:00Z"));
}

// ---- what sitemap.xsd accepts ----------------------------------------------

TEST(W3cDatetime, XsdAcceptsLastmodExactlyAsXmllintDoes) {
  // measured with xmllint, libxml2 2.9.14: each value in <lastmod> of a
  // one-URL sitemap, `xmllint --noout --schema sitemap.xsd`.
  struct {
    std::string_view text;
    bool accepted;
  } const cases[] = {
      {"2005", false},
      {"2005-01", false},
      {"2005-01-01", true},
      {"2005-01-01+02:00", true},
      {"2005-01-01Z", true},
      {"2005-01-01T10:20+01:00", false},
      {"2005-01-01T10:20:30+01:00", true},
      {"2005-01-01T10:20:30Z", true},
      {"2005-01-01T10:20:30.45+01:00", true},
      {"2005-01-01T10:20:30", true},
      {"2005-01-01T10:20:30.5", true},
      {"2005-01-01 10:20:30+01:00", false},
      {"2005-01-01T10:20:30+0100", false},
      {"2005-02-30", false},
      {"2005-04-31", false},
      {"2005-13-01", false},
      {"2005-00-01", false},
      {"2005-01-00", false},
      {"2005-01-32", false},
      {"2024-02-29", true},
      {"2023-02-29", false},
      {"1900-02-29", false},
      {"2000-02-29", true},
      {"2005-01-01T24:00:00Z", true},
      {"2005-12-31T24:00:00Z", true},
      {"2005-01-01T24:00:00+14:00", true},
      {"2005-01-01T24:00:00.0Z", true},
      {"2005-01-01T24:00:00.000", true},
      {"2005-01-01T24:00:00.5Z", false},
      {"2005-01-01T24:00:01Z", false},
      {"2005-01-01T24:01:00Z", false},
      {"2005-01-01T23:59:60Z", false},
      {"2005-01-01T10:60:00Z", false},
      {"  2005-01-01  ", true},
      {"\t2005-01-01\n", true},
      {"2005-01-01\r", true},
      {"\r2005-01-01T10:20:30Z\t", true},
      {"2005-01-01T10:20:30 ", true},
      {"2005-01-01T10:20:30Z\xc2\xa0", false},  // NBSP is not XML whitespace
      {"2005-01-01\xe2\x80\x80", false},        // nor is U+2000
      {"0000-01-01", false},
      {"-0000-01-01", false},
      {"0001-01-01", true},
      {"-0001-01-01", true},
      {"10000-01-01", true},
      {"-10000-01-01", true},
      {"010000-01-01", false},
      {"-010000-01-01", false},
      {"00100-01-01", false},
      {"205-01-01", false},
      {"+2005-01-01", false},
      {"-0004-02-29", true},
      {"-0001-02-29", false},
      {"-0100-02-29", false},
      {"-0400-02-29", true},
      {"12345678-01-01", true},
      {"9223372036854775807-01-01", true},
      {"-9223372036854775807-01-01", true},
      {"9223372036854775808-01-01", false},
      {"-9223372036854775808-01-01", false},
      {"99999999999999999999-01-01", false},
      {"9223372036854775807-02-29", false},
      {"9223372036854775600-02-29", true},
      {"2005-1-01", false},
      {"2005-01-01t10:20:30Z", false},
      {"2005-01-01T10:20:30z", false},
      {"2005-01-01T1:20:30Z", false},
      {"2005-01-01T10:20:3Z", false},
      {"2005-01-01T10:20:30+14:00", true},
      {"2005-01-01T10:20:30-14:00", true},
      {"2005-01-01T10:20:30+13:59", true},
      {"2005-01-01T10:20:30+14:01", false},
      {"2005-01-01T10:20:30+15:00", false},
      {"2005-01-01T10:20:30+13:60", false},
      {"2005-01-01T10:20:30+23:00", false},
      {"2005-01-01T10:20:30+24:00", false},
      {"2005-01-01T10:20:30-00:00", true},
      {"2005-01-01T10:20:30+00:00", true},
      {"2005-01-01-00:00", true},
      {"2005-01-01-14:00", true},
      {"2005-01-01-14:01", false},
      {"2005-01-01+14:30", false},
      {"2005-01-01T10:20:30+1:00", false},
      {"2005-01-01T10:20:30-0:00", false},
      {"2005-01-01T10:20:30+01", false},
      {"2005-01-01T10:20:30 Z", false},
      {"2005-01-01T10:20:30+14:00x", false},
      {"2005-01-01T10:20:30ZZ", false},
      {"2005-01-01T10:20:30Z+01:00", false},
      {"2005-01-01T10:20:30.Z", false},
      {"2005-01-01T10:20:30.5.5Z", false},
      {"2005-01-01T10:20:30.123456789012Z", true},
      {"2005-01-01T10:20:30.000000000000000000000000000000000000000000001Z",
       true},
      // The fraction is summed as a double: 13 nines stay below 60, 14 round
      // up to 60.0 and are refused.
      {"2005-01-01T10:20:59.9999999999999Z", true},
      {"2005-01-01T10:20:59.99999999999999Z", false},
      {"2005-01-01T10:20:59.9999999999999999Z", false},
      {"2005-01-01T", false},
      {" ", false},
      {"", false},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(xsd_accepts_lastmod(c.text), c.accepted)
        << "text: \"" << c.text << "\"";
  }
}

TEST(W3cDatetime, XsdModelFollowsLibxmlDoubleArithmeticForTinyFractions) {
  // measured with xmllint, libxml2 2.9.14: after 400 zeros the digit's weight
  // underflows to 0.0, so "24:00:00.000...0001" counts as exactly 24:00:00;
  // after 300 zeros it does not.
  const std::string far = "2005-01-01T24:00:00." + std::string(400, '0') + "1Z";
  const std::string near =
      "2005-01-01T24:00:00." + std::string(300, '0') + "1Z";
  EXPECT_TRUE(xsd_accepts_lastmod(far));
  EXPECT_FALSE(xsd_accepts_lastmod(near));
}

TEST(W3cDatetime, W3cAndXsdDisagreeInBothDirections) {
  // docs/protocol.md section 2 and section 9 item 1: the checker needs both
  // views.
  struct {
    std::string_view text;
    datetime_problem w3c;
    bool xsd;
  } const cases[] = {
      {"2005", dp::ok, false},
      {"2005-01", dp::ok, false},
      {"2005-01-01", dp::ok, true},
      {"2005-01-01+02:00", dp::malformed, true},
      {"2005-01-01T10:20+01:00", dp::ok, false},
      {"2005-01-01T10:20:30+01:00", dp::ok, true},
      {"2005-01-01T10:20:30Z", dp::ok, true},
      {"2005-01-01T10:20:30.45+01:00", dp::ok, true},
      {"2005-01-01T10:20:30", dp::no_timezone, true},
      {"2005-01-01 10:20:30+01:00", dp::malformed, false},
      {"2005-01-01T10:20:30+0100", dp::malformed, false},
      {"2005-02-30", dp::impossible_date, false},
      {"2005-01-01T24:00:00Z", dp::impossible_time, true},
      {" 2005-01-01 ", dp::malformed, true},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(problem_of(c.text), c.w3c) << c.text;
    EXPECT_EQ(xsd_accepts_lastmod(c.text), c.xsd) << c.text;
  }
}

}  // namespace
}  // namespace sitemill
