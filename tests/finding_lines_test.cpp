// The lines a report's findings point at (report/finding_lines.h): read
// again from local documents, gzip or not, as a short window around the
// column; fetched and unreadable documents are left unquoted.
#include "sitemill/report/finding_lines.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/run.h"

namespace sitemill {
namespace {

using ::testing::HasSubstr;

code_findings group_of(std::string code,
                       std::vector<finding_example> examples) {
  code_findings g;
  g.code = std::move(code);
  g.count = examples.size();
  g.examples = std::move(examples);
  return g;
}

TEST(FindingLines, QuotesEachWantedLineOfAGzippedDocument) {
  testing::temp_dir t;
  std::string text;
  for (int i = 1; i <= 5000; ++i)
    text += "\t<url><loc>https://www.example.com/" + std::to_string(i) +
            "</loc></url>\n";
  testing::write_file(t / "s.xml.gz", testing::gzip(text));
  std::vector<code_findings> f = {
      group_of("a", {{t / "s.xml.gz", 4321, "m", 0, {}},
                     {t / "s.xml.gz", 2, "m", 0, {}}}),
      group_of("b", {{t / "s.xml.gz", 4321, "m", 0, {}}})};
  quote_finding_lines(f);
  ASSERT_TRUE(f[0].examples[0].quote);
  EXPECT_EQ(*f[0].examples[0].quote,
            "<url><loc>https://www.example.com/4321</loc></url>")
      << "the indentation is left out";
  ASSERT_TRUE(f[0].examples[1].quote);
  EXPECT_EQ(*f[0].examples[1].quote,
            "<url><loc>https://www.example.com/2</loc></url>");
  ASSERT_TRUE(f[1].examples[0].quote);
  EXPECT_EQ(*f[1].examples[0].quote, *f[0].examples[0].quote);
}

TEST(FindingLines, AFarColumnIsShownInAWindowAroundIt) {
  testing::temp_dir t;
  // One long line (a minified sitemap): "é" is two bytes but one column.
  std::string line = "é";
  for (int i = 0; i < 2000; ++i) line += 'a';
  line += "HERE";
  for (int i = 0; i < 2000; ++i) line += 'b';
  testing::write_file(t / "m.xml", line + "\n");
  std::vector<code_findings> f = {group_of(
      "a", {{t / "m.xml", 1, "m", 2002, {}}, {t / "m.xml", 1, "m", 0, {}}})};
  quote_finding_lines(f);
  ASSERT_TRUE(f[0].examples[0].quote);
  const std::string& q = *f[0].examples[0].quote;
  EXPECT_TRUE(q.starts_with("...a")) << q;
  EXPECT_TRUE(q.ends_with("b...")) << q;
  EXPECT_EQ(q.find("HERE"), 3 + quote_window_bytes / 2)
      << "the column (counted in characters) is half a window in";
  ASSERT_TRUE(f[0].examples[1].quote);
  EXPECT_TRUE(f[0].examples[1].quote->starts_with("éaaa"))
      << "without a column, the line's start";
}

TEST(FindingLines, ControlBytesAndBrokenUtf8AreShownAsEscapes) {
  testing::temp_dir t;
  testing::write_file(t / "c.xml", "<a>\x01x\xff\ty</a>\n");
  std::vector<code_findings> f = {
      group_of("a", {{t / "c.xml", 1, "m", 0, {}}})};
  quote_finding_lines(f);
  ASSERT_TRUE(f[0].examples[0].quote);
  EXPECT_EQ(*f[0].examples[0].quote, "<a>\\x01x\\xFF y</a>");
}

TEST(FindingLines, FetchedMissingAndWholeDocumentFindingsAreNotQuoted) {
  testing::temp_dir t;
  testing::write_file(t / "s.xml", "one\ntwo\n");
  std::vector<code_findings> f = {
      group_of("a", {{"https://www.example.com/s.xml", 1, "m", 0, {}},
                     {t / "gone.xml", 1, "m", 0, {}},
                     {t / "s.xml", 0, "m", 0, {}},
                     {t / "s.xml", 9, "m", 0, {}},
                     {t.path(), 1, "m", 0, {}},
                     {t / "s.xml", 2, "m", 0, {}}})};
  quote_finding_lines(f);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_FALSE(f[0].examples[i].quote) << i;
  ASSERT_TRUE(f[0].examples[5].quote);
  EXPECT_EQ(*f[0].examples[5].quote, "two");
}

TEST(FindingLines, StopsWhenCancelled) {
  testing::temp_dir t;
  std::string text;
  for (int i = 0; i < 10000; ++i) text += "x\n";
  testing::write_file(t / "s.xml", text);
  std::vector<code_findings> f = {
      group_of("a", {{t / "s.xml", 9999, "m", 0, {}}})};
  quote_finding_lines(f, [] { return true; });
  EXPECT_FALSE(f[0].examples[0].quote);
}

}  // namespace
}  // namespace sitemill
