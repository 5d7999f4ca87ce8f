// What the commands' text output says about counts and dates: diff shows
// each lastmod as its file has it, a noun agrees with its count ("1 URL",
// "2 URLs"), and every count is grouped by with_commas() ("1,200").
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "inspect_support.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string site = "https://www.example.com/";

TEST(DiffText, EveryLastmodIsShownAsItsFileHasIt) {
  temp_dir t;
  write_file(t / "old.xml",
             urlset_xml({{site + "a", lastmod("2026-03-01T10:00:00+02:00")},
                         {site + "b", lastmod(" 2026-05-01 ")},
                         {site + "c", lastmod("2026-01-01T08:00:00.250Z")},
                         {site + "gone", lastmod("2025-12-24")}}));
  write_file(t / "new.xml",
             urlset_xml({{site + "a", lastmod("2026-03-02T09:30+01:00")},
                         {site + "b", lastmod("2026-04-30")},
                         {site + "c", ""}}));
  const run_result r = run_sitemill({"diff", t / "old.xml", t / "new.xml"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr(site + "a  2026-03-01T10:00:00+02:00 -> "
                                      "2026-03-02T09:30+01:00"));
  EXPECT_THAT(r.out, HasSubstr(site + "b  2026-05-01 -> 2026-04-30"));
  EXPECT_THAT(r.out, HasSubstr(site + "c  2026-01-01T08:00:00.250Z -> (none)"));
  EXPECT_THAT(r.out, Not(HasSubstr("T00:00:00Z"))) << "nothing re-formatted";
}

TEST(DiffText, ANounAgreesWithItsCount) {
  temp_dir t;
  write_file(t / "old.xml", urlset_xml({{site + "a", lastmod("2026-01-01")}}));
  write_file(t / "new.xml", urlset_xml({{site + "a", lastmod("2026-01-02")},
                                        {site + "b", ""}}));
  const run_result r = run_sitemill({"diff", t / "old.xml", t / "new.xml"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr(": 1 URL in 1 file\n"));
  EXPECT_THAT(r.out, HasSubstr(": 2 URLs in 1 file\n"));
  EXPECT_THAT(r.out, HasSubstr("1 added, 0 removed, 1 changed URL\n"));
}

TEST(CheckText, ANounAgreesWithItsCount) {
  temp_dir t;
  write_file(t / "one.xml", urlset_xml({{site + "a", ""}}));
  const run_result r = run_sitemill({"check", t / "one.xml"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("checked 1 document, 1 URL: 0 errors, 0 "
                               "warnings"));
  EXPECT_THAT(r.out, HasSubstr("urlset, 1 URL, "));
}

TEST(StatsText, ANounAgreesWithItsCount) {
  temp_dir t;
  write_file(t / "one.xml", urlset_xml({{site + "a", ""}, {site + "a", ""}}));
  const run_result r = run_sitemill({"stats", t / "one.xml"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("(1 distinct, 1 duplicate entry)"));
  EXPECT_THAT(r.out, HasSubstr(", 0 indexes, "));
}

TEST(GenerateText, CountsAreGroupedAndAgreeWithTheirNouns) {
  temp_dir t;
  std::string urls;
  for (int i = 0; i < 1200; ++i) urls += site + std::to_string(i) + "\n";
  urls += site + "0\n";  // one duplicate
  write_file(t / "urls.txt", urls);
  const run_result r =
      run_sitemill({"generate", "--base-url", site, "--out", t / "out",
                    "--no-gzip", "--max-urls", "1000", t / "urls.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("1,200 URLs written, 1 duplicate, 0 rejected, "
                               "0 warnings, from 1,201 records"));

  write_file(t / "one.txt", site + "only\n");
  const run_result one = run_sitemill({"generate", "--base-url", site, "--out",
                                       t / "one", "--no-gzip", t / "one.txt"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_THAT(one.err, HasSubstr("published 1 file to "));
  EXPECT_THAT(one.err, HasSubstr("1 URL written, 0 duplicates, 0 rejected, "
                                 "0 warnings, from 1 record"));

  const run_result stream = run_sitemill(
      {"generate", "--base-url", site, "--out", "-", t / "one.txt"});
  ASSERT_EQ(stream.exit_code, 0) << stream.err;
  EXPECT_THAT(stream.err, HasSubstr("wrote 1 URL to stdout (0 duplicates, 0 "
                                    "rejected, from 1 record)"));
}

}  // namespace
}  // namespace sitemill::testing
