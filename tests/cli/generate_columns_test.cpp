// End-to-end runs of --columns (issue 13): a shop's export read by its own
// header names, a header row never written as a URL under a column list in
// order, and the errors that name what is missing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;

const std::string base = "https://shop.example.com/";

set_expectations shop() {
  set_expectations expect;
  expect.base_url = base;
  return expect;
}

std::size_t count_of(const std::string& text, std::string_view what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos;
       at = text.find(what, at + what.size()))
    ++n;
  return n;
}

// The bug of the issue: the header row of an export read with a column list
// in order was one more URL, https://shop.example.com/url.
TEST(GenerateColumns, AHeaderRowUnderAColumnListInOrderIsNotAUrl) {
  temp_dir t;
  std::string csv = "id,url,title,updated_at\n";
  constexpr int rows = 5;
  for (int i = 0; i < rows; ++i)
    csv += std::to_string(i) + ",https://shop.example.com/p/" +
           std::to_string(i) + ",Product " + std::to_string(i) + ",2024-01-0" +
           std::to_string(i + 1) + "\n";
  write_file(t / "export.csv", csv);
  auto g = generate_and_check(
      t / "out",
      {"--base-url", base, "--columns", "-,loc,-,lastmod", t / "export.csv"},
      {}, shop());
  EXPECT_EQ(g.set.urls, std::size_t{rows});
  for (const auto& loc : all_locs(g.set))
    EXPECT_NE(loc, base + "url") << "the header row became a URL";
  EXPECT_EQ(g.report["records"], rows);
  EXPECT_THAT(g.run.err,
              HasSubstr(t / "export.csv" +
                        ":1: warning: first row taken as a header row, not a "
                        "URL (its loc cell is \"url\")"));
}

// A shop's export of 200,000 products, mapped by its own header names.
TEST(GenerateColumns, ReadsALargeExportByItsHeaderNames) {
  temp_dir t;
  constexpr int rows = 200'000;
  std::string csv = "url,updated_at,image_url\n";
  csv.reserve(std::size_t{rows} * 96);
  int images = 0;
  for (int i = 0; i < rows; ++i) {
    csv += "https://shop.example.com/p/" + std::to_string(i) + ",2024-0" +
           std::to_string(i % 9 + 1) + "-1" + std::to_string(i % 10) + ",";
    if (i % 7 != 0) {  // some products have no image: no <image:image>
      csv += "https://cdn.example.net/" + std::to_string(i) + ".jpg";
      ++images;
    }
    csv += "\n";
  }
  write_file(t / "export.csv", csv);
  auto g = generate_and_check(
      t / "out",
      {"--base-url", base, "--no-gzip", "--columns",
       "loc=url,lastmod=updated_at,image=image_url", t / "export.csv"},
      {}, shop());
  EXPECT_EQ(g.set.urls, std::size_t{rows});
  std::size_t locs = 0, image_locs = 0, lastmods = 0;
  for (const set_file* f : g.set.sitemaps()) {
    locs += count_of(f->content, "<loc>");
    image_locs += count_of(f->content, "<image:loc>");
    lastmods += count_of(f->content, "<lastmod>");
  }
  EXPECT_EQ(locs, std::size_t{rows});
  EXPECT_EQ(lastmods, std::size_t{rows});
  EXPECT_EQ(image_locs, std::size_t(images));
  EXPECT_EQ(g.report["records"], rows);
  EXPECT_TRUE(g.report["warnings"].empty()) << g.report["warnings"].dump();
}

TEST(GenerateColumns, JsonlKeysByName) {
  temp_dir t;
  write_file(t / "export.jsonl",
             "{\"url\": \"https://shop.example.com/a\", \"updated_at\": "
             "\"2024-01-01\", \"stock\": 3, \"image_url\": "
             "\"https://cdn.example.net/a.jpg\"}\n"
             "{\"url\": \"/b\"}\n");
  auto g = generate_and_check(
      t / "out",
      {"--base-url", base, "--no-gzip", "--columns",
       "loc=url,lastmod=updated_at,image=image_url", t / "export.jsonl"},
      {}, shop());
  auto entries = all_entries(g.set);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0]["loc"], "https://shop.example.com/a");
  EXPECT_EQ(entries[0]["lastmod"], "2024-01-01");
  EXPECT_EQ(entries[1], (xml_entry{{"loc", "https://shop.example.com/b"}}));
  ASSERT_EQ(g.set.sitemaps().size(), 1u);
  EXPECT_THAT(g.set.sitemaps()[0]->content,
              HasSubstr("<image:image><image:loc>https://cdn.example.net/"
                        "a.jpg</image:loc></image:image>"));
  EXPECT_TRUE(g.report["warnings"].empty()) << g.report["warnings"].dump();
}

TEST(GenerateColumns, ErrorsNameWhatIsMissingAndPublishNothing) {
  temp_dir t;
  write_file(t / "export.csv",
             "link,updated_at,image_url\nhttps://shop.example.com/a,,\n");
  const struct {
    std::vector<std::string> args;
    std::string message;
  } rows[] = {
      // A mapped name the header lacks: named, with the header's names.
      {{"--columns", "loc=url,lastmod=updated_at"},
       t / "export.csv" +
           ":1: header has no column \"url\" (for loc); its columns, split "
           "at ',' (the delimiter the header has most of), are "
           "\"link\", \"updated_at\", \"image_url\""},
      // No mapping and no loc: the column to map is suggested.
      {{},
       "header has no loc column; its columns, split at ',' (the delimiter "
       "the header has most of), are \"link\", \"updated_at\", "
       "\"image_url\"; to read \"link\" as loc, map it by name: --columns "
       "loc=link"},
      {{"--columns", "loc=link,lastmod"},
       "sitemill generate: --columns: a column list is either in order"},
      {{"--columns", "loc=link,title=name"},
       "sitemill generate: --columns: unknown column \"title\""},
      {{"--columns", "lastmod=updated_at"},
       "the column list has no loc column"},
  };
  for (const auto& r : rows) {
    std::vector<std::string> args = {"generate", "--base-url", base, "--out",
                                     t / "out"};
    args.insert(args.end(), r.args.begin(), r.args.end());
    args.push_back(t / "export.csv");
    const run_result run = run_sitemill(args);
    EXPECT_EQ(run.exit_code, 2) << run.err;
    EXPECT_THAT(run.err, HasSubstr(r.message));
    EXPECT_TRUE(list_files(t / "out").empty());
  }
}

}  // namespace
}  // namespace sitemill::testing
