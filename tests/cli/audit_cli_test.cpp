// `sitemill audit SITE` end to end on a loopback site built to hold one of
// each finding: the orphans, the missing pages and the sitemap URLs that are
// not indexable (404, redirect, noindex, canonical elsewhere, robots.txt),
// each with its reason and the page that links to it; the JSON's shape; the
// exit codes --fail-on gives; the HTML page; discovery at a common location.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sitemill/report/report_html.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using json = nlohmann::json;

http_reply page(const std::string& head, const std::string& body) {
  return text_reply(200,
                    "<!doctype html><html><head><title>t</title>" + head +
                        "</head><body>" + body + "</body></html>",
                    "text/html; charset=utf-8");
}
std::string links(std::initializer_list<const char*> paths) {
  std::string out;
  for (const char* p : paths)
    out += "<a href=\"" + std::string(p) + "\">" + p + "</a>\n";
  return out;
}
std::string urlset(const http_server& s,
                   std::initializer_list<const char*> paths) {
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (const char* p : paths) xml += "<url><loc>" + s.url(p) + "</loc></url>\n";
  return xml + "</urlset>\n";
}

// The site: the home page links to /a, /b, /moved, /gone, /noindex, /canon
// and /private; /b links to /c. The sitemap lists the home page, /a, the
// five bad ones, and three pages no page links to.
void build_site(http_server& s, bool name_sitemap = true) {
  s.route(
      "/robots.txt",
      text_reply(
          200, "User-agent: *\nDisallow: /private\n" +
                   (name_sitemap ? "Sitemap: " + s.url("/maps/site.xml") + "\n"
                                 : std::string())));
  s.route("/", page("", links({"/a", "/b", "/moved", "/gone", "/noindex",
                               "/canon", "/private"})));
  s.route("/a", page("", links({"/"})));
  s.route("/b", page("", links({"/c"})));
  s.route("/c", page("", "c"));
  s.redirect("/moved", "/a");
  s.route("/gone", text_reply(404, "gone"));
  s.route("/noindex", page("<meta name=\"robots\" content=\"noindex\">", "n"));
  s.route("/canon",
          page("<link rel=\"canonical\" href=\"" + s.url("/a") + "\">", "x"));
  s.route("/private", page("", "p"));
  s.route("/orphan", page("", "o"));
  s.route("/orphan-gone", text_reply(410, "gone"));
  s.route("/private-orphan", page("", "po"));
  s.route(name_sitemap ? "/maps/site.xml" : "/sitemap_index.xml",
          text_reply(200,
                     urlset(s, {"/", "/a", "/moved", "/gone", "/noindex",
                                "/canon", "/private", "/orphan", "/orphan-gone",
                                "/private-orphan"}),
                     "application/xml"));
}

struct row {
  std::string url, reason, linked_from, judged_by;
};
std::vector<row> rows(const json& list) {
  std::vector<row> out;
  for (const json& f : list)
    out.push_back(
        {f["url"], f["reason"],
         f["linked_from"].is_null() ? "" : f["linked_from"].get<std::string>(),
         f.contains("judged_by") ? f["judged_by"].get<std::string>() : ""});
  return out;
}
MATCHER_P4(Finding, url, reason, linked_from, judged_by, "") {
  return arg.url == url && arg.reason == reason &&
         arg.linked_from == linked_from && arg.judged_by == judged_by;
}

TEST(AuditCli, FindsOrphansMissingPagesAndUrlsNotIndexable) {
  http_server s;
  build_site(s);
  const run_result r = run_sitemill({"audit", "--json", s.url("/")});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["site"], s.url("/"));
  EXPECT_EQ(j["sitemaps"], json::array({s.url("/maps/site.xml")}));
  EXPECT_EQ(j["discovered"], false);
  using ::testing::ElementsAre;
  EXPECT_THAT(
      rows(j["orphans"]),
      ElementsAre(Finding(s.url("/orphan"), "not_linked", "", ""),
                  Finding(s.url("/orphan-gone"), "not_linked", "", ""),
                  Finding(s.url("/private-orphan"), "not_linked", "", "")));
  EXPECT_THAT(
      rows(j["missing"]),
      ElementsAre(Finding(s.url("/b"), "not_in_sitemap", s.url("/"), ""),
                  Finding(s.url("/c"), "not_in_sitemap", s.url("/b"), "")));
  EXPECT_THAT(
      rows(j["not_indexable"]),
      ElementsAre(Finding(s.url("/moved"), "redirect", s.url("/"), "crawl"),
                  Finding(s.url("/gone"), "status", s.url("/"), "crawl"),
                  Finding(s.url("/noindex"), "noindex", s.url("/"), "crawl"),
                  Finding(s.url("/canon"), "canonical", s.url("/"), "crawl"),
                  Finding(s.url("/private"), "robots", s.url("/"), "crawl"),
                  Finding(s.url("/orphan-gone"), "status", "", "fetch"),
                  Finding(s.url("/private-orphan"), "robots", "", "fetch")));
  const json& bad = j["not_indexable"];
  EXPECT_EQ(bad[0]["message"], "redirects to " + s.url("/a"));
  EXPECT_EQ(bad[1]["message"], "answers 404");
  EXPECT_EQ(bad[3]["message"],
            "names " + s.url("/a") + " as its canonical URL");
  EXPECT_EQ(bad[5]["message"], "answers 410");
  EXPECT_EQ(bad[0]["sitemap"], s.url("/maps/site.xml"));
  EXPECT_TRUE(j["missing"][0]["sitemap"].is_null());
  // The orphans were fetched; the robots-blocked one was not requested.
  EXPECT_EQ(s.count("/orphan"), 1u);
  EXPECT_EQ(s.count("/private-orphan"), 0u);
  EXPECT_EQ(s.count("/private"), 0u);
}

TEST(AuditCli, JsonHasTheDocumentedShape) {
  http_server s;
  build_site(s);
  const run_result r = run_sitemill({"audit", "--json", s.url("/")});
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(r.out);
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"site", "sitemaps", "discovered",
                                            "totals", "orphans", "missing",
                                            "not_indexable", "notes", "error",
                                            "fail_on", "outcome"}));
  const json& t = j["totals"];
  EXPECT_EQ(t["sitemap_documents"], 1);
  EXPECT_EQ(t["sitemap_urls"], 10);
  EXPECT_EQ(t["sitemap_urls_dropped"], 0);
  EXPECT_EQ(t["crawled_urls"], 9);     // the home page, the 7 it links to, /c
  EXPECT_EQ(t["indexable_pages"], 4);  // /, /a, /b, /c
  EXPECT_EQ(t["fetched"], 2);          // the orphans robots.txt lets be fetched
  EXPECT_EQ(t["orphans"], 3);
  EXPECT_EQ(t["missing"], 2);
  EXPECT_EQ(t["not_indexable"], 7);
  for (const char* key : {"url", "reason", "message", "linked_from", "sitemap"})
    EXPECT_TRUE(j["not_indexable"][0].contains(key)) << key;
  EXPECT_FALSE(j["orphans"][0].contains("judged_by"));
  EXPECT_TRUE(j["error"].is_null());
  EXPECT_EQ(j["fail_on"], json::array({"not_indexable"}));
  EXPECT_EQ(j["outcome"], "failed");
}

TEST(AuditCli, FailOnChoosesTheClassesThatExitOne) {
  http_server s;
  build_site(s);
  struct {
    std::vector<std::string> flags;
    int exit_code;
  } cases[] = {
      {{}, 1},
      {{"--fail-on", "none"}, 0},
      {{"--fail-on", "orphans"}, 1},
      {{"--fail-on", "missing"}, 1},
      {{"--fail-on", "orphans,missing", "--fail-on", "not-indexable"}, 1},
      {{"--fail-on", "sideways"}, 2},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args{"audit", "-q"};
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    args.push_back(s.url("/"));
    const run_result r = run_sitemill(args);
    EXPECT_EQ(r.exit_code, c.exit_code)
        << ::testing::PrintToString(c.flags) << r.out << r.err;
  }

  // A site whose sitemap lists exactly its pages passes whatever is asked.
  http_server clean;
  clean.route("/robots.txt", text_reply(404, "none"));
  clean.route("/", page("", links({"/a"})));
  clean.route("/a", page("", "a"));
  clean.route("/sitemap.xml",
              text_reply(200, urlset(clean, {"/", "/a"}), "application/xml"));
  const run_result ok = run_sitemill(
      {"audit", "--fail-on", "orphans,missing,not-indexable", clean.url("/")});
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_THAT(ok.out, HasSubstr("0 orphans, 0 missing pages, 0 URLs not "
                                "indexable"));
}

TEST(AuditCli, PrintsEachFindingWithItsReasonAndLinkingPage) {
  http_server s;
  build_site(s);
  const run_result r = run_sitemill({"audit", s.url("/")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("sitemap: " + s.url("/maps/site.xml") + "\n"));
  EXPECT_THAT(r.out,
              HasSubstr("orphan: " + s.url("/orphan") +
                        ": no crawled page links to it [not_linked] (in " +
                        s.url("/maps/site.xml") + ")\n"));
  EXPECT_THAT(r.out, HasSubstr("missing: " + s.url("/c") +
                               ": is not in any sitemap [not_in_sitemap], "
                               "linked from " +
                               s.url("/b") + "\n"));
  EXPECT_THAT(r.out,
              HasSubstr("not indexable: " + s.url("/gone") +
                        ": answers 404 [status], linked from " + s.url("/")));
}

TEST(AuditCli, WritesAnHtmlPageInTheReportsStyle) {
  http_server s;
  build_site(s);
  temp_dir t;
  const std::string file = t.path() + "/audit.html";
  const run_result r =
      run_sitemill({"audit", "-q", "--html", file, s.url("/")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::string html = read_file(file);
  EXPECT_THAT(html, HasSubstr(std::string(report_html_marker)));
  EXPECT_THAT(html, HasSubstr("<h1>Sitemap audit</h1>"));
  EXPECT_THAT(html, HasSubstr("<span id=\"orphans\">3</span>"));
  EXPECT_THAT(html, HasSubstr("<span id=\"missing\">2</span>"));
  EXPECT_THAT(html, HasSubstr("<span id=\"not-indexable\">7</span>"));
  EXPECT_THAT(html, HasSubstr(s.url("/private-orphan")));
  EXPECT_THAT(html, HasSubstr("<span id=\"outcome\">failed</span>"));
}

TEST(AuditCli, FindsTheSitemapAtACommonLocationWhenRobotsTxtNamesNone) {
  http_server s;
  build_site(s, /*name_sitemap=*/false);
  const run_result r = run_sitemill({"-v", "audit", "--json", s.url("/")});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["sitemaps"], json::array({s.url("/sitemap_index.xml")}));
  EXPECT_EQ(j["discovered"], true);
  EXPECT_EQ(j["totals"]["orphans"], 3);
  EXPECT_THAT(r.err, HasSubstr("sitemap location " + s.url("/sitemap.xml") +
                               ": HTTP 404"));
}

TEST(AuditCli, ASiteUrlThatIsNotARootOrAnUnreadableRobotsTxtExitsTwo) {
  http_server s;
  s.route("/robots.txt", text_reply(503, "down"));
  const run_result page_url = run_sitemill({"audit", s.url("/blog/")});
  EXPECT_EQ(page_url.exit_code, 2);
  EXPECT_THAT(page_url.err, HasSubstr("not a site's root URL"));
  const run_result down = run_sitemill({"audit", s.url("/")});
  EXPECT_EQ(down.exit_code, 2) << down.out << down.err;
}

// check SITE finds its sitemap the same way, and says each look under -v.
TEST(AuditCli, CheckOfASiteUsesTheSameDiscovery) {
  http_server s;
  s.route("/robots.txt", text_reply(404, "none"));
  s.route(
      "/sitemap.xml",
      text_reply(200, "<!doctype html><title>Not found</title>", "text/html"));
  s.route("/wp-sitemap.xml",
          text_reply(200, urlset(s, {"/"}), "application/xml"));
  const run_result r = run_sitemill({"-v", "check", s.url("/")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr(s.url("/wp-sitemap.xml") + ": urlset"));
  EXPECT_THAT(r.err, HasSubstr("sitemap location " + s.url("/sitemap.xml") +
                               ": an HTML page (a soft 404), not a sitemap"));
}

// Past --max-pages the crawl found URLs it did not fetch: those in the
// sitemap are fetched for the audit, keep the page that links to them, and
// a note says the crawl was cut.
TEST(AuditCli, FetchesWhatTheCrawlFoundAndDidNotFetch) {
  http_server s;
  s.route("/robots.txt", text_reply(404, "none"));
  s.route("/", page("", links({"/gone", "/fine"})));
  s.route("/gone", text_reply(404, "gone"));
  s.route("/fine", page("", "fine"));
  s.route("/sitemap.xml", text_reply(200, urlset(s, {"/", "/gone", "/fine"}),
                                     "application/xml"));
  const run_result r =
      run_sitemill({"audit", "--json", "--max-pages", "1", s.url("/")});
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const json j = json::parse(r.out);
  EXPECT_TRUE(j["orphans"].empty()) << "linked, though not fetched";
  EXPECT_TRUE(j["missing"].empty());
  EXPECT_THAT(rows(j["not_indexable"]),
              ::testing::ElementsAre(
                  Finding(s.url("/gone"), "status", s.url("/"), "fetch")));
  EXPECT_EQ(j["totals"]["fetched"], 2);
  ASSERT_EQ(j["notes"].size(), 1u);
  EXPECT_THAT(j["notes"][0].get<std::string>(),
              HasSubstr("the crawl stopped at --max-pages"));
}

TEST(AuditCli, IsListedInTheHelpOnOneLine) {
  const run_result r = run_sitemill({"--help"});
  EXPECT_THAT(r.out, HasSubstr("  audit "));
  EXPECT_THAT(r.out,
              HasSubstr("orphans, missing pages, URLs not indexable.\n"));
  const run_result own = run_sitemill({"audit", "--help"});
  EXPECT_EQ(own.exit_code, 0);
  for (const char* flag : {"--fail-on", "--html", "--json", "--max-pages",
                           "--max-depth", "--concurrency", "--user-agent"})
    EXPECT_THAT(own.out, HasSubstr(flag));
}

}  // namespace
}  // namespace sitemill::testing

namespace sitemill::testing {
namespace {

// A members area: every page answers 403 unless the request carries the
// member's header. The audit takes generate --from-crawl's access flags.
TEST(AuditCli, AuditsASiteBehindALoginWithTheCrawlsAccessFlags) {
  http_server s;
  s.route("/robots.txt", text_reply(200, "User-agent: *\nAllow: /\n"));
  s.route("/sitemap.xml",
          text_reply(200, urlset(s, {"/", "/a"}), "application/xml"));
  const http_reply home = page("", links({"/a"}));
  const http_reply a = page("", links({"/"}));
  s.fallback([&](const recorded_request& r) {
    if (r.header("X-Member") != "yes") return text_reply(403, "members only");
    return r.path() == "/a" ? a : home;
  });
  const run_result open_door = run_sitemill(
      {"audit", "--json", "--header", "X-Member: yes", s.url("/")});
  const json in = json::parse(open_door.out);
  EXPECT_EQ(in["totals"]["not_indexable"], 0) << open_door.out;
  EXPECT_EQ(in["totals"]["indexable_pages"], 2);
  EXPECT_EQ(open_door.exit_code, 0);

  const run_result shut = run_sitemill({"audit", "--json", s.url("/")});
  EXPECT_EQ(json::parse(shut.out)["totals"]["not_indexable"], 2);
  EXPECT_EQ(shut.exit_code, 1);

  const run_result bad =
      run_sitemill({"audit", "--header", "no colon", s.url("/")});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--header"));
}

}  // namespace
}  // namespace sitemill::testing
