// page_source (source/page_source.h): pages a program holds, published by
// one generate() call, through the same checks as any other source.
#include "sitemill/source/page_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sitemill/generate/generate.h"
#include "support/run.h"

namespace sitemill {
namespace {

using ::testing::HasSubstr;

struct collecting_observer : generate_observer {
  std::vector<record_issue> rejects;
  void rejected(const record_issue& r) override { rejects.push_back(r); }
};

TEST(PageSource, OneCallPublishesAnIndexOfStreamedPages) {
  testing::temp_dir t;
  generate_options g;
  g.base_url = "https://www.example.com/";
  g.out_dir = t / "public";
  g.gzip = false;
  g.layout = file_layout::sequential;  // full files: three of them
  constexpr std::size_t pages = 120'001;
  std::size_t asked = 0;
  g.sources = {page_source("catalogue", [&](page& p) {
    if (asked == pages) return false;
    p.loc = "p/" + std::to_string(asked++);
    p.lastmod = "2026-01-02";
    return true;
  })};
  generate_observer quiet;
  const generate_report r = generate(g, quiet);
  ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
  EXPECT_EQ(r.records, pages);
  EXPECT_EQ(r.written, pages);
  EXPECT_EQ(r.files.size(), 4u) << "three sitemaps of at most 50,000 URLs "
                                   "and their index";
  const std::string index = testing::read_file(t / "public/sitemap.xml");
  EXPECT_THAT(index, HasSubstr("<sitemapindex"));
}

TEST(PageSource, ExtensionsAreWrittenAndABadPageIsRejectedByNumber) {
  testing::temp_dir t;
  generate_options g;
  g.base_url = "https://www.example.com/";
  g.out_dir = t / "public";
  g.gzip = false;
  std::vector<page> given(3);
  given[0].loc = "https://www.example.com/en/";
  given[0].alternates = {{"en", "https://www.example.com/en/"},
                         {"de", "https://www.example.com/de/"}};
  given[0].images = {"https://www.example.com/a.png"};
  given[1].loc = "https://elsewhere.example/x";  // not under the base
  given[2].loc = "https://www.example.com/de/";
  given[2].alternates = given[0].alternates;
  given[2].priority = "0.8";
  std::size_t next = 0;
  g.sources = {page_source("app", [&](page& p) {
    if (next == given.size()) return false;
    EXPECT_TRUE(p.loc.empty() && p.images.empty()) << "cleared before a call";
    p = given[next++];
    return true;
  })};
  collecting_observer seen;
  const generate_report r = generate(g, seen);
  ASSERT_EQ(r.outcome, generate_outcome::published) << r.message;
  EXPECT_EQ(r.written, 2u);
  ASSERT_EQ(seen.rejects.size(), 1u);
  EXPECT_EQ(seen.rejects[0].input, "app");
  EXPECT_EQ(seen.rejects[0].line, 2u) << "the page's number";
  const std::string xml = testing::read_file(t / "public/sitemap.xml");
  EXPECT_THAT(xml, HasSubstr("<image:loc>https://www.example.com/a.png"
                             "</image:loc>"));
  EXPECT_THAT(xml, HasSubstr("hreflang=\"de\" "
                             "href=\"https://www.example.com/de/\""));
  EXPECT_THAT(xml, HasSubstr("<priority>0.8</priority>"));
}

}  // namespace
}  // namespace sitemill
