// generate from .txt URL lists as people make them (issue 34, item 11): two
// lists joined with cat, the second's byte-order mark now mid-file, and a
// spreadsheet column saved as text, every URL in double quotes. Neither may
// become a junk URL (…/%EF%BB%BFhttps://…, …/%22https://…%22).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/campaign.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string base = "https://www.example.com/";

set_expectations at(const std::string& base_url) {
  set_expectations e;
  e.base_url = base_url;
  return e;
}

TEST(GenerateTxtLines, ABomStartingALaterLineIsRejectedAtItsLine) {
  temp_dir t;
  // `cat en.txt de.txt`: both files were saved with a BOM by an editor.
  write_file(t / "urls.txt",
             "\xEF\xBB\xBFhttps://www.example.com/en/\n"
             "https://www.example.com/en/about\n"
             "\xEF\xBB\xBFhttps://www.example.com/de/\n"
             "https://www.example.com/de/ueber-uns\n");
  auto g = generate_and_check(t / "out", {"--no-gzip", t / "urls.txt"}, {},
                              at(base));
  test::campaign_tally(test::campaign_kind::hostile_input, 1);
  EXPECT_THAT(all_locs(g.set),
              ElementsAre(base + "en/", base + "en/about",
                          base + "de/ueber-uns"));
  ASSERT_EQ(g.report["rejected"].size(), 1u) << g.report.dump();
  EXPECT_EQ(g.report["rejected"][0]["line"], 3);
  EXPECT_THAT(g.report["rejected"][0]["reason"].get<std::string>(),
              HasSubstr("starts with a byte-order mark"));
}

TEST(GenerateTxtLines, QuotedUrlsLoseTheirQuotesWithOneWarningAndACount) {
  temp_dir t;
  write_file(t / "urls.txt",
             "\"https://www.example.com/a\"\n"
             "https://www.example.com/b\n"
             "\"https://www.example.com/c\" \r\n"
             "\"https://www.example.com/d\"\n"
             "\"https://www.example.com/e\n"
             "\"https://www.example.com/f\"g\"\n");
  auto g = generate_and_check(t / "out", {"--no-gzip", t / "urls.txt"}, {},
                              at(base));
  test::campaign_tally(test::campaign_kind::hostile_input, 1);
  EXPECT_THAT(all_locs(g.set), ElementsAre(base + "a", base + "b", base + "c",
                                           base + "d"));
  // An opening quote with no closing one, or a quote inside: not a URL.
  ASSERT_EQ(g.report["rejected"].size(), 2u) << g.report.dump();
  EXPECT_EQ(g.report["rejected"][0]["line"], 5);
  EXPECT_EQ(g.report["rejected"][1]["line"], 6);
  EXPECT_THAT(g.report["rejected"][0]["reason"].get<std::string>(),
              HasSubstr("double quote that does not close"));
  // The first quoted line is noted at its line, the rest counted once.
  ASSERT_EQ(g.report["warnings"].size(), 2u) << g.report["warnings"].dump();
  EXPECT_EQ(g.report["warnings"][0]["line"], 1);
  EXPECT_THAT(g.report["warnings"][0]["reason"].get<std::string>(),
              HasSubstr("in double quotes, which were dropped"));
  EXPECT_THAT(g.report["warnings"][1]["reason"].get<std::string>(),
              HasSubstr("3 lines in all held a URL in double quotes "
                        "(lines 1 to 4)"));
}

}  // namespace
}  // namespace sitemill::testing
