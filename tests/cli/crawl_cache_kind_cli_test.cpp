// `generate --from-crawl --state` remembers each page's validators and what
// the crawl made of it (crawl/crawl_cache.h), to ask again conditionally and
// take a 304's facts from there. What a page says depends on how it was
// crawled: rendered, its script's links are in it; logged in, the members'
// links. A crawl of another kind (rendering on or off, other credentials,
// another user agent) must not take the facts of the last one: its pages are
// fetched in full, with a warning that says why. The site here answers a
// matching If-None-Match with 304, as a real one does, whatever else the
// request carries; so a crawl that reused the other kind's validators would
// list the other kind's links.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr std::string_view cookie_value = "member-5c0a7e";

// Every page has an ETag that does not change (its HTML does not), so a
// conditional request is answered 304.
class etag_site {
 public:
  etag_site() {
    server_.fallback([](const recorded_request& r) { return answer(r); });
  }
  std::string url(std::string_view path = "/") const {
    return server_.url(path);
  }
  // How many requests for `path` carried If-None-Match, and how many did
  // not, since the last call.
  std::pair<std::size_t, std::size_t> asked(std::string_view path) {
    const auto all = server_.requests();
    std::size_t conditional = 0, plain = 0;
    for (std::size_t i = seen_; i < all.size(); ++i) {
      if (all[i].path() != path) continue;
      (all[i].header("If-None-Match") ? conditional : plain) += 1;
    }
    return {conditional, plain};
  }
  void mark() { seen_ = server_.requests().size(); }

 private:
  static http_reply answer(const recorded_request& r) {
    const std::string_view path = r.path();
    if (path == "/robots.txt") return text_reply(200, "User-agent: *\nAllow: /\n");
    const std::string etag = "\"v1-" + std::string(path) + "\"";
    if (r.header("If-None-Match").value_or("") == etag) {
      http_reply not_modified;
      not_modified.status = 304;
      not_modified.headers.push_back({"ETag", etag});
      return not_modified;
    }
    std::string body;
    if (path == "/") {
      const auto cookie = r.header("Cookie");
      const bool member =
          cookie && cookie->find(std::string(cookie_value)) != std::string::npos;
      // A link in the HTML, one a script adds, one for members only.
      body =
          "<!doctype html><html><head><title>Home</title><script>"
          "document.addEventListener('DOMContentLoaded', () => {"
          "const a = document.createElement('a'); a.href = '/from-script';"
          "a.textContent = 'made by script'; document.body.appendChild(a);"
          "});</script></head><body><a href=/plain>plain</a>" +
          std::string(member ? "<a href=/members>members</a>" : "") +
          "</body></html>";
    } else if (path == "/plain" || path == "/from-script" ||
               path == "/members") {
      body = "<!doctype html><html><head><title>Page</title></head><body>"
             "<p>A page.</p></body></html>";
    } else {
      return text_reply(404, "not found");
    }
    http_reply ok = text_reply(200, body, "text/html; charset=utf-8");
    ok.headers.push_back({"ETag", etag});
    return ok;
  }

  http_server server_;
  std::size_t seen_ = 0;
};

std::vector<std::string> listed(const std::string& sitemap) {
  std::ifstream in(sitemap);
  const std::string xml((std::istreambuf_iterator<char>(in)), {});
  std::vector<std::string> locs;
  for (std::size_t at = xml.find("<loc>"); at != std::string::npos;
       at = xml.find("<loc>", at + 5)) {
    const std::size_t end = xml.find("</loc>", at);
    locs.push_back(xml.substr(at + 5, end - at - 5));
  }
  std::sort(locs.begin(), locs.end());
  return locs;
}

std::vector<std::string> crawl_args(const etag_site& site, const temp_dir& t,
                                    std::vector<std::string> more) {
  std::vector<std::string> args = {
      "generate", "--from-crawl", site.url("/"), "--base-url", site.url("/"),
      "--out", t / "out", "--state", t / "state.db", "--no-gzip"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(CrawlCacheKindCli, ARenderedCrawlDoesNotTakeThePlainCrawlsFacts) {
  etag_site site;
  temp_dir t;
  const run_result plain = run_sitemill(crawl_args(site, t, {}));
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_THAT(listed(t / "out/sitemap.xml"),
              ElementsAre(site.url("/"), site.url("/plain")));

  // Rendered, with the same state: "/" is fetched in full (the plain
  // crawl's validators would get a 304 and its facts, without the script's
  // link), and the warning says why.
  site.mark();
  const run_result rendered = run_sitemill(crawl_args(site, t, {"--render"}));
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  EXPECT_THAT(listed(t / "out/sitemap.xml"),
              ElementsAre(site.url("/"), site.url("/from-script"),
                          site.url("/plain")));
  EXPECT_EQ(site.asked("/"), std::make_pair(std::size_t{0}, std::size_t{1}));
  EXPECT_EQ(site.asked("/plain").first, 0u);
  EXPECT_THAT(rendered.err, HasSubstr("rendering was off, is on"));
  EXPECT_THAT(rendered.err, HasSubstr("fetched in full"));

  // Rendered again: of the same kind, so asked conditionally, and the 304
  // takes the rendered crawl's facts; no warning.
  site.mark();
  const run_result again = run_sitemill(crawl_args(site, t, {"--render"}));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_THAT(listed(t / "out/sitemap.xml"),
              ElementsAre(site.url("/"), site.url("/from-script"),
                          site.url("/plain")));
  EXPECT_EQ(site.asked("/"), std::make_pair(std::size_t{1}, std::size_t{0}));
  EXPECT_THAT(again.err, Not(HasSubstr("other options")));

  // And plain once more: the rendered crawl's facts are not its either.
  site.mark();
  const run_result back = run_sitemill(crawl_args(site, t, {}));
  ASSERT_EQ(back.exit_code, 0) << back.err;
  EXPECT_THAT(listed(t / "out/sitemap.xml"),
              ElementsAre(site.url("/"), site.url("/plain")));
  EXPECT_THAT(back.err, HasSubstr("rendering was on, is off"));
}

TEST(CrawlCacheKindCli, ALoggedInCrawlDoesNotTakeTheAnonymousCrawlsFacts) {
  etag_site site;
  temp_dir t;
  const run_result anonymous = run_sitemill(crawl_args(site, t, {}));
  ASSERT_EQ(anonymous.exit_code, 0) << anonymous.err;
  EXPECT_THAT(listed(t / "out/sitemap.xml"),
              ElementsAre(site.url("/"), site.url("/plain")));

  const std::vector<std::string> login = {
      "--cookie", "session=" + std::string(cookie_value)};
  site.mark();
  const run_result member = run_sitemill(crawl_args(site, t, login));
  ASSERT_EQ(member.exit_code, 0) << member.err;
  EXPECT_THAT(listed(t / "out/sitemap.xml"),
              ElementsAre(site.url("/"), site.url("/members"),
                          site.url("/plain")));
  EXPECT_EQ(site.asked("/").first, 0u);
  EXPECT_THAT(member.err, HasSubstr("no credentials were sent, some are"));

  // The same login again: asked conditionally. Another user agent: not.
  site.mark();
  const run_result same = run_sitemill(crawl_args(site, t, login));
  ASSERT_EQ(same.exit_code, 0) << same.err;
  EXPECT_EQ(site.asked("/"), std::make_pair(std::size_t{1}, std::size_t{0}));
  std::vector<std::string> other_agent = login;
  other_agent.insert(other_agent.end(), {"--user-agent", "OtherBot/2.0"});
  site.mark();
  const run_result agent = run_sitemill(crawl_args(site, t, other_agent));
  ASSERT_EQ(agent.exit_code, 0) << agent.err;
  EXPECT_EQ(site.asked("/").first, 0u);
  EXPECT_THAT(agent.err, HasSubstr("the user agent was `sitemill/"));

  // The cache holds a digest of the login, never the login.
  std::string bytes;
  for (const char* file : {"state.db-crawl", "state.db-crawl-wal"}) {
    std::ifstream in(t / file, std::ios::binary);
    bytes.append(std::istreambuf_iterator<char>(in), {});
  }
  ASSERT_FALSE(bytes.empty());
  EXPECT_EQ(bytes.find(cookie_value), std::string::npos);
}

}  // namespace
}  // namespace sitemill::testing
