// check --audit (issue 12): every URL a sitemap lists, fetched politely and
// judged as a search engine would, each finding at the line of its <url>.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "sitemill/check/check.h"
#include "support/http_server.h"

namespace sitemill::testing {
namespace {

http_reply html(std::string head,
                std::vector<std::pair<std::string, std::string>> headers = {}) {
  http_reply r = text_reply(200,
                            "<!doctype html><html><head><title>t</title>" +
                                head + "</head><body>page</body></html>",
                            "text/html; charset=utf-8");
  for (auto& h : headers) r.headers.push_back(std::move(h));
  return r;
}

http_reply xml_reply_for_test(std::string body) {
  return text_reply(200, std::move(body), "application/xml");
}

// The sitemap: line 1 the XML declaration, line 2 <urlset>, then one
// <url> per line in `paths` order (line 3 is the first).
std::string sitemap(const http_server& server,
                    const std::vector<std::pair<std::string, std::string>>&
                        paths_and_lastmods) {
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (const auto& [path, lastmod] : paths_and_lastmods) {
    xml += "<url><loc>" + server.url(path) + "</loc>";
    if (!lastmod.empty()) xml += "<lastmod>" + lastmod + "</lastmod>";
    xml += "</url>\n";
  }
  return xml + "</urlset>\n";
}

// code -> lines it was reported at, over every document.
std::map<std::string, std::vector<std::uint64_t>> audit_findings(
    const check_report& r) {
  std::map<std::string, std::vector<std::uint64_t>> out;
  for (const auto& d : r.documents)
    for (const auto& f : d.diagnostics)
      if (f.code.rfind("audit-", 0) == 0) out[f.code].push_back(f.line);
  return out;
}

check_report run_check(const std::string& target, bool audit) {
  check_options o;
  o.audit = audit;
  o.http.total_timeout = std::chrono::milliseconds(10'000);
  check_observer quiet;
  return check({target}, o, quiet);
}

TEST(CheckAudit, ReportsWhatSearchEnginesFindAtEachListedUrl) {
  http_server server;
  server.route("/robots.txt",
               text_reply(200, "User-agent: *\nDisallow: /private/\n"));
  const std::string jan = "Mon, 01 Jan 2024 00:00:00 GMT";
  const std::string may = "Wed, 01 May 2024 00:00:00 GMT";
  server.route("/ok", html("", {{"Last-Modified", jan}}));
  server.redirect("/moved", "/ok");
  server.route("/noindex-meta",
               html("<meta name=\"robots\" content=\"noindex\">"));
  server.route("/noindex-header", html("", {{"X-Robots-Tag", "noindex"}}));
  server.route("/googlebot-only",
               html("", {{"X-Robots-Tag", "googlebot: noindex"}}));
  server.route("/canon", html("<link rel=\"canonical\" href=\"/ok\">"));
  server.route("/self", html("<link rel=\"canonical\" href=\"/self\">"));
  server.route("/stale", html("", {{"Last-Modified", may}}));
  server.route("/doc.pdf", text_reply(200, "%PDF-1.4", "application/pdf"));
  server.route("/private/x", html(""));
  server.route("/sitemap.xml", xml_reply_for_test(sitemap(
                                   server, {{"/ok", "2024-02-01"},     // 3
                                            {"/missing", ""},          // 4
                                            {"/moved", ""},            // 5
                                            {"/noindex-meta", ""},     // 6
                                            {"/noindex-header", ""},   // 7
                                            {"/googlebot-only", ""},   // 8
                                            {"/canon", ""},            // 9
                                            {"/self", ""},             // 10
                                            {"/stale", "2024-01-01"},  // 11
                                            {"/doc.pdf", ""},          // 12
                                            {"/private/x", ""}})));    // 13
  const check_report r = run_check(server.url("/sitemap.xml"), true);
  const std::map<std::string, std::vector<std::uint64_t>> expected = {
      {"audit-status", {4}},     {"audit-redirect", {5}},
      {"audit-noindex", {6, 7}}, {"audit-canonical", {9}},
      {"audit-lastmod", {11}},   {"audit-robots", {13}},
  };
  EXPECT_EQ(audit_findings(r), expected);
  EXPECT_EQ(r.outcome, check_outcome::failed);
  EXPECT_EQ(server.count("/private/x"), 0u)
      << "a disallowed URL is not fetched";
  EXPECT_EQ(server.count("/robots.txt"), 1u);
  EXPECT_EQ(server.count("/ok"), 1u) << "a redirect is not followed";
  // Each finding names its URL.
  for (const auto& d : r.documents)
    for (const auto& f : d.diagnostics)
      if (f.code == "audit-redirect") {
        EXPECT_NE(f.message.find(server.url("/moved")), std::string::npos);
        EXPECT_NE(f.message.find("/ok"), std::string::npos);
      }
}

TEST(CheckAudit, FetchesNothingWithoutTheFlag) {
  http_server server;
  server.route("/sitemap.xml",
               xml_reply_for_test(sitemap(server, {{"/missing", ""}})));
  const check_report r = run_check(server.url("/sitemap.xml"), false);
  EXPECT_TRUE(audit_findings(r).empty());
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(r.outcome, check_outcome::passed);
}

TEST(CheckAudit, AnUnreadableRobotsTxtStopsTheHostsAuditOnce) {
  http_server server;
  server.route("/robots.txt", text_reply(503, "busy\n"));
  server.route("/sitemap.xml",
               xml_reply_for_test(sitemap(server, {{"/a", ""}, {"/b", ""}})));
  check_options o;
  o.audit = true;
  o.http.total_timeout = std::chrono::milliseconds(10'000);
  check_observer quiet;
  const check_report r = check({server.url("/sitemap.xml")}, o, quiet);
  const std::map<std::string, std::vector<std::uint64_t>> expected = {
      {"audit-robots-unreadable", {3}}};
  EXPECT_EQ(audit_findings(r), expected);
  EXPECT_EQ(server.count("/a") + server.count("/b"), 0u);
}

}  // namespace
}  // namespace sitemill::testing
