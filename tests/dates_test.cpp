// Feed and HTTP dates (sitemill/date/dates.h). One table of feed dates runs
// through both `check` (the sitemap_parser on a one-item feed) and
// `generate --from-sitemap`'s conversion (feed_date_to_w3c), which must
// agree: check warns feed-date-invalid exactly when generate cannot convert.
#include "sitemill/date/dates.h"

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "parser_support.h"

namespace sitemill {
namespace {

using testing::parse;
using testing::parse_run;

// A one-item feed whose date element, the one `element` names, holds `date`.
std::string feed_with(feed_date_format element, std::string_view date) {
  const std::string d(date);
  switch (element) {
    case feed_date_format::rfc822:
      return "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel>\n"
             "<item><link>https://www.example.com/</link><pubDate>" +
             d + "</pubDate></item>\n</channel></rss>";
    case feed_date_format::rfc3339:
      return "<?xml version=\"1.0\"?>\n<feed "
             "xmlns=\"http://www.w3.org/2005/Atom\"><entry><link "
             "href=\"https://www.example.com/\"/><updated>" +
             d + "</updated></entry></feed>";
    case feed_date_format::w3c:
      return "<?xml version=\"1.0\"?>\n<rdf:RDF "
             "xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" "
             "xmlns=\"http://purl.org/rss/1.0/\" "
             "xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel/>"
             "<item rdf:about=\"https://www.example.com/\"><link>"
             "https://www.example.com/</link><dc:date>" +
             d + "</dc:date></item></rdf:RDF>";
  }
  return {};
}

enum class verdict { ok, nonstandard, invalid };

const char* name(verdict v) {
  return v == verdict::ok            ? "ok"
         : v == verdict::nonstandard ? "nonstandard"
                                     : "invalid";
}

// What `check` says of the date, read from the diagnostics of a real parse.
verdict check_verdict(feed_date_format element, std::string_view date) {
  const parse_run run = parse(feed_with(element, date));
  const bool invalid = run.has("feed-date-invalid");
  const bool nonstandard = run.has("feed-date-nonstandard");
  EXPECT_FALSE(invalid && nonstandard) << run.describe();
  EXPECT_EQ(run.entries.size(), 1u) << run.describe();
  return invalid       ? verdict::invalid
         : nonstandard ? verdict::nonstandard
                       : verdict::ok;
}

constexpr auto pub = feed_date_format::rfc822;
constexpr auto atom = feed_date_format::rfc3339;
constexpr auto dc = feed_date_format::w3c;

struct feed_case {
  feed_date_format element;
  std::string_view text;
  verdict check;
  std::string_view w3c;  // generate's lastmod; "" when not converted
};

// Each disagreement the old copies had is a row, with the rule deciding it.
constexpr verdict ok = verdict::ok, warn = verdict::nonstandard,
                  bad = verdict::invalid;
const feed_case feed_cases[] = {
    // RSS 2.0 <pubDate>: RFC 5322 3.3 and the obsolete forms of 4.3.
    {pub, "Sat, 07 Sep 2002 00:00:01 GMT", ok, "2002-09-07T00:00:01Z"},
    {pub, "07 Sep 2002 00:00:01 GMT", ok, "2002-09-07T00:00:01Z"},
    {pub, "  Sat, 07 Sep 2002 00:00:01 GMT \n", ok, "2002-09-07T00:00:01Z"},
    {pub, "7 Sep 2002 00:00 GMT", ok, "2002-09-07T00:00:00Z"},
    // Names in any case (RFC 5322 1.2.2: ABNF strings are case-insensitive).
    {pub, "Sat, 07 Sep 2002 00:00:01 gmt", ok, "2002-09-07T00:00:01Z"},
    {pub, "sat, 07 sep 2002 00:00:01 Gmt", ok, "2002-09-07T00:00:01Z"},
    {pub, "1 jan 2001 00:00:00 z", ok, "2001-01-01T00:00:00Z"},
    {pub, "Sat, 07 Sep 2002 00:00:01 UT", ok, "2002-09-07T00:00:01Z"},
    {pub, "Sat, 07 Sep 2002 00:00:01 EST", ok, "2002-09-07T00:00:01-05:00"},
    {pub, "Sat, 07 Sep 2002 00:00:01 pdt", ok, "2002-09-07T00:00:01-07:00"},
    // "UTC" is no RFC 5322 zone, but unambiguous: read, with a warning.
    {pub, "Sat, 07 Sep 2002 00:00:01 UTC", warn, "2002-09-07T00:00:01Z"},
    {pub, "Sat, 07 Sep 2002 00:00:01 utc", warn, "2002-09-07T00:00:01Z"},
    // Military zones: offset unknown (RFC 5322 4.3), but Z; J is none.
    {pub, "Sat, 07 Sep 2002 00:00:01 A", ok, "2002-09-07T00:00:01-00:00"},
    {pub, "Sat, 07 Sep 2002 00:00:01 Z", ok, "2002-09-07T00:00:01Z"},
    {pub, "Sat, 07 Sep 2002 00:00:01 J", bad, ""},
    {pub, "Sat, 07 Sep 2002 00:00:01 CET", bad, ""},
    // Numeric zones; "-0000" is "offset unknown", as RFC 3339's "-00:00".
    {pub, "Sat, 07 Sep 2002 00:00:01 +0200", ok, "2002-09-07T00:00:01+02:00"},
    {pub, "Sat, 07 Sep 2002 00:00:01 +0000", ok, "2002-09-07T00:00:01+00:00"},
    {pub, "Sat, 07 Sep 2002 00:00:01 -0000", ok, "2002-09-07T00:00:01-00:00"},
    {pub, "Sat, 07 Sep 2002 00:00:01 +1400", ok, "2002-09-07T00:00:01+14:00"},
    {pub, "Sat, 07 Sep 2002 00:00:01 +1500", bad, ""},
    {pub, "Sat, 07 Sep 2002 00:00:01 +0099", bad, ""},
    {pub, "Sat, 07 Sep 2002 00:00:01 +02:00", bad, ""},
    {pub, "05 Jan 17 13:34:55", bad, ""},
    // FWS: tabs, and none after the comma or space before it.
    {pub, "Sat,07 Sep 2002 00:00:01 GMT", ok, "2002-09-07T00:00:01Z"},
    {pub, "Sat , 07 Sep 2002 00:00:01 GMT", ok, "2002-09-07T00:00:01Z"},
    {pub, "Sat,\t07\tSep\t2002\t00:00:01\tGMT", ok, "2002-09-07T00:00:01Z"},
    // The day of the week: a real one, before a comma, and the date's.
    {pub, "Tue, 07 Sep 2002 00:00:01 GMT", warn, "2002-09-07T00:00:01Z"},
    {pub, "Foo, 07 Sep 2002 00:00:01 GMT", bad, ""},
    {pub, "Saturday, 07 Sep 2002 00:00:01 GMT", bad, ""},
    {pub, "Sat 07 Sep 2002 00:00:01 GMT", bad, ""},
    // Years: two digits per RFC 5322 4.3; never three; 1900 or later.
    {pub, "Thu, 05 Jan 17 13:34:52 +0100", ok, "2017-01-05T13:34:52+01:00"},
    {pub, "07 Sep 49 00:00:01 GMT", ok, "2049-09-07T00:00:01Z"},
    {pub, "07 Sep 50 00:00:01 GMT", ok, "1950-09-07T00:00:01Z"},
    {pub, "07 Sep 201 00:00:01 GMT", bad, ""},
    {pub, "07 Sep 20021 00:00:01 GMT", bad, ""},
    {pub, "07 Sep 1899 00:00:01 GMT", bad, ""},
    // Out-of-range fields; a leap second is read as :59.
    {pub, "31 Feb 2024 10:00 GMT", bad, ""},
    {pub, "29 Feb 2024 10:00 GMT", ok, "2024-02-29T10:00:00Z"},
    {pub, "29 Feb 2023 10:00 GMT", bad, ""},
    {pub, "32 Jan 2017 10:00 GMT", bad, ""},
    {pub, "05 Jan 2017 24:00 GMT", bad, ""},
    {pub, "05 Jan 2017 10:60 GMT", bad, ""},
    {pub, "Sat, 07 Sep 2002 23:59:60 GMT", ok, "2002-09-07T23:59:59Z"},
    {pub, "Sat, 07 Sep 2002 23:59:61 GMT", bad, ""},
    {pub, "05 Foo 2017 10:00 GMT", bad, ""},
    {pub, "Sat, 07 Sep 2002 00:00:01 GMT (UTC)", bad, ""},
    {pub, "yesterday", bad, ""},
    {pub, "", bad, ""},
    // Another format: read, with a warning.
    {pub, "2002-09-07T00:00:01Z", warn, "2002-09-07T00:00:01Z"},
    {pub, "2002-09-07", warn, "2002-09-07"},

    // Atom <updated>: RFC 3339 5.6, as RFC 4287 3.3 narrows it.
    {atom, "2003-12-13T18:30:02Z", ok, "2003-12-13T18:30:02Z"},
    {atom, "2003-12-13T18:30:02.25+01:00", ok, "2003-12-13T18:30:02.25+01:00"},
    {atom, "2003-12-13T18:30:02-00:00", ok, "2003-12-13T18:30:02-00:00"},
    // Fractions: any number of digits; nine are kept.
    {atom, "2003-12-13T18:30:02.1234567891234Z", ok,
     "2003-12-13T18:30:02.123456789Z"},
    {atom, "2003-12-13T18:30:02.Z", bad, ""},
    // RFC 3339 allows t, z and a space; RFC 4287 3.3 does not.
    {atom, "2003-12-13t18:30:02z", warn, "2003-12-13T18:30:02Z"},
    {atom, "2003-12-13T18:30:02z", warn, "2003-12-13T18:30:02Z"},
    {atom, "2003-12-13 18:30:02Z", warn, "2003-12-13T18:30:02Z"},
    // RFC 3339 5.6 allows second 60.
    {atom, "2003-12-31T23:59:60Z", ok, "2003-12-31T23:59:59Z"},
    // W3C forms that RFC 3339 lacks: read, with a warning.
    {atom, "2003-12-13", warn, "2003-12-13"},
    {atom, "2003-12-13T18:30Z", warn, "2003-12-13T18:30:00Z"},
    {atom, "Sat, 13 Dec 2003 18:30:02 GMT", warn, "2003-12-13T18:30:02Z"},
    {atom, "2003-12-13T18:30:02", bad, ""},
    {atom, "2003-02-30T18:30:02Z", bad, ""},
    {atom, "2003-12-13T24:00:00Z", bad, ""},
    {atom, "2003-12-13T18:30:02+15:00", bad, ""},
    {atom, "2003-12-13T18:30:02+01:60", bad, ""},
    {atom, "0000-12-13T18:30:02Z", bad, ""},

    // RSS 1.0 <dc:date>: a W3C datetime.
    {dc, "2003-12-13T18:30:02Z", ok, "2003-12-13T18:30:02Z"},
    {dc, "2003-12-13", ok, "2003-12-13"},
    {dc, "2003", ok, "2003-01-01"},
    {dc, "2003-12-13T18:30+01:00", ok, "2003-12-13T18:30:00+01:00"},
    {dc, "2003-12-31T23:59:60Z", warn, "2003-12-31T23:59:59Z"},
    {dc, "2003-12-13t18:30:02Z", warn, "2003-12-13T18:30:02Z"},
    {dc, "Sat, 13 Dec 2003 18:30:02 GMT", warn, "2003-12-13T18:30:02Z"},
    {dc, "2003-12-13T18:30:02", bad, ""},
};

TEST(FeedDates, CheckWarnsInvalidExactlyWhenGenerateCannotConvert) {
  for (const feed_case& c : feed_cases) {
    SCOPED_TRACE("\"" + std::string(c.text) + "\" in element " +
                 std::to_string(static_cast<int>(c.element)));
    const verdict check = check_verdict(c.element, c.text);
    const std::optional<std::string> converted = feed_date_to_w3c(c.text);
    EXPECT_EQ(name(check), std::string(name(c.check)));
    EXPECT_EQ(check == verdict::invalid, !converted.has_value());
    // Whether a date reads never depends on the element it is in.
    for (const auto other : {pub, atom, dc}) {
      EXPECT_EQ(check_verdict(other, c.text) == verdict::invalid,
                !converted.has_value())
          << "element " << static_cast<int>(other);
    }
  }
}

TEST(FeedDates, ConvertToLastmodsThatConvertToThemselves) {
  for (const feed_case& c : feed_cases) {
    SCOPED_TRACE(c.text);
    const std::optional<std::string> converted = feed_date_to_w3c(c.text);
    EXPECT_EQ(converted.value_or(""), c.w3c);
    if (!converted) continue;
    w3c_datetime value;
    EXPECT_EQ(parse_w3c_datetime(*converted, value), datetime_problem::ok);
    EXPECT_TRUE(xsd_accepts_lastmod(*converted));
    EXPECT_EQ(feed_date_to_w3c(*converted), converted);
  }
}

TEST(FeedDates, SayWhyTheyCannotBeRead) {
  struct row {
    std::string_view text;
    date_problem problem;
  };
  const row rows[] = {
      {" \t", date_problem::empty},
      {"yesterday", date_problem::malformed},
      {"Sat 07 Sep 2002 00:00:01 GMT", date_problem::malformed},
      {"Foo, 07 Sep 2002 00:00:01 GMT", date_problem::unknown_day_name},
      {"07 Sep 2002 00:00:01 GMT (UTC)", date_problem::malformed},
      {"07 Foo 2002 00:00:01 GMT", date_problem::unknown_month},
      {"07 Sep 202 00:00:01 GMT", date_problem::bad_year},
      {"07 Sep 1899 00:00:01 GMT", date_problem::bad_year},
      {"31 Feb 2024 10:00 GMT", date_problem::impossible_date},
      {"05 Jan 2017 24:00 GMT", date_problem::impossible_time},
      {"05 Jan 2017 10:00", date_problem::no_zone},
      {"05 Jan 2017 10:00 CEST", date_problem::unknown_zone},
      {"05 Jan 2017 10:00 +0160", date_problem::bad_offset},
      // The date is judged before the zone.
      {"31 Feb 2017 10:00 +0160", date_problem::impossible_date},
      {"2017-01-05T10:00:00", date_problem::no_zone},
      {"2017-13-05T10:00:00Z", date_problem::impossible_date},
      {"2017-01-05T10:00:00+14:30", date_problem::bad_offset},
      {"2017-01-05T10:00:00 Z", date_problem::malformed},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.text);
    parsed_date d;
    d.note = date_note::utc_zone;
    EXPECT_EQ(parse_feed_date(r.text, pub, d), r.problem);
    EXPECT_EQ(d.note, date_note::utc_zone);  // untouched on failure
    EXPECT_FALSE(describe(r.problem).empty());
    EXPECT_EQ(describe(r.problem).find(": "), std::string_view::npos);
  }
}

TEST(FeedDates, NoteTheFirstDeviationFromTheElementsFormat) {
  struct row {
    std::string_view text;
    feed_date_format element;
    date_note note;
  };
  const row rows[] = {
      {"Sat, 07 Sep 2002 00:00:01 GMT", pub, date_note::none},
      {"Tue, 07 Sep 2002 00:00:01 UTC", pub, date_note::weekday_mismatch},
      {"Sat, 07 Sep 2002 00:00:01 UTC", pub, date_note::utc_zone},
      {"Sat, 07 Sep 2002 00:00:01 GMT", atom, date_note::other_format},
      {"Sat, 07 Sep 2002 00:00:01 GMT", dc, date_note::other_format},
      {"2002-09-07T00:00:01Z", pub, date_note::other_format},
      {"2002-09-07 00:00:01z", atom, date_note::space_for_t},
      {"2002-09-07t00:00Z", atom, date_note::lowercase_t_or_z},
      {"2002-09-07T00:00z", atom, date_note::not_a_date_time},
      {"2002-09-07T00:00:01z", atom, date_note::lowercase_t_or_z},
      {"2002-09-07T23:59:60Z", atom, date_note::none},
      {"2002-09-07T23:59:60z", dc, date_note::leap_second},
      {"2002-09-07T00:00:01z", dc, date_note::lowercase_t_or_z},
      {"2002-09", dc, date_note::none},
      {"2002-09", atom, date_note::not_a_date_time},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(std::string(r.text) + " in element " +
                 std::to_string(static_cast<int>(r.element)));
    parsed_date d;
    ASSERT_EQ(parse_feed_date(r.text, r.element, d), date_problem::ok);
    EXPECT_EQ(d.note, r.note);
    EXPECT_FALSE(describe(r.note).empty());
    EXPECT_EQ(describe(r.note).find(": "), std::string_view::npos);
  }
}

TEST(FeedDates, KeepWhatTheTextLeftOut) {
  parsed_date d;
  ASSERT_EQ(parse_feed_date("7 Sep 2002 10:20 +0130", pub, d),
            date_problem::ok);
  EXPECT_EQ(d.syntax, date_syntax::rfc5322);
  EXPECT_EQ(d.value.form, datetime_form::minutes);
  EXPECT_EQ(d.value.offset_minutes, 90);
  EXPECT_FALSE(d.value.zulu);

  ASSERT_EQ(parse_feed_date("7 Sep 2002 10:20:30 M", pub, d), date_problem::ok);
  EXPECT_EQ(d.value.form, datetime_form::seconds);
  EXPECT_EQ(d.value.offset_minutes, 0);
  EXPECT_TRUE(d.value.negative_zero_offset);  // offset unknown

  ASSERT_EQ(parse_feed_date("2002-09-07T23:59:60.5z", atom, d),
            date_problem::ok);
  EXPECT_EQ(d.syntax, date_syntax::rfc3339);
  EXPECT_TRUE(d.leap_second);
  EXPECT_EQ(d.value.second, 59);
  EXPECT_EQ(d.value.nanos, 500'000'000u);
  EXPECT_TRUE(d.value.zulu);

  ASSERT_EQ(parse_feed_date("2002-09", dc, d), date_problem::ok);
  EXPECT_EQ(d.syntax, date_syntax::w3c);
  EXPECT_EQ(d.value.form, datetime_form::year_month);
  EXPECT_FALSE(d.leap_second);
}

// RFC 9110 5.6.7: senders write IMF-fixdate; recipients MUST also accept
// rfc850-date and asctime-date.
TEST(HttpDates, ReadAllThreeFormsOfRfc9110) {
  const std::chrono::sys_seconds expected =
      std::chrono::sys_days{std::chrono::year{1994} / 11 / 6} +
      std::chrono::hours{8} + std::chrono::minutes{49} +
      std::chrono::seconds{37};
  struct row {
    std::string_view text;
    date_syntax syntax;
  };
  const row rows[] = {
      {"Sun, 06 Nov 1994 08:49:37 GMT", date_syntax::imf_fixdate},
      {"Sunday, 06-Nov-94 08:49:37 GMT", date_syntax::rfc850},
      {"Sun Nov  6 08:49:37 1994", date_syntax::asctime},
      {"Sun Nov 06 08:49:37 1994", date_syntax::asctime},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.text);
    parsed_date d;
    ASSERT_EQ(parse_http_date(r.text, 2024, d), date_problem::ok);
    EXPECT_EQ(d.syntax, r.syntax);
    EXPECT_EQ(to_time_point(d.value), expected);
    EXPECT_TRUE(d.value.zulu);
    EXPECT_EQ(d.note, date_note::none);
  }
}

TEST(HttpDates, RefuseWhatRfc9110DoesNotWrite) {
  struct row {
    std::string_view text;
    date_problem problem;
  };
  const row rows[] = {
      // "HTTP-date is case sensitive" (RFC 9110 5.6.7).
      {"Sun, 06 Nov 1994 08:49:37 gmt", date_problem::unknown_zone},
      {"sun, 06 Nov 1994 08:49:37 GMT", date_problem::unknown_day_name},
      {"Sun, 06 nov 1994 08:49:37 GMT", date_problem::unknown_month},
      {"Sun, 06 Nov 1994 08:49:37 UTC", date_problem::unknown_zone},
      {"Sun, 06 Nov 1994 08:49:37 +0000", date_problem::malformed},
      {"Sun, 6 Nov 1994 08:49:37 GMT", date_problem::malformed},
      {" Sun, 06 Nov 1994 08:49:37 GMT", date_problem::malformed},
      {"Xyz, 06 Nov 1994 08:49:37 GMT", date_problem::unknown_day_name},
      {"Sun, 31 Nov 1994 08:49:37 GMT", date_problem::impossible_date},
      {"Sun, 06 Nov 1994 24:49:37 GMT", date_problem::impossible_time},
      {"Sun, 06 Nov 1899 08:49:37 GMT", date_problem::bad_year},
      {"Sun, 06-Nov-94 08:49:37 GMT", date_problem::malformed},
      {"Sunday, 06 Nov 1994 08:49:37 GMT", date_problem::malformed},
      {"Sunday, 06-Nov-1994 08:49:37 GMT", date_problem::malformed},
      {"Sunday, 06-Nov-94 08:49:37 UTC", date_problem::unknown_zone},
      {"Sun Nov  6 08:49:37 1994 GMT", date_problem::malformed},
      {"Sun Nov 6 08:49:37 1994", date_problem::malformed},
      {"", date_problem::malformed},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.text);
    parsed_date d;
    EXPECT_EQ(parse_http_date(r.text, 2024, d), r.problem);
  }
}

TEST(HttpDates, ReadTwoDigitYearsAsTheNearestNotFiftyYearsAhead) {
  struct row {
    int reference_year;
    std::string_view text;
    int year;
  };
  const row rows[] = {
      {2024, "Sunday, 06-Nov-94 08:49:37 GMT", 1994},
      {2024, "Tuesday, 06-Nov-74 08:49:37 GMT", 2074},  // 50 years ahead
      {2024, "Thursday, 06-Nov-75 08:49:37 GMT", 1975},
      {2024, "Wednesday, 06-Nov-24 08:49:37 GMT", 2024},
      {2090, "Saturday, 06-Nov-49 08:49:37 GMT", 2049},
      {2090, "Monday, 06-Nov-30 08:49:37 GMT", 2130},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.text);
    parsed_date d;
    ASSERT_EQ(parse_http_date(r.text, r.reference_year, d), date_problem::ok);
    EXPECT_EQ(d.value.year, r.year);
    EXPECT_EQ(d.note, date_note::none);  // the weekday is that year's
  }
}

TEST(HttpDates, ReadAWrongWeekdayAndALeapSecondByTheDate) {
  parsed_date d;
  ASSERT_EQ(parse_http_date("Mon, 06 Nov 1994 08:49:37 GMT", 2024, d),
            date_problem::ok);
  EXPECT_EQ(d.note, date_note::weekday_mismatch);
  EXPECT_EQ(d.value.day, 6);

  ASSERT_EQ(parse_http_date("Sat, 31 Dec 2016 23:59:60 GMT", 2024, d),
            date_problem::ok);
  EXPECT_TRUE(d.leap_second);
  EXPECT_EQ(to_time_point(d.value),
            std::chrono::sys_days{std::chrono::year{2017} / 1 / 1} -
                std::chrono::seconds{1});
}

TEST(DateTimePoint, CountsSecondsFromTheEpochForEveryYear) {
  w3c_datetime v;
  ASSERT_EQ(parse_w3c_datetime("1970-01-01T01:00:00+01:00", v),
            datetime_problem::ok);
  EXPECT_EQ(to_time_point(v).time_since_epoch().count(), 0);
  ASSERT_EQ(parse_w3c_datetime("9999-12-31T23:59:59Z", v),
            datetime_problem::ok);
  EXPECT_EQ(to_time_point(v),
            std::chrono::sys_days{std::chrono::year{10000} / 1 / 1} -
                std::chrono::seconds{1});
  ASSERT_EQ(parse_w3c_datetime("0001-01-01", v), datetime_problem::ok);
  EXPECT_EQ(to_time_point(v), std::chrono::sys_seconds{std::chrono::sys_days{
                                  std::chrono::year{1} / 1 / 1}});
}

}  // namespace
}  // namespace sitemill
