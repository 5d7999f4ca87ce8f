// crawl_urls() (crawl/crawl_pages.h): the crawler as a library that tells
// each URL with its verdict and the page whose link found it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <string>

#include "sitemill/crawl/crawl_pages.h"
#include "support/http_server.h"

namespace sitemill::testing {
namespace {

http_reply html(std::string body) {
  return text_reply(200, std::move(body), "text/html; charset=utf-8");
}

// crawl_urls(): each URL with its verdict, the page whose link found it
// (the first in breadth-first order) and a redirect's or canonical's
// target.
TEST(CrawlUrls, TellsEachUrlWithThePageThatLinkedToIt) {
  http_server server;
  server.route("/robots.txt",
               text_reply(200, "User-agent: *\nDisallow: /private\n"));
  server.route("/", html("<a href=\"/a\">a</a> <a href=\"/moved\">m</a> "
                         "<a href=\"/private\">p</a>"));
  server.route("/a", html("<a href=\"/b\">b</a><a href=\"/\">home</a>"));
  server.route("/b", html("<link rel=canonical href=\"/a\"><a href=/a>a</a>"));
  server.redirect("/moved", "/c");
  server.route("/c", html("c"));
  crawl_options o;
  o.start_url = server.url("/");
  o.retry.max_attempts = 1;
  struct seen {
    std::string skipped, referrer, target;
  };
  std::map<std::string, seen> got;
  const crawl_urls_result r = crawl_urls(o, [&](const crawled_url& u) {
    got[std::string(u.url)] = {std::string(u.skipped), std::string(u.referrer),
                               std::string(u.target)};
  });
  EXPECT_EQ(r.error, "");
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[server.url("/")].referrer, "");
  EXPECT_EQ(got[server.url("/a")].referrer, server.url("/"));
  EXPECT_EQ(got[server.url("/b")].referrer, server.url("/a"));
  EXPECT_EQ(got[server.url("/b")].skipped, "canonical");
  EXPECT_EQ(got[server.url("/b")].target, server.url("/a"));
  EXPECT_EQ(got[server.url("/moved")].skipped, "redirect");
  EXPECT_EQ(got[server.url("/moved")].target, server.url("/c"));
  EXPECT_EQ(got[server.url("/c")].referrer, server.url("/moved"));
  EXPECT_EQ(got[server.url("/private")].skipped, "robots");
  EXPECT_EQ(got[server.url("/private")].referrer, server.url("/"));
}

// A stop ends the crawl, which says it was cancelled.
TEST(CrawlUrls, EndsWhenStopped) {
  http_server server;
  // robots.txt never comes in time: only the stop ends the crawl.
  http_reply slow = text_reply(404, "none");
  slow.delay = std::chrono::minutes(10);
  server.route("/robots.txt", slow);
  crawl_options o;
  o.start_url = server.url("/");
  std::atomic<bool> stop{true};
  const crawl_urls_result r = crawl_urls(
      o, [](const crawled_url&) {}, &stop);
  EXPECT_EQ(r.error, "cancelled");
}

TEST(CrawlUrls, RefusesAStartThatIsNotAUrl) {
  crawl_options o;
  o.start_url = "not a url";
  bool told = false;
  const crawl_urls_result r =
      crawl_urls(o, [&](const crawled_url&) { told = true; });
  EXPECT_EQ(r.error, "`start_url` not a url: not an absolute http(s) URL");
  EXPECT_FALSE(told);
}

}  // namespace
}  // namespace sitemill::testing
