// Where a set's files are served when they are not at its base URL: the URL
// of a folder inside a site directory (site_directory_url(), what generate
// infers --sitemaps-url from), and whether sitemaps served there may list
// the base's URLs by the protocol's location rule (sitemaps_cover_urls(),
// docs/protocol.md 1.6 and 1.7).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "sitemill/notify/announce.h"
#include "sitemill/source/site_source.h"
#include "support/run.h"

namespace sitemill {
namespace {

TEST(SiteDirectoryUrl, AFolderOfTheSiteIsServedBelowTheBase) {
  testing::temp_dir t;
  std::filesystem::create_directories(t / "public/sitemaps");
  std::filesystem::create_directories(t / "public2");
  const std::string base = "https://www.example.com/";
  struct row {
    std::string root, base, path, want;
  };
  const row rows[] = {
      {t / "public", base, t / "public/sitemaps", base + "sitemaps/"},
      {t / "public/", base, t / "public/sitemaps/", base + "sitemaps/"},
      // Need not exist yet: --out is created by the run.
      {t / "public", base, t / "public/a/b", base + "a/b/"},
      {t / "public", base, t / "public/./a/../maps", base + "maps/"},
      {t / "public", base, t / "public/caf\xC3\xA9", base + "caf%C3%A9/"},
      {t / "public", "https://www.example.com/docs", t / "public/sitemaps",
       base + "docs/sitemaps/"},
      // The root itself, a sibling whose name starts alike, outside.
      {t / "public", base, t / "public", ""},
      {t / "public", base, t / "public2", ""},
      {t / "public", base, t.path(), ""},
      {t / "public", "ftp://example.com/", t / "public/sitemaps", ""},
  };
  for (const row& r : rows)
    EXPECT_EQ(site_directory_url(r.root, r.base, r.path), r.want)
        << r.root << " " << r.path;
}

TEST(SiteDirectoryUrl, ASymbolicLinkIntoTheSiteIsResolved) {
  testing::temp_dir t;
  std::filesystem::create_directories(t / "public/maps");
  std::filesystem::create_directory_symlink(t / "public/maps", t / "maps-link");
  EXPECT_EQ(site_directory_url(t / "public", "https://www.example.com/",
                               t / "maps-link"),
            "https://www.example.com/maps/");
}

// sitemaps.org 1.6: a sitemap lists only URLs under its own folder; one in
// a folder below its pages needs robots.txt to vouch for it (1.7).
TEST(SitemapsCoverUrls, OnlySitemapsAtOrAboveTheBaseCoverIt) {
  struct row {
    std::string base, sitemaps;
    bool covers;
  };
  const row rows[] = {
      {"https://www.example.com/", "", true},
      {"https://www.example.com/", "https://www.example.com/", true},
      {"https://www.example.com/docs/", "https://www.example.com/", true},
      {"https://www.example.com/", "https://www.example.com/sitemaps/", false},
      {"https://www.example.com/docs/", "https://www.example.com/blog/",
       false},
      {"https://www.example.com/", "https://cdn.example.com/", false},
  };
  for (const row& r : rows) {
    set_report set;
    set.base_url = r.base;
    set.sitemaps_url = r.sitemaps;
    EXPECT_EQ(sitemaps_cover_urls(set), r.covers) << r.base << " " << r.sitemaps;
  }
}

TEST(RobotsSitemapUrls, NameTheFilesWhereTheyAreServed) {
  set_report set;
  set.base_url = "https://www.example.com/";
  set.sitemaps_url = "https://www.example.com/sitemaps/";
  set.entry = "sitemap.xml";
  set.files = {{"sitemap-1-0123456789ab.xml.gz", document_type::urlset, 3, 100,
                0},
               {"sitemap.xml", document_type::sitemapindex, 1, 100, 0}};
  EXPECT_EQ(robots_sitemap_urls(set, set.base_url),
            std::vector<std::string>{
                "https://www.example.com/sitemaps/sitemap.xml"});
  set.sitemaps_url.clear();  // a report filled before there was one
  EXPECT_EQ(robots_sitemap_urls(set, set.base_url),
            std::vector<std::string>{"https://www.example.com/sitemap.xml"});
}

}  // namespace
}  // namespace sitemill
