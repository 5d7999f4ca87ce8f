// The HTTP settings of a crawl's requests come from one function
// (crawl/crawl_http.h, crawl_http_options()), whoever makes the request: the
// crawl's pages and robots.txt, its seed sitemaps (read on the walker's
// client) and an audit's sitemaps' walk and fetches of the URLs its crawl
// did not judge. A members site on one loopback server lets in only a
// request with the members' header; robots.txt names a sitemap there and one
// on another origin (another loopback server, another port). Every request
// to the members site carries the header, none to the other origin does,
// and what is behind the login (its sitemap) is read.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "crawl/crawl_http.h"
#include "sitemill/audit/audit.h"
#include "sitemill/crawl/crawl_source.h"
#include "sitemill/net/credentials.h"
#include "support/http_server.h"

namespace sitemill::testing {
namespace {

constexpr std::string_view key = "members-key-2b7c91";

std::string urlset(const std::vector<std::string>& locs) {
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset "
      "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (const std::string& loc : locs) xml += "<url><loc>" + loc + "</loc></url>\n";
  return xml + "</urlset>\n";
}

std::string page(std::string_view body) {
  return "<!doctype html><html><head><title>Members</title></head><body>" +
         std::string(body) + "</body></html>";
}

class members_site {
 public:
  members_site() {
    other_.route("/sitemap.xml",
                 text_reply(200, urlset({site_.url("/members/via-other")}),
                            "application/xml"));
    site_.fallback([this](const recorded_request& r) { return answer(r); });
  }
  const http_server& site() const { return site_; }
  const http_server& other() const { return other_; }

  // Every request to the site carried the key; none elsewhere did, and
  // the other origin's sitemap was asked (so that is a request seen).
  void expect_key_only_at_home() const {
    const auto ours = site_.requests();
    ASSERT_FALSE(ours.empty());
    for (const auto& r : ours)
      EXPECT_EQ(r.header("X-Members-Key").value_or(""), key) << r.target;
    EXPECT_GE(site_.count("/robots.txt"), 1u);
    EXPECT_GE(site_.count("/sitemap.xml"), 1u);
    ASSERT_GE(other_.count("/sitemap.xml"), 1u);
    for (const auto& r : other_.requests()) {
      EXPECT_FALSE(r.header("X-Members-Key")) << r.target;
      EXPECT_FALSE(r.header("Cookie")) << r.target;
      EXPECT_FALSE(r.header("Authorization")) << r.target;
    }
  }

 private:
  http_reply answer(const recorded_request& r) const {
    if (r.header("X-Members-Key").value_or("") != key)
      return text_reply(401, "members only");
    const std::string_view path = r.path();
    if (path == "/robots.txt")
      return text_reply(200, "User-agent: *\nAllow: /\nSitemap: " +
                                 site_.url("/sitemap.xml") + "\nSitemap: " +
                                 other_.url("/sitemap.xml") + "\n");
    if (path == "/sitemap.xml")
      return text_reply(
          200,
          urlset({site_.url("/"), site_.url("/members/from-sitemap")}),
          "application/xml");
    if (path == "/")
      return text_reply(200, page("<a href=/members/a>A</a>"), "text/html");
    return text_reply(200, page("<a href=/>Home</a>"), "text/html");
  }

  http_server other_;  // made first: the site's answers name it
  http_server site_;
};

site_credentials members_key() {
  site_credentials c;
  c.headers.push_back({"X-Members-Key", std::string(key)});
  return c;
}

TEST(CrawlHttp, TheCrawlsSettingsAndItsCredentialsForItsOriginOnly) {
  crawl_options o;
  o.start_url = "https://members.example.com/area/";
  o.credentials = members_key();
  http_cookie consent;
  consent.name = "consent";
  consent.value = "yes";
  o.credentials.cookies.push_back(consent);
  o.connect_timeout = std::chrono::milliseconds(1'234);
  o.timeout = std::chrono::milliseconds(5'678);
  o.resolve = {"members.example.com:443:127.0.0.1"};
  normalized_url start;
  ASSERT_EQ(normalize_url(o.start_url, start), url_problem::ok);
  std::atomic<bool> cancel{false};

  const http_options h = detail::crawl_http_options(o, start, &cancel);
  EXPECT_EQ(h.user_agent, default_user_agent());
  EXPECT_EQ(h.connect_timeout, o.connect_timeout);
  EXPECT_EQ(h.total_timeout, o.timeout);
  EXPECT_EQ(h.resolve, o.resolve);
  EXPECT_EQ(h.cancel, &cancel);
  ASSERT_TRUE(h.headers_for);
  auto sent = [&](std::string_view url) {
    std::vector<std::pair<std::string, std::string>> headers;
    h.headers_for(url, headers);
    std::string text;
    for (const auto& [name, value] : headers) text += name + ": " + value + "\n";
    return text;
  };
  const std::string home = sent("https://members.example.com/sitemap.xml");
  EXPECT_NE(home.find("X-Members-Key: " + std::string(key)), std::string::npos)
      << home;
  EXPECT_NE(home.find("consent=yes"), std::string::npos) << home;
  EXPECT_EQ(sent("https://cdn.example.com/sitemap.xml"), "");
  EXPECT_EQ(sent("http://members.example.com/sitemap.xml"), "");  // scheme
  EXPECT_EQ(sent("https://members.example.com:8443/x"), "");       // port

  o.user_agent = "MembersBot/1.0";
  EXPECT_EQ(detail::crawl_http_options(o, start, nullptr).user_agent,
            "MembersBot/1.0");
}

TEST(CrawlHttp, SeedSitemapsAreAskedWithTheCrawlsCredentialsAtHomeOnly) {
  members_site m;
  crawl_options o;
  o.start_url = m.site().url("/");
  o.seed_sitemaps = true;
  o.retry.max_attempts = 1;
  o.credentials = members_key();
  auto reader = crawl_source(o)->open(source_context{});
  ASSERT_TRUE(reader) << reader.err().message;
  std::vector<std::string> listed;
  input_record r;
  while ((*reader)->next(r))
    if (r.skipped.empty()) listed.emplace_back(r.loc);
  EXPECT_EQ((*reader)->error(), "");
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(listed, (std::vector<std::string>{
                        m.site().url("/"), m.site().url("/members/a"),
                        m.site().url("/members/from-sitemap"),
                        m.site().url("/members/via-other")}));
  m.expect_key_only_at_home();
}

TEST(CrawlHttp, AnAuditsSitemapWalkAndFetchesCarryTheCrawlsCredentials) {
  members_site m;
  audit_options o;
  o.site_url = m.site().url("/");
  o.crawl.retry.max_attempts = 1;
  o.crawl.credentials = members_key();
  const audit_report report = audit_site(o);
  ASSERT_EQ(report.error, "");
  // Both sitemaps were read: the members' one, behind the key, too.
  EXPECT_EQ(report.sitemap_urls, 3u);
  for (const std::string& note : report.notes)
    EXPECT_EQ(note.find("not read"), std::string::npos) << note;
  // The two URLs no page links to are orphans, fetched with the key: 200.
  std::vector<std::string> orphans;
  for (const audit_finding& f : report.orphans) orphans.push_back(f.url);
  std::sort(orphans.begin(), orphans.end());
  EXPECT_EQ(orphans, (std::vector<std::string>{
                         m.site().url("/members/from-sitemap"),
                         m.site().url("/members/via-other")}));
  EXPECT_TRUE(report.not_indexable.empty())
      << report.not_indexable.front().url << ": "
      << report.not_indexable.front().message;
  m.expect_key_only_at_home();
}

}  // namespace
}  // namespace sitemill::testing
