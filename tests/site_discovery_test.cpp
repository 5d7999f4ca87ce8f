// Finding a site's sitemaps (walk/site.h): robots.txt's Sitemap: lines
// first; when it names none, the common locations, where only an answer the
// parser reads as a sitemap counts (an HTML soft 404 does not). The same
// discovery seeds the crawler (crawl_seeds.cpp), and crawl_urls() tells each
// URL with the page that linked to it (crawl_pages.h).
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "sitemill/crawl/crawl_source.h"
#include "sitemill/walk/site.h"
#include "sitemill/walk/walker.h"
#include "support/http_server.h"

namespace sitemill::testing {
namespace {

class null_observer final : public walk_observer {
 public:
  parse_handler& on_open(const walk_document&) override { return handler_; }

 private:
  parse_handler handler_;
};

struct discovered {
  site_sitemaps found;
  std::vector<std::string> trace;
};

discovered discover(const http_server& server) {
  discovered out;
  walk_options w;
  w.trace = [&](std::string_view line) { out.trace.emplace_back(line); };
  null_observer observer;
  sitemap_walker walker(w, observer);
  normalized_url site;
  EXPECT_TRUE(names_site(server.url("/"), site));
  EXPECT_FALSE(walker.admit(site_robots_document(site)).has_value());
  out.found = find_site_sitemaps(walker, site, server.url("/"));
  return out;
}

std::string urlset(std::initializer_list<std::string> locs) {
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<?xml-stylesheet type=\"text/xsl\" href=\"/sitemap.xsl\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (const std::string& loc : locs)
    xml += "<url><loc>" + loc + "</loc></url>\n";
  return xml + "</urlset>\n";
}
http_reply xml(std::string body) {
  return text_reply(200, std::move(body), "application/xml");
}
http_reply html(std::string body) {
  return text_reply(200, std::move(body), "text/html; charset=utf-8");
}
const std::string soft_404 =
    "<!DOCTYPE html>\n<html><head><title>Page not found</title></head>"
    "<body><h1>Sorry</h1><a href=\"/\">home</a></body></html>\n";

std::vector<std::string> urls(const std::vector<walk_link>& links) {
  std::vector<std::string> out;
  for (const walk_link& l : links) out.push_back(l.url);
  return out;
}

TEST(SiteDiscovery, FindsASitemapAtACommonLocationWhenRobotsTxtNamesNone) {
  for (const http_reply& robots :
       {text_reply(404, "none"),
        text_reply(200, "User-agent: *\nAllow: /\n")}) {
    http_server server;
    server.route("/robots.txt", robots);
    server.route("/sitemap_index.xml",
                 xml(urlset({server.url("/a"), server.url("/b")})));
    server.route("/sitemap.txt", text_reply(200, server.url("/a") + "\n"));
    const discovered d = discover(server);
    EXPECT_TRUE(d.found.fallback);
    EXPECT_EQ(urls(d.found.links),
              (std::vector<std::string>{server.url("/sitemap_index.xml"),
                                        server.url("/sitemap.txt")}));
    ASSERT_EQ(d.found.probes.size(), std::size(common_sitemap_paths));
    EXPECT_EQ(d.found.probes[0].url, server.url("/sitemap.xml"));
    EXPECT_EQ(d.found.probes[0].status, 404);
    EXPECT_FALSE(d.found.probes[0].found);
    EXPECT_TRUE(d.found.probes[1].found);
    EXPECT_EQ(d.found.links[0].listing.source, server.url("/robots.txt"));
    for (const diagnostic& g : d.found.diagnostics)
      EXPECT_NE(g.level, severity::error) << g.message;
  }
}

TEST(SiteDiscovery, AnHtmlSoft404IsNotASitemap) {
  http_server server;
  server.route("/robots.txt", text_reply(404, "none"));
  server.fallback([&](const recorded_request&) { return html(soft_404); });
  // Text served with 200 is a text sitemap only when its first line is a URL.
  server.route("/sitemap.txt", text_reply(200, "Not found\n"));
  const discovered d = discover(server);
  EXPECT_TRUE(d.found.links.empty());
  for (const sitemap_probe& p : d.found.probes) {
    EXPECT_EQ(p.status, 200) << p.url;
    EXPECT_FALSE(p.found) << p.url;
  }
  EXPECT_EQ(d.found.probes[0].verdict,
            "an HTML page (a soft 404), not a sitemap");
  EXPECT_EQ(d.found.probes.back().verdict, "not a sitemap");
  std::size_t errors = 0;
  for (const diagnostic& g : d.found.diagnostics)
    if (g.code == "no-sitemap-found") {
      ++errors;
      EXPECT_EQ(g.level, severity::error);
      EXPECT_NE(g.message.find("soft 404"), std::string::npos) << g.message;
    }
  EXPECT_EQ(errors, 1u);
}

TEST(SiteDiscovery, PrefersRobotsTxtLinesAndProbesNothing) {
  http_server server;
  server.route("/robots.txt",
               text_reply(200, "Sitemap: " + server.url("/maps/a.xml") + "\n"));
  server.route("/maps/a.xml", xml(urlset({server.url("/a")})));
  server.route("/sitemap.xml", xml(urlset({server.url("/b")})));
  const discovered d = discover(server);
  EXPECT_FALSE(d.found.fallback);
  EXPECT_EQ(urls(d.found.links),
            std::vector<std::string>{server.url("/maps/a.xml")});
  EXPECT_TRUE(d.found.probes.empty());
  for (std::string_view path : common_sitemap_paths)
    EXPECT_EQ(server.count(path), 0u) << path;
}

TEST(SiteDiscovery, ALocationRedirectingToOneFoundIsTheSameSitemap) {
  http_server server;
  server.route("/robots.txt", text_reply(404, "none"));
  server.redirect("/sitemap.xml", "/sitemap_index.xml");
  server.redirect("/wp-sitemap.xml", "/sitemap_index.xml");
  server.route("/sitemap_index.xml", xml(urlset({server.url("/a")})));
  const discovered d = discover(server);
  EXPECT_EQ(urls(d.found.links),
            std::vector<std::string>{server.url("/sitemap_index.xml")});
  EXPECT_EQ(d.found.links[0].source, server.url("/sitemap.xml"));
  EXPECT_EQ(d.found.probes[1].verdict,
            "the same as " + server.url("/sitemap.xml"));
}

TEST(SiteDiscovery, TellsEachLocationLookedAtToTheTrace) {
  http_server server;
  server.route("/robots.txt", text_reply(404, "none"));
  server.route("/sitemap.xml.gz", xml(urlset({server.url("/a")})));
  const discovered d = discover(server);
  std::size_t told = 0;
  for (const std::string& line : d.trace)
    if (line.starts_with("sitemap location ")) ++told;
  EXPECT_EQ(told, std::size(common_sitemap_paths));
  bool found_line = false;
  for (const std::string& line : d.trace)
    found_line = found_line || line == "sitemap location " +
                                           server.url("/sitemap.xml.gz") +
                                           ": a sitemap (urlset)";
  EXPECT_TRUE(found_line);
}

// A large sitemap at a common location is looked at, not downloaded twice
// whole: the look ends after sitemap_probe_bytes.
TEST(SiteDiscovery, LooksAtALocationWithoutReadingItWhole) {
  http_server server;
  server.route("/robots.txt", text_reply(404, "none"));
  http_reply big = xml(urlset({server.url("/a")}));
  big.padding = std::uint64_t{256} << 20;  // never held, written as read
  server.route("/sitemap.xml", big);
  const discovered d = discover(server);
  ASSERT_EQ(d.found.links.size(), 1u);
  // What the socket buffers took before the look ended, not the 256 MiB.
  EXPECT_LT(server.body_bytes_sent(), std::uint64_t{64} << 20);
}

// --seed-sitemaps with a robots.txt that names none: the crawl seeds from
// the sitemap found at a common location, so a page no link reaches is
// listed.
TEST(SiteDiscovery, SeedsTheCrawlFromACommonLocation) {
  http_server server;
  server.route("/robots.txt", text_reply(200, "User-agent: *\nAllow: /\n"));
  server.route("/", html("<!doctype html><title>home</title>"));
  server.route("/unlinked", html("<!doctype html><title>unlinked</title>"));
  server.route("/sitemap_index.xml", xml(urlset({server.url("/unlinked")})));
  crawl_options o;
  o.start_url = server.url("/");
  o.seed_sitemaps = true;
  o.retry.max_attempts = 1;
  std::vector<std::string> listed;
  auto reader = crawl_source(o)->open(source_context{});
  ASSERT_TRUE(reader);
  input_record r;
  while ((*reader)->next(r))
    if (r.skipped.empty()) listed.emplace_back(r.loc);
  EXPECT_EQ((*reader)->error(), "");
  EXPECT_EQ(listed, (std::vector<std::string>{server.url("/"),
                                              server.url("/unlinked")}));
}

}  // namespace
}  // namespace sitemill::testing
