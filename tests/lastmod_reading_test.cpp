// The lastmod reader (include/sitemill/date/lastmod_reading.h): the auto
// format's forms, zones and DST, the w3c format, and patterns.
#include "sitemill/date/lastmod_reading.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "sitemill/date/dates.h"

namespace sitemill {
namespace {

lastmod_reader make(std::string_view format, std::string_view zone = "") {
  auto r = lastmod_reader::create(format, zone);
  EXPECT_TRUE(r) << format << " / " << zone << ": "
                 << (r ? "" : r.err().message);
  return r ? *r : lastmod_reader{};
}

// The reading as generate writes it, or "!" and the reason.
std::string written(const lastmod_reading& r) {
  if (!r.ok()) return "!" + std::string(r.why);
  char buf[max_lastmod_length];
  return std::string(buf, format_lastmod(r.value, buf));
}

struct read_case {
  std::string_view in, out;
  lastmod_note note = lastmod_note::none;
};

void expect_reads(const lastmod_reader& reader,
                  std::initializer_list<read_case> cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(c.in);
    const lastmod_reading r = reader.read(c.in);
    EXPECT_EQ(written(r), c.out);
    EXPECT_EQ(r.note, c.note);
  }
}

// ---- auto, without a zone ---------------------------------------------------

TEST(LastmodReading, AutoReadsW3cAsTheW3cParserDoes) {
  expect_reads(lastmod_reader{},
               {{"2025", "2025-01-01"},
                {"2025-05", "2025-05-01"},
                {"2025-05-14", "2025-05-14"},
                {"2025-05-14T10:23Z", "2025-05-14T10:23:00Z"},
                {"2025-05-14T10:23:00Z", "2025-05-14T10:23:00Z"},
                {"2025-05-14T10:23:00+02:00", "2025-05-14T10:23:00+02:00"},
                {"2025-05-14T10:23:00-00:00", "2025-05-14T10:23:00-00:00"},
                {"2025-05-14T10:23:00.5Z", "2025-05-14T10:23:00.5Z"}});
}

TEST(LastmodReading, AutoReadsTheSqlFormWithEveryZoneSpelling) {
  expect_reads(
      lastmod_reader{},
      {// PostgreSQL's timestamptz as psql prints it.
       {"2025-05-14 10:23:00.123456+02", "2025-05-14T10:23:00.123456+02:00"},
       {"2025-05-14 10:23:00+02", "2025-05-14T10:23:00+02:00"},
       {"2025-05-14 10:23:00-0530", "2025-05-14T10:23:00-05:30"},
       {"2025-05-14 10:23:00+02:00", "2025-05-14T10:23:00+02:00"},
       {"2025-05-14 10:23:00 +02:00", "2025-05-14T10:23:00+02:00"},
       {"2025-05-14 10:23:00Z", "2025-05-14T10:23:00Z"},
       {"2025-05-14 10:23:00 UTC", "2025-05-14T10:23:00Z"},
       {"2025-05-14t10:23:00z", "2025-05-14T10:23:00Z"},
       {"2025-05-14 10:23+01", "2025-05-14T10:23:00+01:00"},
       // More than nine fraction digits: nine are kept.
       {"2025-05-14 10:23:00.1234567891Z", "2025-05-14T10:23:00.123456789Z"}});
}

TEST(LastmodReading, AutoReadsADateTimeWithoutAZoneAsUtcAndSaysSo) {
  expect_reads(
      lastmod_reader{},
      {{"2025-05-14 10:23:00", "2025-05-14T10:23:00Z",
        lastmod_note::zone_assumed},
       {"2025-05-14 10:23", "2025-05-14T10:23:00Z", lastmod_note::zone_assumed},
       {"2025-05-14 10:23:00.25", "2025-05-14T10:23:00.25Z",
        lastmod_note::zone_assumed},
       {"2025-05-14T10:23:00", "2025-05-14T10:23:00Z",
        lastmod_note::zone_assumed},
       {"Wed, 14 May 2025 10:23:00", "2025-05-14T10:23:00Z",
        lastmod_note::zone_assumed}});
}

TEST(LastmodReading, AutoReadsRfc2822AndHttpDatesThroughTheFeedParsers) {
  expect_reads(
      lastmod_reader{},
      {{"Wed, 14 May 2025 10:23:00 GMT", "2025-05-14T10:23:00Z"},
       {"Wed, 14 May 2025 10:23:00 +0200", "2025-05-14T10:23:00+02:00"},
       {"14 May 2025 10:23 -0700", "2025-05-14T10:23:00-07:00"},
       {"Wed, 14 May 2025 10:23:00 EDT", "2025-05-14T10:23:00-04:00"},
       // RFC 9110's obsolete forms.
       {"Wednesday, 14-May-25 10:23:00 GMT", "2025-05-14T10:23:00Z"},
       {"Wed May 14 10:23:00 2025", "2025-05-14T10:23:00Z"},
       {"Sun Nov  6 08:49:37 1994", "1994-11-06T08:49:37Z"}});
}

TEST(LastmodReading, AutoReadsUnixSecondsAndMilliseconds) {
  expect_reads(lastmod_reader{}, {{"1747218180", "2025-05-14T10:23:00Z"},
                                  {"999999999", "2001-09-09T01:46:39Z"},
                                  {"100000000", "1973-03-03T09:46:40Z"},
                                  {"9999999999", "2286-11-20T17:46:39Z"},
                                  {"1747218180123", "2025-05-14T10:23:00.123Z"},
                                  {"1747218180000", "2025-05-14T10:23:00Z"}});
}

TEST(LastmodReading, AutoRefusesWhatItCannotReadWithAReason) {
  const lastmod_reader reader;
  const std::string not_auto = "!not a date `date_format` auto reads";
  for (std::string_view in : {"14/05/2025", "yesterday", "2025-05-14 10h23",
                              "2025-05-14 10:23:00 CET", "2025-5-14"}) {
    SCOPED_TRACE(in);
    EXPECT_EQ(written(reader.read(in)).substr(0, not_auto.size()), not_auto);
  }
  for (std::string_view in :
       {"12345", "20250514", "17472181801", "174721818012345"}) {
    SCOPED_TRACE(in);
    EXPECT_EQ(written(reader.read(in)),
              "!a bare number is read as Unix time: 9 or 10 digits (seconds) "
              "or 13 (milliseconds)");
  }
  const auto why = [](auto p) { return "!" + std::string(describe(p)); };
  expect_reads(
      reader,
      {{"2025-02-30 10:00:00", why(datetime_problem::impossible_date)},
       {"2025-05-14 25:00:00", why(datetime_problem::impossible_time)},
       {"2025-05-14 10:23:00+15", why(datetime_problem::bad_offset)},
       {"2025-02-30", why(datetime_problem::impossible_date)},
       {"Wed, 14 Foo 2025 10:23:00 GMT", why(date_problem::unknown_month)},
       {"", why(date_problem::empty)}});
}

TEST(LastmodReading, ReadDateAutoIsAutoWithoutAZone) {
  const lastmod_reading r = read_date_auto("2025-05-14 10:23:00");
  EXPECT_EQ(written(r), "2025-05-14T10:23:00Z");
  EXPECT_EQ(r.note, lastmod_note::zone_assumed);
  EXPECT_EQ(written(read_date_auto("2025-05-14T10:23:00+02:00")),
            "2025-05-14T10:23:00+02:00");
  EXPECT_EQ(written(read_date_auto(" \t1747218180\n")),
            "2025-05-14T10:23:00Z");
  EXPECT_FALSE(read_date_auto("soon").ok());
}

// ---- zones
// --------------------------------------------------------------------

TEST(LastmodReading, AnIanaZoneGivesEachDateItsOwnOffset) {
  expect_reads(make("auto", "Europe/Berlin"),
               {{"2025-05-14 10:23:00", "2025-05-14T10:23:00+02:00"},
                {"2025-01-14 10:23:00", "2025-01-14T10:23:00+01:00"},
                {"2025-05-14T10:23", "2025-05-14T10:23:00+02:00"},
                // A date that names its zone keeps it; a date alone has none.
                {"2025-05-14 10:23:00Z", "2025-05-14T10:23:00Z"},
                {"2025-05-14 10:23:00-03", "2025-05-14T10:23:00-03:00"},
                {"2025-05-14", "2025-05-14"},
                {"1747218180", "2025-05-14T10:23:00Z"},
                {"Wed, 14 May 2025 10:23:00", "2025-05-14T10:23:00+02:00"}});
  expect_reads(make("auto", "America/New_York"),
               {{"2025-07-04 12:00:00", "2025-07-04T12:00:00-04:00"},
                {"2025-12-04 12:00:00", "2025-12-04T12:00:00-05:00"}});
}

TEST(LastmodReading, BerlinSpringGapIsReadWithTheOffsetBeforeIt) {
  // 2025-03-30: 02:00 CET becomes 03:00 CEST; 02:00-02:59 do not exist.
  expect_reads(make("auto", "Europe/Berlin"),
               {{"2025-03-30 01:59:59", "2025-03-30T01:59:59+01:00"},
                {"2025-03-30 02:00:00", "2025-03-30T02:00:00+01:00",
                 lastmod_note::dst_gap},
                {"2025-03-30 02:30:00", "2025-03-30T02:30:00+01:00",
                 lastmod_note::dst_gap},
                {"2025-03-30 02:59:59", "2025-03-30T02:59:59+01:00",
                 lastmod_note::dst_gap},
                {"2025-03-30 03:00:00", "2025-03-30T03:00:00+02:00"}});
  // 02:30+01:00 is 03:30 CEST: the time as written, moved by the gap.
  w3c_datetime after;
  ASSERT_EQ(parse_w3c_datetime("2025-03-30T03:30:00+02:00", after),
            datetime_problem::ok);
  EXPECT_EQ(make("auto", "Europe/Berlin")
                .read("2025-03-30 02:30:00")
                .value.unix_seconds(),
            after.unix_seconds());
}

TEST(LastmodReading, BerlinAutumnOverlapIsReadAsTheEarlierTime) {
  // 2025-10-26: 03:00 CEST becomes 02:00 CET; 02:00-02:59 happen twice.
  expect_reads(make("auto", "Europe/Berlin"),
               {{"2025-10-26 01:59:59", "2025-10-26T01:59:59+02:00"},
                {"2025-10-26 02:00:00", "2025-10-26T02:00:00+02:00",
                 lastmod_note::dst_overlap},
                {"2025-10-26 02:59:59", "2025-10-26T02:59:59+02:00",
                 lastmod_note::dst_overlap},
                {"2025-10-26 03:00:00", "2025-10-26T03:00:00+01:00"}});
}

TEST(LastmodReading, AFixedOffsetOrUtcIsUsedAsGiven) {
  expect_reads(make("auto", "+05:30"),
               {{"2025-05-14 10:23:00", "2025-05-14T10:23:00+05:30"}});
  expect_reads(make("auto", "-0800"),
               {{"2025-05-14 10:23:00", "2025-05-14T10:23:00-08:00"}});
  expect_reads(make("auto", "+02"),
               {{"2025-01-14 10:23:00", "2025-01-14T10:23:00+02:00"}});
  expect_reads(make("auto", "UTC"),
               {{"2025-05-14 10:23:00", "2025-05-14T10:23:00Z"}});
  expect_reads(make("auto", "Z"),
               {{"2025-05-14 10:23:00", "2025-05-14T10:23:00Z"}});
  EXPECT_TRUE(make("auto", "UTC").has_zone());
  EXPECT_FALSE(lastmod_reader{}.has_zone());
}

TEST(LastmodReading, AnUnknownZoneOrBadOffsetIsAnErrorNamingIt) {
  for (std::string_view zone : {"Mars/Olympus", "Europe/Berlinn", "CEST",
                                "+15:00", "+02:60", "+2", "+02:0", "-14:01"}) {
    SCOPED_TRACE(zone);
    auto r = lastmod_reader::create("auto", zone);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.err().field, "time_zone");
    EXPECT_NE(r.err().message.find("\"" + std::string(zone) + "\""),
              std::string::npos)
        << r.err().message;
  }
}

TEST(LastmodReading, ReadersOfOneZoneAgreeAcrossThreads) {
  const lastmod_reader reader = make("auto", "Europe/Berlin");
  const std::vector<std::string> inputs = {
      "2025-03-30 02:30:00", "2025-10-26 02:30:00", "2025-05-14 10:23:00",
      "1999-12-31 23:59:59", "2038-01-19 03:14:08"};
  std::vector<std::string> expected;
  for (const auto& in : inputs) expected.push_back(written(reader.read(in)));
  std::vector<std::vector<std::string>> seen(4);
  std::vector<std::thread> threads;
  for (auto& out : seen)
    threads.emplace_back([&] {
      for (int round = 0; round < 200; ++round)
        for (const auto& in : inputs) out.push_back(written(reader.read(in)));
    });
  for (auto& t : threads) t.join();
  for (const auto& out : seen)
    for (std::size_t i = 0; i < out.size(); ++i)
      ASSERT_EQ(out[i], expected[i % inputs.size()]);
}

// ---- w3c
// ------------------------------------------------------------------------

TEST(LastmodReading, W3cFormatReadsOnlyW3cWithTheW3cReasons) {
  const lastmod_reader w3c = make("w3c");
  const auto why = [](datetime_problem p) {
    return "!" + std::string(describe(p));
  };
  expect_reads(w3c,
               {{"2025-05-14T10:23:00Z", "2025-05-14T10:23:00Z"},
                {"2025-05-14 10:23:00+02:00", why(datetime_problem::malformed)},
                {"2025-05-14T10:23:00", why(datetime_problem::no_timezone)},
                {"1747218180", why(datetime_problem::malformed)},
                {"2025-02-30", why(datetime_problem::impossible_date)}});
  auto zoned = lastmod_reader::create("w3c", "Europe/Berlin");
  ASSERT_FALSE(zoned);
  EXPECT_EQ(zoned.err().field, "time_zone");
}

// ---- patterns
// -------------------------------------------------------------------

TEST(LastmodReading, PatternsReadDatesInTheirOrder) {
  expect_reads(make("%d/%m/%Y"),
               {{"14/05/2025", "2025-05-14"}, {"4/5/2025", "2025-05-04"}});
  expect_reads(make("%m/%d/%Y"), {{"05/14/2025", "2025-05-14"}});
  expect_reads(make("%e %b %Y"), {{" 4 May 2025", "2025-05-04"},
                                  {"14 may 2025", "2025-05-14"},
                                  {"4 September 2025", "2025-09-04"}});
  expect_reads(make("%B %d, %Y"), {{"May 14, 2025", "2025-05-14"},
                                   {"DECEMBER 1, 2025", "2025-12-01"}});
  expect_reads(make("100%% %Y-%m-%d"), {{"100% 2025-05-14", "2025-05-14"}});
}

TEST(LastmodReading, PatternTimesWithoutZoneTakeTheReadersZone) {
  expect_reads(make("%d.%m.%Y %H:%M"),
               {{"14.05.2025 10:23", "2025-05-14T10:23:00Z",
                 lastmod_note::zone_assumed}});
  expect_reads(make("%d.%m.%Y %H:%M:%S", "Europe/Berlin"),
               {{"14.05.2025 10:23:07", "2025-05-14T10:23:07+02:00"},
                {"30.03.2025 02:30:00", "2025-03-30T02:30:00+01:00",
                 lastmod_note::dst_gap}});
  expect_reads(make("%Y%m%d%H%M%S"), {{"20250514102300", "2025-05-14T10:23:00Z",
                                       lastmod_note::zone_assumed}});
}

TEST(LastmodReading, PatternZonesFractionsAndUnixTime) {
  const lastmod_reader z = make("%Y-%m-%dT%H:%M:%S.%f%z", "Europe/Berlin");
  expect_reads(
      z, {{"2025-05-14T10:23:00.5+0200", "2025-05-14T10:23:00.5+02:00"},
          {"2025-05-14T10:23:00.123-05", "2025-05-14T10:23:00.123-05:00"},
          {"2025-05-14T10:23:00.0Z", "2025-05-14T10:23:00.0Z"},
          {"2025-05-14T10:23:00.0+05:30", "2025-05-14T10:23:00.0+05:30"}});
  expect_reads(make("%s"), {{"1747218180", "2025-05-14T10:23:00Z"},
                            {"0", "1970-01-01T00:00:00Z"}});
  expect_reads(make("%s.%f"), {{"1747218180.25", "2025-05-14T10:23:00.25Z"}});
}

TEST(LastmodReading, PatternMismatchesNameWhatWasExpected) {
  const lastmod_reader p = make("%d/%m/%Y %H:%M%z");
  const auto starts = [](const lastmod_reading& r, std::string_view prefix) {
    return !r.ok() && r.why.substr(0, prefix.size()) == prefix;
  };
  EXPECT_TRUE(starts(p.read("2025-05-14 10:23Z"),
                     "does not match the `date_format` pattern"));
  EXPECT_NE(p.read("14/05/25 10:23Z").why.find("%Y"), std::string_view::npos);
  EXPECT_NE(p.read("14/05/2025 10:23").why.find("%z"), std::string_view::npos);
  EXPECT_NE(p.read("14/05/2025 10:23Zx").why.find("text follows"),
            std::string_view::npos);
  EXPECT_EQ(written(p.read("31/02/2025 10:23Z")),
            "!" + std::string(describe(datetime_problem::impossible_date)));
  EXPECT_EQ(written(p.read("14/05/2025 10:23+02:61")),
            "!" + std::string(describe(datetime_problem::bad_offset)));
  EXPECT_NE(make("%e %b %Y").read("4 Sept 2025").why.find("%b"),
            std::string_view::npos);
}

TEST(LastmodReading, BadPatternsAreErrorsOfDateFormat) {
  const struct {
    std::string_view pattern, says;
  } cases[] = {
      {"%Q", "%Q, which is no directive"},
      {"%Y-%m-%d %", "ends with a lone %"},
      {"%Y-%m", "must name a whole date"},
      {"%Y-%m-%d %H", "needs %H and %M together"},
      {"%Y-%m-%d %M", "needs %H and %M together"},
      {"%Y-%Y-%m-%d", "names %Y twice"},
      {"%Y %m %b %d", "names the month twice"},
      {"%s %Y", "combines %s"},
      {"%Y-%m-%d.%f", "has %f without %S"},
      {"iso", "is neither a format nor a pattern"},
      {std::string_view("%Y%m%d----------------------------------------------"),
       "longer than 48 steps"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.pattern);
    auto r = lastmod_reader::create(c.pattern, "");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.err().field, "date_format");
    EXPECT_NE(r.err().message.find(c.says), std::string::npos)
        << r.err().message;
  }
}

}  // namespace
}  // namespace sitemill
