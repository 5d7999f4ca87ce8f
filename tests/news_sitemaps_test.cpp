// Google News sitemaps from generate: recent articles in files of their own
// (at most 1,000 URLs each), older ones without their news:news block, and
// without `news` every block kept whatever its age.
#include <gtest/gtest.h>

#include <fstream>

#include "sitemill/generate/generate.h"
#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/source/sitemap_source.h"
#include "support/run.h"

namespace sitemill {
namespace {

using testing::read_file;
using testing::temp_dir;

std::string article(int n, std::string_view published) {
  return "<url><loc>https://example.com/a" + std::to_string(n) +
         "</loc><news:news><news:publication><news:name>Daily</news:name>"
         "<news:language>en</news:language></news:publication>"
         "<news:publication_date>" +
         std::string(published) +
         "</news:publication_date><news:title>T</news:title></news:news>"
         "</url>\n";
}

struct file_facts {
  std::size_t urls = 0, news = 0;
  bool schema_valid = false;
};

file_facts facts(const std::string& path) {
  struct counter final : parse_handler {
    file_facts* f;
    void on_entry(const parsed_entry& e) override {
      ++f->urls;
      for (const auto& v : e.extensions)
        f->news += extension_fields()[v.field].key == "title";
    }
  } c;
  file_facts f;
  c.f = &f;
  f.schema_valid = parse_bytes(read_file(path), c).schema_valid;
  return f;
}

struct result_set {
  generate_report report;
  std::vector<std::pair<std::string, file_facts>> files;  // urlsets only
};

result_set run(const temp_dir& d, const std::string& body, bool news) {
  std::ofstream(d / "in.xml")
      << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
         "xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\">\n"
      << body << "</urlset>\n";
  generate_options o;
  sitemap_source_options s;
  s.location = d / "in.xml";
  o.sources.push_back(sitemap_source(s));
  o.base_url = "https://example.com/";
  o.out_dir = d / "out";
  o.news = news;
  // 2026-11-23T12:00:00Z
  o.now =
      std::chrono::system_clock::time_point(std::chrono::seconds(1795435200));
  generate_observer quiet;
  result_set r;
  r.report = generate(o, quiet);
  for (const auto& f : r.report.files)
    if (f.type == document_type::urlset)
      r.files.emplace_back(f.path, facts(o.out_dir + "/" + f.path));
  return r;
}

TEST(NewsSitemaps, RecentArticlesGetFilesOfTheirOwnAndOldOnesLoseTheBlock) {
  temp_dir d;
  auto r = run(d,
               article(1, "2026-11-23T08:00:00Z") +
                   article(2, "2026-11-21T13:00:00+01:00") +
                   article(3, "2026-11-20T11:59:59Z") +
                   "<url><loc>https://example.com/plain</loc></url>\n",
               true);
  ASSERT_EQ(r.report.outcome, generate_outcome::published) << r.report.message;
  EXPECT_EQ(r.report.entry, "sitemap.xml");
  ASSERT_EQ(r.files.size(), 2u);
  // The set's own sitemap: the plain page and the article of three days ago,
  // without its block.
  // The stable layout's root leaf: no number (docs/scaling.md).
  EXPECT_TRUE(r.files[0].first.starts_with("sitemap-") &&
              !r.files[0].first.starts_with("sitemap-news-"))
      << r.files[0].first;
  EXPECT_EQ(r.files[0].second.urls, 2u);
  EXPECT_EQ(r.files[0].second.news, 0u);
  EXPECT_TRUE(r.files[0].second.schema_valid);
  // The news sitemap: the two articles of the last two days.
  EXPECT_TRUE(r.files[1].first.starts_with("sitemap-news-1-"))
      << r.files[1].first;
  EXPECT_EQ(r.files[1].second.urls, 2u);
  EXPECT_EQ(r.files[1].second.news, 2u);
  EXPECT_TRUE(r.files[1].second.schema_valid);
  EXPECT_EQ(r.report.written, 4u);
  EXPECT_EQ(r.report.warnings, 1u) << "one line about the stale article";
}

TEST(NewsSitemaps, WithoutNewsEveryBlockIsKeptWhateverItsAge) {
  temp_dir d;
  auto r = run(d, article(1, "2026-11-23") + article(2, "2001-01-01"), false);
  ASSERT_EQ(r.report.outcome, generate_outcome::published);
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.report.entry, "sitemap.xml");
  EXPECT_EQ(r.files[0].second.news, 2u);
}

TEST(NewsSitemaps, AtMostAThousandArticlesPerFile) {
  temp_dir d;
  std::string body;
  for (int i = 0; i < 1001; ++i) body += article(i, "2026-11-23");
  auto r = run(d, body, true);
  ASSERT_EQ(r.report.outcome, generate_outcome::published);
  ASSERT_EQ(r.files.size(), 2u);
  EXPECT_TRUE(r.files[0].first.starts_with("sitemap-news-1-"));
  EXPECT_EQ(r.files[0].second.urls, 1000u);
  EXPECT_TRUE(r.files[1].first.starts_with("sitemap-news-2-"));
  EXPECT_EQ(r.files[1].second.urls, 1u);
}

}  // namespace
}  // namespace sitemill
