// Conformance: for every file of the shared fixtures (../shared/conformance,
// described in its README.md), sitemill's XSD verdict agrees with xmllint's
// (VALIDATION.txt), and the protocol problems the XSD cannot see are
// reported. The MIT and Apache-2.0 files are copied under
// tests/data/conformance (see NOTICE.md there); the www-sitemap-xml files
// (Artistic/GPL) are read from ../shared and skipped, visibly, without it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "parser_support.h"
#include "sitemill/parse/sitemap_parser.h"

namespace sitemill {
namespace {

namespace fs = std::filesystem;
using testing::parse_run;

const fs::path local_dir =
    fs::path(SITEMILL_SOURCE_DIR) / "tests/data/conformance";
const fs::path shared_dir =
    fs::path(SITEMILL_SOURCE_DIR) / "../shared/conformance";

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The local copy, or the shared file; empty when neither is there.
fs::path locate(const std::string& relative) {
  if (fs::exists(local_dir / relative)) return local_dir / relative;
  if (fs::exists(shared_dir / relative)) return shared_dir / relative;
  return {};
}

parse_run parse_fixture(const fs::path& p) {
  parse_run run;
  testing::recorder r(run);
  auto summary = parse_file(p.string(), r);
  EXPECT_TRUE(summary.has_value()) << p;
  if (summary) run.summary = *summary;
  return run;
}

enum class verdict { valid, invalid, not_well_formed, feed, text };

struct validation_line {
  std::string file;  // relative, without "./"
  verdict expected;
};

std::vector<validation_line> validation() {
  std::vector<validation_line> out;
  std::istringstream in(read_file(local_dir / "VALIDATION.txt"));
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("./")) continue;
    const auto colon = line.find(" : ");
    validation_line v{line.substr(2, colon - 2), verdict::invalid};
    if (line.ends_with(": VALID")) {
      v.expected = verdict::valid;
    } else if (line.find(": INVALID") != std::string::npos) {
      v.expected = verdict::invalid;
    } else if (line.find("NOT WELL-FORMED") != std::string::npos) {
      v.expected = verdict::not_well_formed;
    } else if (line.find("not a sitemap root") != std::string::npos) {
      v.expected = verdict::feed;
    } else if (line.find("not XML; text") != std::string::npos) {
      v.expected = verdict::text;
    } else {
      ADD_FAILURE() << "unknown verdict in VALIDATION.txt: " << line;
    }
    out.push_back(v);
  }
  return out;
}

TEST(Conformance, AgreesWithXmllintOnEveryFile) {
  const auto lines = validation();
  ASSERT_EQ(lines.size(), 32u) << "VALIDATION.txt changed: update this test";
  std::vector<std::string> skipped;
  for (const auto& v : lines) {
    SCOPED_TRACE(v.file);
    const fs::path p = locate(v.file);
    if (p.empty()) {
      skipped.push_back(v.file);
      continue;
    }
    const parse_run run = parse_fixture(p);
    switch (v.expected) {
      case verdict::valid:
        EXPECT_TRUE(run.summary.schema_valid) << run.describe();
        EXPECT_TRUE(run.summary.complete);
        break;
      case verdict::invalid:
        EXPECT_FALSE(run.summary.schema_valid);
        EXPECT_TRUE(run.summary.complete) << run.describe();
        EXPECT_FALSE(run.diagnostics.empty());
        break;
      case verdict::not_well_formed:
        EXPECT_FALSE(run.summary.schema_valid);
        EXPECT_FALSE(run.summary.complete);
        EXPECT_TRUE(run.has("not-well-formed")) << run.describe();
        break;
      case verdict::feed:
        EXPECT_FALSE(run.summary.schema_valid);
        EXPECT_TRUE(run.summary.kind == document_kind::rss ||
                    run.summary.kind == document_kind::atom);
        break;
      case verdict::text:
        EXPECT_FALSE(run.summary.schema_valid);
        EXPECT_EQ(run.summary.kind, document_kind::text);
        break;
    }
  }
  if (!skipped.empty()) {
    GTEST_SKIP() << skipped.size()
                 << " www-sitemap-xml files (Artistic/GPL, not copied) need "
                 << shared_dir.lexically_normal()
                 << ", which is absent: their verdicts were not checked";
  }
}

TEST(Conformance, KeepsTheLocalCopiesIdenticalToTheSharedFiles) {
  if (!fs::exists(shared_dir)) {
    GTEST_SKIP() << shared_dir.lexically_normal()
                 << " is absent: the copies cannot be compared";
  }
  std::size_t compared = 0;
  for (const auto& e : fs::recursive_directory_iterator(local_dir)) {
    if (!e.is_regular_file() || e.path().filename() == "NOTICE.md") continue;
    const fs::path relative = fs::relative(e.path(), local_dir);
    EXPECT_EQ(read_file(e.path()), read_file(shared_dir / relative))
        << relative;
    ++compared;
  }
  EXPECT_GE(compared, 30u);
}

// What each fixture must yield beyond the verdict: the kind, the entries,
// and the protocol problems (docs/protocol.md 6.D) the XSD cannot see.
struct fixture {
  std::string file;
  document_kind kind;
  std::uint64_t entries;
  bool gzipped;
  std::map<std::string, std::size_t> codes;  // exact counts; others absent
};

std::vector<fixture> fixtures() {
  using k = document_kind;
  return {
      {"codeception-sitemap-module/sitemap.xml", k::urlset, 5, false, {}},
      {"codeception-sitemap-module/sitemap_index.xml",
       k::sitemapindex,
       2,
       false,
       {}},
      // Feeds: URLs from <link> (a guid with isPermaLink="false" is not
      // one), dates in RFC 822.
      {"crawler-commons/rss/feed.rss",
       k::rss,
       3,
       false,
       {{"feed-item-no-link", 1}}},
      {"crawler-commons/rss/xmlRss_pubDate.xml",
       k::rss,
       7,
       false,
       {{"feed-date-invalid", 2}}},
      {"crawler-commons/sitemaps/atom.xml", k::atom, 1, false, {}},
      // Extensions.
      {"crawler-commons/sitemaps/extension/"
       "hebdenbridgetimes-articles-sitemap.xml",
       k::urlset,
       74,
       false,
       {{"element-order", 148},
        {"extension-unknown-namespace", 1},
        {"xsd-extension", 6}}},
      {"crawler-commons/sitemaps/extension/pagemaps-sitemap.xml",
       k::urlset,
       2,
       false,
       {{"extension-unknown-namespace", 1}}},
      // News of 2017: older than two days, whenever the test runs.
      {"crawler-commons/sitemaps/extension/shinpaideshou-news-sitemap.xml",
       k::urlset,
       3,
       false,
       {{"news-too-old", 3}}},
      {"crawler-commons/sitemaps/extension/sitemap-images.xml",
       k::urlset,
       1,
       false,
       {}},
      {"crawler-commons/sitemaps/extension/sitemap-links.xml",
       k::urlset,
       3,
       false,
       {}},
      {"crawler-commons/sitemaps/extension/sitemap-mobile.xml",
       k::urlset,
       3,
       false,
       {{"extension-unknown-namespace", 1}}},
      {"crawler-commons/sitemaps/extension/sitemap-news.xml",
       k::urlset,
       2,
       false,
       {{"xsd-extension", 1}, {"news-too-old", 2}}},
      {"crawler-commons/sitemaps/extension/sitemap-videos-tvshow.xml",
       k::urlset,
       1,
       false,
       {{"element-order", 1}, {"xsd-extension", 1}}},
      {"crawler-commons/sitemaps/extension/sitemap-videos.xml",
       k::urlset,
       3,
       false,
       {}},
      // E9, E21: a legacy namespace and padded values, read leniently.
      {"crawler-commons/sitemaps/sitemap.badns.xml",
       k::urlset,
       2,
       false,
       {{"namespace-legacy", 1}, {"changefreq-padded", 1}}},
      // E27: bare URLs in <sitemap>, extracted as crawler-commons does.
      {"crawler-commons/sitemaps/sitemap.index.xml",
       k::sitemapindex,
       15,
       false,
       {{"missing-loc", 15}}},
      {"crawler-commons/sitemaps/sitemap.ns.xml", k::urlset, 2, false, {}},
      // E29, E30: gzip sniffed by content; text with and without a BOM.
      {"crawler-commons/sitemaps/sitemap.txt", k::text, 2, false, {}},
      {"crawler-commons/sitemaps/sitemap.txt.gz", k::text, 5, true, {}},
      {"crawler-commons/sitemaps/sitemap-with-bom.txt", k::text, 2, false, {}},
      {"crawler-commons/sitemaps/do-not-visit.txt", k::text, 1, false, {}},
      {"crawler-commons/sitemaps/xmlSitemap.gz", k::urlset, 5, true, {}},
      // E23: <foo> in the sitemap namespace.
      {"sitemap.js/alltags-index.cdata.xml",
       k::sitemapindex,
       2,
       false,
       {{"unknown-element", 1}}},
      {"sitemap.js/alltags-index.xml", k::sitemapindex, 2, false, {}},
      // E8: CDATA; the loc "http://example.com/&><'\"/" is XSD-valid but
      // holds characters a URI should escape.
      // One page lists two alternates but not itself; news of 2008.
      {"sitemap.js/alltags.cdata.xml",
       k::urlset,
       7,
       false,
       {{"loc-unsafe-char", 1}, {"hreflang-no-self", 1}, {"news-too-old", 1}}},
      {"sitemap.js/alltags.xml",
       k::urlset,
       7,
       false,
       {{"loc-unsafe-char", 1}, {"hreflang-no-self", 1}, {"news-too-old", 1}}},
      {"sitemap.js/bad-tag-index.xml",
       k::sitemapindex,
       2,
       false,
       {{"unknown-element", 1}}},
      {"sitemap.js/bad-tag-sitemap.xml",
       k::urlset,
       7,
       false,
       {{"unknown-element", 1},
        {"loc-unsafe-char", 1},
        {"hreflang-no-self", 1},
        {"news-too-old", 1}}},
      // E7: a raw '<'; the entries before it are kept.
      {"sitemap.js/index-unescaped-lt.xml",
       k::sitemapindex,
       1,
       false,
       {{"not-well-formed", 1}}},
      {"sitemap.js/unescaped-lt.xml",
       k::urlset,
       0,
       false,
       {{"not-well-formed", 1}, {"loc-unsafe-char", 1}}},
      {"sitemap.js/video.xml", k::urlset, 1, false, {}},
      {"sitemap.js/cli-urls.txt", k::text, 2, false, {}},
      {"sitemap.js/cli-urls-2.txt", k::text, 2, false, {}},
      {"sitemap.js/short-list.txt", k::text, 1000, false, {}},
      // 100,000 lines: twice the limit, all read and counted.
      {"sitemap.js/medium-list.txt.gz",
       k::text,
       100'000,
       true,
       {{"too-many-entries", 1}}},
      // E15, E16: lastmod "2014" (W3C-valid, XSD-invalid), "Never".
      {"www-sitemap-xml/sitemap-google.xml",
       k::urlset,
       2,
       false,
       {{"lastmod-not-xsd", 2},
        {"changefreq-case", 2},
        {"extension-unknown-namespace", 1},
        {"xsd-extension", 6}}},
      {"www-sitemap-xml/sitemap.xml",
       k::urlset,
       9,
       false,
       {{"changefreq-case", 7},
        {"lastmod-no-zone", 2},
        {"lastmod-not-xsd", 1},
        {"loc-fragment", 1}}},
      // E26: a <urlset> of <sitemap> entries.
      {"www-sitemap-xml/sitemapindex.xml",
       k::urlset,
       0,
       false,
       {{"wrong-child", 9}, {"no-entries", 1}}},
  };
}

TEST(Conformance, ReportsWhatTheSchemaCannotSee) {
  std::size_t skipped = 0;
  for (const auto& f : fixtures()) {
    SCOPED_TRACE(f.file);
    const fs::path p = locate(f.file);
    if (p.empty()) {
      ++skipped;
      continue;
    }
    const parse_run run = parse_fixture(p);
    EXPECT_EQ(run.summary.kind, f.kind);
    EXPECT_EQ(run.summary.entries, f.entries);
    EXPECT_EQ(run.entries.size(), f.entries);
    EXPECT_EQ(run.summary.gzipped, f.gzipped);
    std::map<std::string, std::size_t> counts;
    for (const auto& d : run.diagnostics) ++counts[d.code];
    EXPECT_EQ(counts, f.codes) << run.describe().substr(0, 4000);
  }
  if (skipped > 0) {
    GTEST_SKIP() << skipped << " www-sitemap-xml files need "
                 << shared_dir.lexically_normal() << ", which is absent";
  }
}

TEST(Conformance, ExtractsTheBareUrlsOfAnIndexWithoutLocs) {
  // crawler-commons reads 15 sitemaps from this file, "&amp;" decoded.
  const parse_run run =
      parse_fixture(local_dir / "crawler-commons/sitemaps/sitemap.index.xml");
  ASSERT_EQ(run.entries.size(), 15u);
  EXPECT_EQ(run.entries[0].loc.text,
            "https://example.com/sitemap.jss?portalCode=10260&lang=en");
  EXPECT_EQ(run.entries[0].loc.line, 3u);
}

TEST(Conformance, ReadsPrefixedAndLegacyNamespacesAlike) {
  const parse_run ns =
      parse_fixture(local_dir / "crawler-commons/sitemaps/sitemap.ns.xml");
  const parse_run badns =
      parse_fixture(local_dir / "crawler-commons/sitemaps/sitemap.badns.xml");
  EXPECT_EQ(badns.locs(),
            (std::vector<std::string>{"http://www.example.com/1",
                                      "http://www.example.com/2"}));
  EXPECT_EQ(badns.entries[1].changefreq.text, "daily");
  EXPECT_EQ(ns.entries.size(), 2u);
  EXPECT_TRUE(ns.summary.schema_valid);
}

}  // namespace
}  // namespace sitemill
