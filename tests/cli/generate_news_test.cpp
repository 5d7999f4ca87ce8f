// generate --news and --now on the command line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;

std::string article(std::string_view loc, std::string_view published) {
  return "<url><loc>" + std::string(loc) +
         "</loc><news:news><news:publication><news:name>Daily</news:name>"
         "<news:language>en</news:language></news:publication>"
         "<news:publication_date>" +
         std::string(published) +
         "</news:publication_date><news:title>T</news:title></news:news>"
         "</url>\n";
}

TEST(GenerateNews, RecentArticlesGoToANewsSitemapMeasuredFromNow) {
  temp_dir t;
  std::ofstream(t / "in.xml")
      << "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
         "xmlns:news=\"http://www.google.com/schemas/sitemap-news/0.9\">\n"
      << article("https://www.example.com/new", "2026-11-23T09:00:00Z")
      << article("https://www.example.com/old", "2026-11-01") << "</urlset>\n";
  auto r =
      run_sitemill({"generate", "--base-url", "https://www.example.com/",
                    "--out", t / "out", "--from-sitemap", t / "in.xml",
                    "--news", "--now", "2026-11-23T12:00:00Z", "--no-gzip"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("1 articles are older than two days"));
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(t / "out"))
    if (!e.path().filename().string().starts_with("."))
      names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  ASSERT_EQ(names.size(), 3u);
  EXPECT_EQ(names[0].size(), std::string("sitemap-.xml").size() + 12)
      << names[0];  // the stable layout's root leaf: no number
  EXPECT_TRUE(names[1].starts_with("sitemap-news-1-")) << names[1];
  EXPECT_EQ(names[2], "sitemap.xml");
  const std::string news = read_file(t / ("out/" + names[1]));
  EXPECT_THAT(news, HasSubstr("https://www.example.com/new"));
  EXPECT_THAT(news, ::testing::Not(HasSubstr("https://www.example.com/old")));
}

TEST(GenerateNews, NowMustBeAW3cDatetime) {
  temp_dir t;
  auto r =
      run_sitemill({"generate", "--base-url", "https://www.example.com/",
                    "--out", t / "out", "--news", "--now", "yesterday", "-"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--now takes a W3C datetime"));
}

}  // namespace
}  // namespace sitemill::testing
