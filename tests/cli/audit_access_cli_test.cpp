// `sitemill audit` of a members area behind a consent cookie: robots.txt,
// the sitemap and every page answer 401 without the cookie. With --cookie,
// the audit's own requests carry it as its crawl's do (crawl/crawl_http.h):
// the sitemaps' walk reads the members' sitemap and the URLs no page links
// to are fetched logged in, so the audit compares what members see; the
// sitemap robots.txt names on another origin is read without it. Without
// the cookie there is nothing to compare.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using json = nlohmann::json;

constexpr std::string_view cookie_value = "ok-members-8d2f61";

std::string urlset_of(const std::vector<std::string>& locs) {
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (const std::string& loc : locs) xml += "<url><loc>" + loc + "</loc></url>\n";
  return xml + "</urlset>\n";
}

class members_area {
 public:
  members_area() {
    other_.route("/sitemap.xml",
                 text_reply(200, urlset_of({site_.url("/members/shared")}),
                            "application/xml"));
    site_.fallback([this](const recorded_request& r) { return answer(r); });
  }
  const http_server& site() const { return site_; }
  const http_server& other() const { return other_; }

 private:
  http_reply answer(const recorded_request& r) const {
    const auto cookie = r.header("Cookie");
    if (!cookie || cookie->find("consent=" + std::string(cookie_value)) ==
                       std::string::npos)
      return text_reply(401, "members only");
    const std::string_view path = r.path();
    if (path == "/robots.txt")
      return text_reply(200, "User-agent: *\nAllow: /\nSitemap: " +
                                 site_.url("/members/sitemap.xml") +
                                 "\nSitemap: " + other_.url("/sitemap.xml") +
                                 "\n");
    if (path == "/members/sitemap.xml")
      return text_reply(200,
                        urlset_of({site_.url("/"), site_.url("/members/a"),
                                   site_.url("/members/unlinked")}),
                        "application/xml");
    if (path == "/members/gone") return text_reply(404, "gone");
    std::string body = "<p>For members.</p>";
    if (path == "/") body = "<a href=/members/a>A</a> <a href=/members/b>B</a>";
    return text_reply(200,
                      "<!doctype html><html><head><title>Members</title>"
                      "</head><body>" +
                          body + "</body></html>",
                      "text/html; charset=utf-8");
  }

  http_server other_;  // made first: the site's answers name it
  http_server site_;
};

std::vector<std::string> urls(const json& findings) {
  std::vector<std::string> out;
  for (const json& f : findings) out.push_back(f["url"]);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(AuditAccessCli, AMembersAreaIsAuditedWithItsCookie) {
  members_area m;
  const run_result r = run_sitemill(
      {"audit", "--json", "--cookie",
       "consent=" + std::string(cookie_value), m.site().url("/")});
  // Orphans and a missing page, and every sitemap URL indexable: the
  // default --fail-on (not-indexable) passes.
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["outcome"], "passed");
  EXPECT_EQ(j["totals"]["sitemap_urls"], 4);
  EXPECT_EQ(j["sitemaps"], json::array({m.site().url("/members/sitemap.xml"),
                                        m.other().url("/sitemap.xml")}));
  // Both sitemaps were read (the members' one only with the cookie).
  EXPECT_THAT(urls(j["orphans"]),
              ElementsAre(m.site().url("/members/shared"),
                          m.site().url("/members/unlinked")));
  EXPECT_THAT(urls(j["missing"]), ElementsAre(m.site().url("/members/b")));
  // The orphans were fetched with the cookie: 200, indexable.
  EXPECT_TRUE(j["not_indexable"].empty()) << j["not_indexable"].dump();
  EXPECT_EQ(m.site().count("/members/unlinked"), 1u);
  for (const auto& req : m.site().requests())
    EXPECT_THAT(req.header("Cookie").value_or(""),
                HasSubstr(std::string(cookie_value)))
        << req.target;
  // The other origin's sitemap was read, without it.
  ASSERT_EQ(m.other().count("/sitemap.xml"), 1u);
  for (const auto& req : m.other().requests())
    EXPECT_FALSE(req.header("Cookie")) << req.target;
  // The cookie is in no output.
  EXPECT_EQ(r.out.find(cookie_value), std::string::npos);
  EXPECT_EQ(r.err.find(cookie_value), std::string::npos);
}

// Without it, robots.txt's 401 counts as no robots.txt (RFC 9309 2.3.1.3:
// everything allowed, no sitemap named), the common locations answer 401,
// and the members' sitemap is never asked: there is nothing to compare, and
// the audit says why.
TEST(AuditAccessCli, WithoutTheCookieNoSitemapIsFound) {
  members_area m;
  const run_result r = run_sitemill({"audit", m.site().url("/")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("sitemap: none found"));
  EXPECT_THAT(r.out, HasSubstr("sitemap.xml: HTTP 401"));
  EXPECT_EQ(m.site().count("/members/sitemap.xml"), 0u);
  EXPECT_EQ(m.other().requests().size(), 0u);
}

}  // namespace
}  // namespace sitemill::testing
