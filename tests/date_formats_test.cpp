// lastmod_reader with several formats (issue 30): each tried in order, the
// first that reads a text gives its value; what none reads is refused with
// one reason, unless a pattern read its shape and found no such date.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sitemill/date/lastmod_reading.h"

namespace sitemill {
namespace {

// The reading as generate writes it, or "!" and the reason.
std::string written(const lastmod_reading& r) {
  if (!r.ok()) return "!" + std::string(r.why);
  char buf[max_lastmod_length];
  return std::string(buf, format_lastmod(r.value, buf));
}

lastmod_reader make(std::vector<std::string> formats,
                    std::string_view zone = "") {
  auto r = lastmod_reader::create(formats, zone);
  EXPECT_TRUE(r) << (r ? "" : r.err().message);
  return r ? *r : lastmod_reader{};
}

std::string refusal(std::vector<std::string> formats,
                    std::string_view zone = "") {
  auto r = lastmod_reader::create(formats, zone);
  return r ? "" : r.err().field + ": " + r.err().message;
}

constexpr std::string_view none_reads =
    "!matches none of the `date_format` formats, each tried in order";

TEST(DateFormats, EachIsTriedInOrderAndTheFirstThatReadsWins) {
  const lastmod_reader reader =
      make({"%d.%m.%Y", "%d.%m.%Y %H:%M", "auto"}, "Europe/Berlin");
  const struct {
    std::string_view in, out;
  } rows[] = {
      {"14.05.2026", "2026-05-14"},
      {"14.05.2026 09:30", "2026-05-14T09:30:00+02:00"},
      {"2026-05-14T09:30:00Z", "2026-05-14T09:30:00Z"},
      {"2026-01-14 09:30:00", "2026-01-14T09:30:00+01:00"},
      {"1747218180", "2025-05-14T10:23:00Z"},
      // A pattern that reads the shape and finds no such day says so.
      {"31.02.2026",
       "!no such date: the year must be 0001-9999, the month 01-12 and the "
       "day must exist in that month"},
      {"yesterday", none_reads},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(std::string(r.in));
    EXPECT_EQ(written(reader.read(r.in)), r.out);
  }
}

TEST(DateFormats, OrderDecidesWhatTwoPatternsBothRead) {
  // 03/04/2026: the 3rd of April in Europe, March 4th in the US.
  EXPECT_EQ(written(make({"%d/%m/%Y", "%m/%d/%Y"}).read("03/04/2026")),
            "2026-04-03");
  EXPECT_EQ(written(make({"%m/%d/%Y", "%d/%m/%Y"}).read("03/04/2026")),
            "2026-03-04");
  // Where the first cannot be (a 13th month), the second reads it.
  EXPECT_EQ(written(make({"%m/%d/%Y", "%d/%m/%Y"}).read("25/04/2026")),
            "2026-04-25");
  // A pattern first is tried before a W3C text's fast path.
  EXPECT_EQ(written(make({"%Y-%d-%m", "auto"}).read("2026-03-04")),
            "2026-04-03");
}

TEST(DateFormats, W3cAmongOthersTakesAZoneForTheOthers) {
  EXPECT_EQ(written(make({"w3c", "%d.%m.%Y %H:%M"}, "+02:00")
                        .read("14.05.2026 09:30")),
            "2026-05-14T09:30:00+02:00");
  EXPECT_EQ(written(make({"w3c", "%d.%m.%Y"}).read("2026-05-14")),
            "2026-05-14");
  EXPECT_EQ(refusal({"w3c"}, "+02:00").substr(0, 11), "time_zone: ");
}

TEST(DateFormats, AListIsCheckedFormatByFormat) {
  EXPECT_EQ(refusal({"auto", "%d.%m.%Y", "auto"}),
            "date_format: `date_format` names \"auto\" twice");
  EXPECT_EQ(refusal({"%d.%m.%Y", "%d.%m"})
                .rfind("date_format: `date_format` \"%d.%m\" must name a "
                       "whole date",
                       0),
            0u);
  EXPECT_EQ(refusal(std::vector<std::string>(9, "auto")),
            "date_format: `date_format` takes at most 8 formats, tried in "
            "order; 9 were given");
  // Long patterns fit one by one, but not beyond the steps of all together.
  const std::string long_pattern = "%Y-%m-%d" + std::string(40, '.');
  EXPECT_EQ(refusal({long_pattern, long_pattern + " "}), "");
  EXPECT_NE(refusal({long_pattern, long_pattern + " ", long_pattern + "  "})
                .find("longer than 96 steps together"),
            std::string::npos);
  // None given is auto.
  EXPECT_EQ(written(make({}).read("2026-05-14 09:30:00Z")),
            "2026-05-14T09:30:00Z");
}

TEST(DateFormats, OneFormatReadsAndRefusesAsBefore) {
  EXPECT_EQ(written(make({"%d.%m.%Y"}).read("2026-05-14")).substr(0, 40),
            "!does not match the `date_format` patter");
}

}  // namespace
}  // namespace sitemill
