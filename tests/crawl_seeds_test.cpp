// The crawler's seed sitemaps (crawl_options::seed_sitemaps) end to end, on
// loopback servers: they are read through the one walker, so its rules hold
// (issue 29: an index that listed itself was fetched 1,001 times, the
// children after it were never read, and a child on another origin would
// have been fetched).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "sitemill/crawl/crawl_source.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

struct seeded_crawl {
  std::vector<std::string> listed;
  std::map<std::string, std::string> skipped;
  std::string error;
};

seeded_crawl crawl_from(const http_server& site) {
  crawl_options o;
  o.start_url = site.url("/");
  o.seed_sitemaps = true;
  o.retry.max_attempts = 1;
  seeded_crawl out;
  auto reader = crawl_source(o)->open(source_context{});
  if (!reader) {
    out.error = reader.err().message;
    return out;
  }
  input_record r;
  while ((*reader)->next(r)) {
    if (r.skipped.empty())
      out.listed.emplace_back(r.loc);
    else
      out.skipped.emplace(std::string(r.loc), std::string(r.skipped));
  }
  out.error = (*reader)->error();
  return out;
}

std::string entries(std::string_view root, std::string_view element,
                    std::initializer_list<std::string> locs) {
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<" +
                    std::string(root) +
                    " xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (const std::string& loc : locs)
    xml += "  <" + std::string(element) + "><loc>" + loc + "</loc></" +
           std::string(element) + ">\n";
  return xml + "</" + std::string(root) + ">\n";
}
std::string urlset(std::initializer_list<std::string> locs) {
  return entries("urlset", "url", locs);
}
std::string sitemap_index(std::initializer_list<std::string> locs) {
  return entries("sitemapindex", "sitemap", locs);
}

http_reply xml(std::string body) {
  return text_reply(200, std::move(body), "application/xml");
}
http_reply page() {
  return text_reply(200, "<!doctype html><title>a page</title>", "text/html");
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(CrawlSeeds, AnIndexThatListsItselfIsReadOnceAndItsOtherChildrenFollow) {
  http_server a, b;
  a.route("/robots.txt", text_reply(200, "User-agent: *\nAllow: /\nSitemap: " +
                                             a.url("/maps/index.xml") + "\n"));
  a.route("/maps/index.xml",
          xml(sitemap_index({a.url("/maps/index.xml"), a.url("/maps/pages.xml"),
                             b.url("/maps/pages.xml")})));
  a.route("/maps/pages.xml",
          xml(urlset({a.url("/orphan-1"), a.url("/orphan-2")})));
  a.route("/", page());
  a.route("/orphan-1", page());
  a.route("/orphan-2", page());
  b.route("/maps/pages.xml", xml(urlset({b.url("/elsewhere")})));

  const seeded_crawl got = crawl_from(a);
  ASSERT_EQ(got.error, "");
  EXPECT_EQ(a.count("/maps/index.xml"), 1u);
  EXPECT_EQ(a.count("/maps/pages.xml"), 1u);
  EXPECT_TRUE(has(got.listed, a.url("/orphan-1")));
  EXPECT_TRUE(has(got.listed, a.url("/orphan-2")));
  EXPECT_TRUE(b.requests().empty()) << b.requests().front().target;
  ASSERT_EQ(got.skipped.count(b.url("/maps/pages.xml")), 1u);
  EXPECT_EQ(got.skipped.at(b.url("/maps/pages.xml")),
            "seed sitemap not followed: on another host than its index");
  ASSERT_EQ(got.skipped.count(a.url("/maps/index.xml")), 1u);
  EXPECT_EQ(got.skipped.at(a.url("/maps/index.xml")),
            "seed sitemap not followed: an index cycle");
}

TEST(CrawlSeeds, ReadsGzippedSitemapsAndIndexesOfIndexes) {
  http_server a;
  a.route(
      "/robots.txt",
      text_reply(200,
                 "User-agent: *\nAllow: /\nSitemap: " + a.url("/maps/top.xml") +
                     "\nSitemap: " + a.url("/maps/flat.xml.gz") + "\n"));
  a.route("/maps/top.xml", xml(sitemap_index({a.url("/maps/mid.xml")})));
  a.route("/maps/mid.xml", xml(sitemap_index({a.url("/maps/leaf.xml")})));
  a.route("/maps/leaf.xml", xml(urlset({a.url("/deep")})));
  a.route("/maps/flat.xml.gz", text_reply(200, gzip(urlset({a.url("/zipped")})),
                                          "application/gzip"));
  a.route("/", page());
  a.route("/deep", page());
  a.route("/zipped", page());

  const seeded_crawl got = crawl_from(a);
  ASSERT_EQ(got.error, "");
  EXPECT_EQ(got.listed, (std::vector<std::string>{a.url("/"), a.url("/deep"),
                                                  a.url("/zipped")}));
  EXPECT_TRUE(got.skipped.empty());
}

// A sitemap that cannot be read is reported, and the seeding goes on.
TEST(CrawlSeeds, ReportsASitemapThatCannotBeRead) {
  http_server a;
  a.route("/robots.txt",
          text_reply(200, "User-agent: *\nAllow: /\nSitemap: " +
                              a.url("/maps/gone.xml") +
                              "\nSitemap: " + a.url("/maps/pages.xml") + "\n"));
  a.route("/maps/gone.xml", text_reply(404, "not here"));
  a.route("/maps/pages.xml", xml(urlset({a.url("/orphan")})));
  a.route("/", page());
  a.route("/orphan", page());

  const seeded_crawl got = crawl_from(a);
  ASSERT_EQ(got.error, "");
  EXPECT_TRUE(has(got.listed, a.url("/orphan")));
  EXPECT_EQ(got.skipped.at(a.url("/maps/gone.xml")),
            "seed sitemap not read: answered an HTTP error (404)");
}

// The seeds keep robots.txt's Crawl-delay, as the pages do: between
// robots.txt and each sitemap, and before the first page.
TEST(CrawlSeeds, KeepTheCrawlDelay) {
  http_server a;
  a.route("/robots.txt",
          text_reply(200, "User-agent: *\nCrawl-delay: 0.2\nSitemap: " +
                              a.url("/maps/one.xml") +
                              "\nSitemap: " + a.url("/maps/two.xml") + "\n"));
  a.route("/maps/one.xml", xml(urlset({a.url("/a")})));
  a.route("/maps/two.xml", xml(urlset({a.url("/b")})));
  a.route("/", page());
  a.route("/a", page());
  a.route("/b", page());

  const seeded_crawl got = crawl_from(a);
  ASSERT_EQ(got.error, "");
  EXPECT_EQ(got.listed.size(), 3u);
  const std::vector<recorded_request> log = a.requests();
  ASSERT_EQ(log.size(), 6u);
  for (std::size_t i = 1; i < log.size(); ++i)
    EXPECT_GE(log[i].received - log[i - 1].received,
              std::chrono::milliseconds(150))
        << log[i - 1].target << " then " << log[i].target;
}

}  // namespace
}  // namespace sitemill::testing
