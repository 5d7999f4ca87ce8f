// End-to-end runs of generate's lastmod reading (issue 13): dates as
// databases export them, --date-format, --timezone, and the one-line
// summary of dropped lastmods.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

const std::string base = "https://www.example.com/";

// loc -> lastmod ("" when absent) of every URL in a published set.
std::map<std::string, std::string> lastmods(const published_set& set) {
  std::map<std::string, std::string> out;
  for (const auto& e : all_entries(set))
    out[e.at("loc")] = e.count("lastmod") ? e.at("lastmod") : "";
  return out;
}

// The stderr lines that contain `text`.
std::vector<std::string> lines_with(const std::string& err,
                                    std::string_view text) {
  std::vector<std::string> out;
  for (const auto& l : split_lines(err))
    if (l.find(text) != std::string::npos) out.push_back(l);
  return out;
}

TEST(GenerateDates, SqlExportWithBerlinZoneGivesEveryUrlItsW3cLastmod) {
  temp_dir t;
  const std::string in = t / "export.csv";
  write_file(in,
             "loc,lastmod\n"
             "/winter,2025-01-14 10:23:00\n"
             "/summer,2025-05-14 10:23:00\n"
             "/minutes,2025-07-01 08:05\n"
             "/fraction,2025-11-30 23:59:59.250\n"
             "/date,2025-05-14\n"
             "/zoned,2025-05-14 10:23:00+00\n");
  auto g = generate_and_check(t / "out", {"--timezone", "Europe/Berlin", in});
  const std::map<std::string, std::string> want = {
      {base + "winter", "2025-01-14T10:23:00+01:00"},
      {base + "summer", "2025-05-14T10:23:00+02:00"},
      {base + "minutes", "2025-07-01T08:05:00+02:00"},
      {base + "fraction", "2025-11-30T23:59:59.250+01:00"},
      {base + "date", "2025-05-14"},
      {base + "zoned", "2025-05-14T10:23:00+00:00"}};
  EXPECT_EQ(lastmods(g.set), want);
  EXPECT_TRUE(g.report["warnings"].empty()) << g.report["warnings"].dump();
  EXPECT_EQ(g.report["lastmods"]["dropped"], 0);
  EXPECT_EQ(g.report["lastmods"]["zone_assumed"], 0);
  EXPECT_TRUE(lines_with(g.run.err, "lastmod").empty()) << g.run.err;
}

TEST(GenerateDates, PostgresTimestamptzPublishesUnderStrict) {
  temp_dir t;
  const std::string in = t / "psql.tsv";
  // psql -A -F $'\t' -c "select url as loc, updated_at as lastmod ..."
  write_file(in,
             "loc\tlastmod\n"
             "/a\t2025-05-14 10:23:00.123456+02\n"
             "/b\t2025-05-14 10:23:00+05:30\n"
             "/c\t2024-12-31 23:00:00-08\n");
  auto g = generate_and_check(t / "out", {"--strict", in});
  EXPECT_EQ(lastmods(g.set),
            (std::map<std::string, std::string>{
                {base + "a", "2025-05-14T10:23:00.123456+02:00"},
                {base + "b", "2025-05-14T10:23:00+05:30"},
                {base + "c", "2024-12-31T23:00:00-08:00"}}));
  EXPECT_TRUE(g.report["warnings"].empty());
}

TEST(GenerateDates, ZonelessTimesAreReadAsUtcWithOneWarningPerInput) {
  temp_dir t;
  const std::string one = t / "one.csv", two = t / "two.tsv";
  write_file(one,
             "loc,lastmod\n/a,2025-05-14\n/b,2025-05-14 10:23:00\n"
             "/c,2024-01-01T10:00\n/d,2024-01-01T00:00:60Z\n");
  write_file(two, "loc\tlastmod\n/e\t2025-05-14 11:00:00\n");
  auto g = generate_and_check(t / "out", {one, two});
  EXPECT_EQ(lastmods(g.set),
            (std::map<std::string, std::string>{
                {base + "a", "2025-05-14"},
                {base + "b", "2025-05-14T10:23:00Z"},
                {base + "c", "2024-01-01T10:00:00Z"},
                // RFC 3339's leap second, read as the second before.
                {base + "d", "2024-01-01T00:00:59Z"},
                {base + "e", "2025-05-14T11:00:00Z"}}));
  const json& w = g.report["warnings"];
  ASSERT_EQ(w.size(), 2u) << w.dump();
  EXPECT_EQ(w[0]["input"], one);
  EXPECT_EQ(w[0]["line"], 3);
  EXPECT_THAT(w[0]["reason"].get<std::string>(),
              HasSubstr("\"2025-05-14 10:23:00\" has no time zone: read as "
                        "UTC"));
  EXPECT_EQ(w[1]["input"], two);
  EXPECT_EQ(w[1]["line"], 2);
  EXPECT_EQ(g.report["lastmods"]["zone_assumed"], 3);
  EXPECT_THAT(lines_with(g.run.err, "read as UTC; --timezone"),
              ::testing::ElementsAre(
                  "sitemill: 3 lastmods without a time zone read as UTC; "
                  "--timezone names their zone"));
}

TEST(GenerateDates, DstChangesAndAssumedZonesAreWarningsThatStrictAccepts) {
  temp_dir t;
  const std::string in = t / "export.csv";
  write_file(in,
             "loc,lastmod\n/gap,2025-03-30 02:30:00\n"
             "/overlap,2025-10-26 02:30:00\n/plain,2025-06-01 12:00:00\n");
  auto g = generate_and_check(t / "out",
                              {"--strict", "--timezone", "Europe/Berlin", in});
  EXPECT_EQ(lastmods(g.set),
            (std::map<std::string, std::string>{
                {base + "gap", "2025-03-30T02:30:00+01:00"},
                {base + "overlap", "2025-10-26T02:30:00+02:00"},
                {base + "plain", "2025-06-01T12:00:00+02:00"}}));
  const json& w = g.report["warnings"];
  ASSERT_EQ(w.size(), 2u) << w.dump();
  EXPECT_EQ(w[0]["line"], 2);
  EXPECT_THAT(w[0]["reason"].get<std::string>(),
              HasSubstr("\"2025-03-30 02:30:00\": the local time does not "
                        "exist"));
  EXPECT_EQ(w[1]["line"], 3);
  EXPECT_THAT(w[1]["reason"].get<std::string>(),
              HasSubstr("read as the earlier one"));
  EXPECT_EQ(g.report["lastmods"]["dst_adjusted"], 2);

  // Without --timezone the same export is read as UTC, and --strict still
  // publishes: an assumed zone is a reading, not an invalid field.
  auto u = generate_and_check(t / "out2", {"--strict", in});
  EXPECT_EQ(lastmods(u.set)[base + "gap"], "2025-03-30T02:30:00Z");
  EXPECT_EQ(u.report["lastmods"]["zone_assumed"], 3);
}

TEST(GenerateDates, BadDatesAreWarnedByLineAndSummedUpInOneLine) {
  temp_dir t;
  const std::string in = t / "export.csv";
  std::string text = "loc,lastmod\n/ok,2025-05-14T10:23:00Z\n";
  // A whole column in a format auto does not read: 500 warnings, one line.
  for (int i = 0; i < 500; ++i)
    text += "/p" + std::to_string(i) + "," + std::to_string(10 + i % 18) +
            "/05/2025\n";
  write_file(in, text);
  auto g = generate_and_check(t / "out", {in});
  auto l = lastmods(g.set);
  EXPECT_EQ(l.size(), 501u) << "every URL is still written";
  EXPECT_EQ(l[base + "ok"], "2025-05-14T10:23:00Z");
  EXPECT_EQ(l[base + "p0"], "");
  const json& w = g.report["warnings"];
  ASSERT_EQ(w.size(), 500u);
  EXPECT_EQ(w[0]["line"], 3);
  EXPECT_THAT(w[0]["reason"].get<std::string>(),
              HasSubstr("lastmod \"10/05/2025\" dropped: not a date "
                        "--date-format auto reads"));
  const json& s = g.report["lastmods"];
  EXPECT_EQ(s["dropped"], 500);
  ASSERT_EQ(s["first_dropped"].size(), 3u);
  EXPECT_EQ(s["first_dropped"][0],
            (json{{"input", in}, {"line", 3}, {"text", "10/05/2025"}}));
  EXPECT_EQ(s["first_dropped"][2]["line"], 5);
  // stderr: the warning with its line, and the summary line.
  EXPECT_EQ(lines_with(g.run.err, in + ":3: warning: lastmod \"10/05/2025\" "
                                       "dropped: not a date --date-format auto")
                .size(),
            1u)
      << g.run.err;
  EXPECT_THAT(lines_with(g.run.err, "lastmods dropped"),
              ::testing::ElementsAre(
                  "sitemill: 500 lastmods dropped (first " + in +
                  ":3 \"10/05/2025\", " + in + ":4 \"11/05/2025\", " + in +
                  ":5 \"12/05/2025\"); --date-format and --timezone read "
                  "other forms (docs/inputs.md)"));

  // The pattern that reads them.
  auto p =
      generate_and_check(t / "out2", {"--date-format", "%d/%m/%Y", "-q", in});
  auto lp = lastmods(p.set);
  EXPECT_EQ(lp[base + "p0"], "2025-05-10");
  EXPECT_EQ(lp[base + "p17"], "2025-05-27");
  EXPECT_EQ(lp[base + "ok"], "") << "a pattern reads only its own form";
  EXPECT_EQ(p.report["lastmods"]["dropped"], 1);
}

TEST(GenerateDates, StrictFailsOnADroppedLastmod) {
  temp_dir t;
  const std::string in = t / "urls.csv";
  write_file(in, "loc,lastmod\n/a,2025-05-14 10:23:00\n/b,14.05.2025\n");
  auto r = run_sitemill(
      {"generate", "--base-url", base, "--out", t / "out", "--strict", in});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr(in + ":3: warning: lastmod \"14.05.2025\""));
  EXPECT_THAT(r.err, HasSubstr("sitemill: 1 lastmod dropped (first " + in +
                               ":3 \"14.05.2025\")"));
}

TEST(GenerateDates, UnknownZoneOrPatternIsAUsageErrorNamingIt) {
  temp_dir t;
  const std::string in = t / "urls.txt";
  write_file(in, "/a\n");
  const struct {
    std::vector<std::string> flags;
    std::string says;
  } cases[] = {
      {{"--timezone", "Europe/Berln"},
       "--timezone \"Europe/Berln\" is not a zone of the tz database"},
      {{"--timezone", "+25:00"}, "--timezone \"+25:00\" is no offset"},
      {{"--date-format", "%d/%q/%Y"}, "--date-format names %q"},
      {{"--date-format", "w3c", "--timezone", "UTC"},
       "--timezone has no effect with --date-format w3c"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.says);
    std::vector<std::string> args = {"generate", "--base-url", base, "--out",
                                     t / "out"};
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    args.push_back(in);
    auto r = run_sitemill(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, HasSubstr(c.says));
    EXPECT_FALSE(std::filesystem::exists(t / "out/sitemap.xml"));
  }
}

TEST(GenerateDates, W3cFormatKeepsTheStrictReading) {
  temp_dir t;
  const std::string in = t / "urls.csv";
  write_file(in, "loc,lastmod\n/a,2025-05-14 10:23:00+02\n/b,2025-05-14\n");
  auto g = generate_and_check(t / "out", {"--date-format", "w3c", in});
  EXPECT_EQ(lastmods(g.set),
            (std::map<std::string, std::string>{{base + "a", ""},
                                                {base + "b", "2025-05-14"}}));
  EXPECT_EQ(g.report["lastmods"]["dropped"], 1);
}

TEST(GenerateDates, HelpListsTheDateForms) {
  auto r = run_sitemill({"generate", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (std::string_view s :
       {"--date-format", "--timezone", "2025-05-14 10:23:00.123456+02",
        "RFC 2822", "Unix time", "Europe/Berlin", "%Y"})
    EXPECT_THAT(r.out, HasSubstr(std::string(s)));
}

}  // namespace
}  // namespace sitemill::testing
