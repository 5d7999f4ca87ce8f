// Where a local index whose own URL is not known is taken to be served
// (include/sitemill/walk/walker.h, the child location rule): by its
// children's URLs, a root index's children in subfolders included, and by
// the site root on disk (a robots.txt or an index.html) when the two
// disagree, which makes a child read from beside the index "misplaced".
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "sitemill/walk/walker.h"
#include "support/run.h"
#include "walk/walker_impl.h"

namespace sitemill {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using testing::sitemapindex;
using testing::temp_dir;
using testing::urlset;
using testing::write_file;

// What a walk of one local index read, skipped and found misplaced.
struct walk_log final : walk_observer, parse_handler {
  std::vector<std::string> read;     // sources opened, in order
  std::vector<std::string> skipped;  // "loc reason"
  std::vector<walk_skip> skips;
  std::vector<std::pair<std::string, walk_misplaced>> misplaced;  // loc, where

  parse_handler& on_open(const walk_document& doc) override {
    read.push_back(doc.source);
    if (doc.misplaced) misplaced.emplace_back(doc.listing.loc, *doc.misplaced);
    return *this;
  }
  void on_skip(const walk_document& doc, const walk_skip& why) override {
    skipped.push_back(doc.listing.loc + " " +
                      (why.reason == walk_skip_reason::cycle ? "cycle"
                       : why.reason == walk_skip_reason::child_not_found
                           ? "child_not_found"
                           : "other"));
    skips.push_back(why);
  }
  void on_failed(const walk_document& doc, const walk_skip&) override {
    skipped.push_back(doc.source + " failed");
  }
};

walk_log walk_index(const std::string& path) {
  walk_log log;
  sitemap_walker walker(walk_options{}, log);
  walker.walk(path);
  return log;
}

// A Hugo-like multilingual site: the root index names each language's
// sitemap in its folder.
TEST(WalkPlacement, ReadsARootIndexsChildrenInLanguageFolders) {
  temp_dir t;
  for (const char* lang : {"en", "de", "fr"}) {
    fs::create_directories(t / lang);
    write_file(t / (std::string(lang) + "/sitemap.xml"),
               urlset({"https://www.example.com/" + std::string(lang) + "/"}));
  }
  write_file(t / "sitemap.xml",
             sitemapindex({"https://www.example.com/en/sitemap.xml",
                           "https://www.example.com/de/sitemap.xml",
                           "https://www.example.com/fr/sitemap.xml"}));
  const walk_log log = walk_index(t / "sitemap.xml");
  EXPECT_THAT(log.read,
              ElementsAre(t / "sitemap.xml", t / "en/sitemap.xml",
                          t / "de/sitemap.xml", t / "fr/sitemap.xml"));
  EXPECT_TRUE(log.skipped.empty()) << log.skipped.front();
  EXPECT_TRUE(log.misplaced.empty());
}

// One language only: the children's common directory (/en/) would put the
// child on the index itself; the directory above it finds its file.
TEST(WalkPlacement, NeverTakesTheIndexForItsOnlyChild) {
  temp_dir t;
  fs::create_directories(t / "en");
  write_file(t / "en/sitemap.xml", urlset({"https://www.example.com/en/"}));
  write_file(t / "sitemap.xml",
             sitemapindex({"https://www.example.com/en/sitemap.xml"}));
  const walk_log log = walk_index(t / "sitemap.xml");
  EXPECT_THAT(log.read, ElementsAre(t / "sitemap.xml", t / "en/sitemap.xml"));
  EXPECT_TRUE(log.skipped.empty()) << log.skipped.front();
}

// An index that really lists itself is still a cycle.
TEST(WalkPlacement, StillFindsAnIndexListingItself) {
  temp_dir t;
  fs::create_directories(t / "maps");
  write_file(t / "maps/index.xml",
             sitemapindex({"https://www.example.com/maps/index.xml",
                           "https://www.example.com/maps/a.xml"}));
  write_file(t / "maps/a.xml", urlset({"https://www.example.com/maps/1"}));
  const walk_log log = walk_index(t / "maps/index.xml");
  EXPECT_THAT(log.read, ElementsAre(t / "maps/index.xml", t / "maps/a.xml"));
  EXPECT_THAT(log.skipped,
              ElementsAre("https://www.example.com/maps/index.xml cycle"));
}

// `generate --from-dir public --out public/sitemaps` without telling where
// the sitemaps are served: the index lists its children at the site's root,
// where they are not.
void write_site(const temp_dir& t, std::string_view marker,
                const std::vector<std::string>& locs) {
  fs::create_directories(t / "public/sitemaps");
  fs::create_directories(t / "public/about");
  write_file(t / ("public/" + std::string(marker)),
             marker == "robots.txt" ? "User-agent: *\nAllow: /\n"
                                    : "<!doctype html><title>Home</title>\n");
  write_file(t / "public/about/index.html",
             "<!doctype html><title>About</title>\n");
  write_file(t / "public/sitemaps/sitemap.xml", sitemapindex(locs));
  write_file(
      t / "public/sitemaps/sitemap-1.xml",
      urlset({"https://www.example.com/", "https://www.example.com/about/"}));
  write_file(t / "public/sitemaps/sitemap-2.xml",
             urlset({"https://www.example.com/contact/"}));
}

TEST(WalkPlacement, TellsChildrenListedAtTheRootButServedBesideTheIndex) {
  for (const char* marker : {"index.html", "robots.txt"}) {
    temp_dir t;
    write_site(t, marker,
               {"https://www.example.com/sitemap-1.xml",
                "https://www.example.com/sitemap-2.xml"});
    const walk_log log = walk_index(t / "public/sitemaps/sitemap.xml");
    // Read from beside the index, for what they hold ...
    EXPECT_THAT(log.read, ElementsAre(t / "public/sitemaps/sitemap.xml",
                                      t / "public/sitemaps/sitemap-1.xml",
                                      t / "public/sitemaps/sitemap-2.xml"))
        << marker;
    // ... and told as not where the index says.
    ASSERT_EQ(log.misplaced.size(), 2u) << marker;
    const walk_misplaced& m = log.misplaced[0].second;
    EXPECT_EQ(log.misplaced[0].first, "https://www.example.com/sitemap-1.xml");
    EXPECT_EQ(m.site_root, t / "public/");
    EXPECT_EQ(m.marker, marker);
    EXPECT_EQ(m.listed_path, t / "public/sitemap-1.xml");
    EXPECT_EQ(m.index_url, "https://www.example.com/sitemaps/sitemap.xml");
    EXPECT_EQ(m.served_at, "https://www.example.com/sitemaps/sitemap-1.xml");
  }
}

// The index's path below the site root becomes its URL's path, encoded.
TEST(WalkPlacement, EncodesTheIndexsFolderInItsUrl) {
  temp_dir t;
  fs::create_directories(t / "public/maps 100%");
  write_file(t / "public/robots.txt", "User-agent: *\nAllow: /\n");
  write_file(t / "public/maps 100%/index.xml",
             sitemapindex({"https://www.example.com/a.xml"}));
  write_file(t / "public/maps 100%/a.xml",
             urlset({"https://www.example.com/maps%20100%25/1"}));
  const walk_log log = walk_index(t / "public/maps 100%/index.xml");
  ASSERT_EQ(log.misplaced.size(), 1u);
  EXPECT_EQ(log.misplaced[0].second.index_url,
            "https://www.example.com/maps%20100%25/index.xml");
  EXPECT_EQ(log.misplaced[0].second.served_at,
            "https://www.example.com/maps%20100%25/a.xml");
}

TEST(WalkPlacement, AcceptsChildrenListedWhereTheSiteServesThem) {
  temp_dir t;
  write_site(t, "index.html",
             {"https://www.example.com/sitemaps/sitemap-1.xml",
              "https://www.example.com/sitemaps/sitemap-2.xml"});
  const walk_log log = walk_index(t / "public/sitemaps/sitemap.xml");
  EXPECT_EQ(log.read.size(), 3u);
  EXPECT_TRUE(log.misplaced.empty());
  EXPECT_TRUE(log.skipped.empty());
}

// A section with a home page of its own (public/blog/index.html) is not the
// site's root when its children's URLs say the directory above is.
TEST(WalkPlacement, TrustsChildrenWhoseImpliedRootIsMarked) {
  temp_dir t;
  fs::create_directories(t / "public/blog");
  write_file(t / "public/index.html", "<!doctype html><title>Home</title>\n");
  write_file(t / "public/blog/index.html",
             "<!doctype html><title>Blog</title>\n");
  write_file(t / "public/blog/sitemap_index.xml",
             sitemapindex({"https://www.example.com/blog/post-sitemap.xml"}));
  write_file(t / "public/blog/post-sitemap.xml",
             urlset({"https://www.example.com/blog/hello/"}));
  const walk_log log = walk_index(t / "public/blog/sitemap_index.xml");
  EXPECT_EQ(log.read.size(), 2u);
  EXPECT_TRUE(log.misplaced.empty());
}

// A site served under a path (GitHub Pages' https://user.github.io/project/):
// its root on disk holds index.html, and its index lists its children below
// /project/. The children are trusted; nothing is misplaced.
TEST(WalkPlacement, TrustsChildrenOfASiteServedUnderAPath) {
  temp_dir t;
  fs::create_directories(t / "public/en");
  write_file(t / "public/index.html", "<!doctype html><title>Home</title>\n");
  write_file(
      t / "public/sitemap.xml",
      sitemapindex({"https://user.github.io/project/en/sitemap.xml",
                    "https://user.github.io/project/sitemap-pages.xml"}));
  write_file(t / "public/en/sitemap.xml",
             urlset({"https://user.github.io/project/en/"}));
  write_file(t / "public/sitemap-pages.xml",
             urlset({"https://user.github.io/project/about/"}));
  const walk_log log = walk_index(t / "public/sitemap.xml");
  EXPECT_THAT(log.read,
              ElementsAre(t / "public/sitemap.xml", t / "public/en/sitemap.xml",
                          t / "public/sitemap-pages.xml"));
  EXPECT_TRUE(log.misplaced.empty());
  EXPECT_TRUE(log.skipped.empty());
}

// No robots.txt or index.html anywhere around: the children's URLs alone
// place the index, as they did (a folder of downloaded sitemaps).
TEST(WalkPlacement, KeepsTheChildrensPlacementWithoutASiteRoot) {
  temp_dir t;
  fs::create_directories(t / "download");
  write_file(t / "download/sitemap_index.xml",
             sitemapindex({"https://www.example.com/blog/a.xml",
                           "https://www.example.com/blog/b.xml"}));
  write_file(t / "download/a.xml", urlset({"https://www.example.com/blog/1"}));
  write_file(t / "download/b.xml", urlset({"https://www.example.com/blog/2"}));
  const detail::local_placement p =
      detail::place_local_index(t / "download/sitemap_index.xml",
                                {{"https://www.example.com/blog/a.xml", 3, 1},
                                 {"https://www.example.com/blog/b.xml", 4, 1}});
  EXPECT_EQ(p.index_url.href(),
            "https://www.example.com/blog/sitemap_index.xml");
  EXPECT_TRUE(p.by_children.empty());
  EXPECT_TRUE(p.site_root.empty());
  const walk_log log = walk_index(t / "download/sitemap_index.xml");
  EXPECT_EQ(log.read.size(), 3u);
  EXPECT_TRUE(log.misplaced.empty());
}

// A child missing everywhere is child_not_found, and the message says how
// the index was placed.
TEST(WalkPlacement, SaysTheSiteRootWhenAChildIsMissing) {
  temp_dir t;
  write_site(t, "robots.txt",
             {"https://www.example.com/sitemap-1.xml",
              "https://www.example.com/sitemap-9.xml"});
  const walk_log log = walk_index(t / "public/sitemaps/sitemap.xml");
  ASSERT_EQ(log.skips.size(), 1u);
  EXPECT_EQ(log.skips[0].reason, walk_skip_reason::child_not_found);
  EXPECT_THAT(log.skips[0].message,
              ::testing::HasSubstr("https://www.example.com/sitemaps/"
                                   "sitemap.xml, below " +
                                   t / "public/"));
}

}  // namespace
}  // namespace sitemill
