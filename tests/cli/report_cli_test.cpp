// End-to-end runs of `sitemill report` (docs/report.md): the file it
// writes, its exit codes, and the page as headless Chromium renders it with
// scripts disabled. Chromium is a test dependency (scripts/install-deps.sh):
// when it is missing the browser test fails.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "inspect_support.h"
#include "support/browser.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string site = "https://www.example.com/";

// An index of two sitemaps: a.xml with twelve URLs that all have the same
// lastmod (a lastmod-all-same warning), b.xml with three, one of them with
// characters to escape and one listed twice (duplicate-url): 15 entries.
struct small_set {
  temp_dir t;
  small_set() {
    std::vector<url_xml> a;
    for (int i = 1; i <= 12; ++i)
      a.push_back({site + "blog/" + std::to_string(i),
                   lastmod("2026-03-04") + "<changefreq>daily</changefreq>"});
    write_file(t / "a.xml", urlset_xml(a));
    write_file(t / "b.xml", urlset_xml({{site + "shop/x?a=1&amp;b=%3Cscript%3E",
                                         lastmod("2025-11-02")},
                                        {site + "shop/y", ""},
                                        {site + "shop/y", ""}}));
    write_file(t / "sitemap.xml", index_xml({site + "a.xml", site + "b.xml"}));
  }
};

TEST(ReportCli, WritesOnePageWithTheTotalsAndFindingsAndExitsZero) {
  small_set s;
  const run_result r =
      run_sitemill({"report", s.t.path(), "-o", s.t / "r.html"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = read_file(s.t / "r.html");
  EXPECT_EQ(element_text(html, "url-count"), "15");
  EXPECT_EQ(element_text(html, "file-count"), "2");
  EXPECT_EQ(table_rows(html, "files"), 3u) << "the index and two sitemaps";
  EXPECT_THAT(html, HasSubstr("id=\"code-lastmod-all-same\""));
  EXPECT_THAT(html, HasSubstr("id=\"code-duplicate-url\""))
      << "a rule of check's, beyond the parser's";
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, HasSubstr("<td class=\"loc\">/shop/</td>"));
}

TEST(ReportCli, DashWritesToStdout) {
  small_set s;
  const run_result r = run_sitemill({"report", s.t / "b.xml", "-o", "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.starts_with("<!DOCTYPE html>"));
  EXPECT_EQ(element_text(r.out, "url-count"), "3");
}

TEST(ReportCli, UnreadableInputOrOutputExitsTwo) {
  small_set s;
  run_result r =
      run_sitemill({"report", s.t / "missing.xml", "-o", s.t / "r.html"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("missing.xml"));
  r = run_sitemill({"report", s.t.path(), "-o", s.t / "no/such/dir/r.html"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("sitemill report: -o "));
  r = run_sitemill({"report"});
  EXPECT_EQ(r.exit_code, 2) << "the input is required (-o is not: "
                               "report_default_cli_test.cpp)";
}

TEST(ReportCli, MessagesNameTheFlagsAndAMissingChildIsNamed) {
  temp_dir t;
  write_file(t / "b.xml", urlset_xml({{site + "q/1", ""}}));
  write_file(t / "i.xml", index_xml({site + "b.xml", site + "gone.xml"}));
  const run_result r = run_sitemill({"report", t / "i.xml", "-o", "-"});
  ASSERT_EQ(r.exit_code, 0) << "written, whatever it finds: " << r.err;
  EXPECT_THAT(r.out, HasSubstr("id=\"code-child-not-found\""));
  EXPECT_THAT(r.out, HasSubstr("--fetch-children"));
  EXPECT_THAT(r.out, Not(HasSubstr("`fetch_children`")));
  EXPECT_THAT(r.out, HasSubstr("Documents not read, or not to their end: 1"));
}

TEST(ReportCli, ReportsASiteFromItsRobotsTxt) {
  http_server server;
  server.route("/robots.txt", text_reply(404, "none"));
  server.route("/sitemap.xml",
               text_reply(200,
                          urlset_xml({{server.url("/a"), lastmod("2026-01-02")},
                                      {server.url("/b"), ""}}),
                          "application/xml"));
  const run_result r = run_sitemill({"report", server.url("/"), "-o", "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(element_text(r.out, "url-count"), "2");
  EXPECT_EQ(element_text(r.out, "file-count"), "1");
  EXPECT_THAT(r.out, HasSubstr("id=\"code-robots-txt-missing\""));
}

TEST(ReportCli, FindingsLinkToTheirQuotedLines) {
  small_set s;
  const run_result r = run_sitemill({"report", s.t.path(), "-o", "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // b.xml's third URL repeats its second: a duplicate-url finding on the
  // line of the repeat, quoted from the file.
  const std::smatch m = [&] {
    std::smatch found;
    std::regex_search(r.out, found,
                      std::regex("<tr id=\"(line-[0-9]+)\"><td "
                                 "class=\"loc\">[^<]*b\\.xml</td><td "
                                 "class=\"num\">([0-9]+)</td>.*?<code>([^<]*)"
                                 "</code>.*?#code-duplicate-url"));
    return found;
  }();
  ASSERT_FALSE(m.empty()) << r.out;
  EXPECT_THAT(m[3].str(), HasSubstr("shop/y")) << "the repeated URL's line";
  EXPECT_THAT(r.out, HasSubstr("<a href=\"#" + m[1].str() + "\">" + m[2].str() +
                               "</a>"))
      << "the example links to it";
}

TEST(ReportCli, HelpHasAnExample) {
  const run_result r = run_sitemill({"report", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("sitemill report public/ -o report.html"));
}

// Headless Chromium's --dump-dom needs scripts itself (scriptEnabled=false
// makes it print nothing), so "works without scripts" is proved on the
// bytes, as for the HTML view: no script, no event handler, nothing loaded.
TEST(ReportBrowser, ChromiumRendersTheReportWhichHoldsNoScript) {
  small_set s;
  const run_result r =
      run_sitemill({"report", s.t.path(), "-o", s.t / "r.html"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string html = read_file(s.t / "r.html");
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_FALSE(std::regex_search(html, std::regex(" on[a-z]+=")))
      << "an event handler attribute";
  EXPECT_THAT(html, Not(HasSubstr("src=")));
  EXPECT_THAT(html, Not(HasSubstr("<link")));
  const std::string url = "file://" + s.t / "r.html";
  const std::string dom = browser_dom(url);
  EXPECT_EQ(element_text(dom, "url-count"), "15");
  EXPECT_EQ(element_text(dom, "file-count"), "2");
  EXPECT_EQ(element_text(dom, "warning-count").empty(), false);
  EXPECT_EQ(table_rows(dom, "files"), 3u);
  EXPECT_EQ(table_rows(dom, "paths"), 2u) << "/blog/ and /shop/";
  EXPECT_THAT(dom, HasSubstr("lastmod-all-same"));
  EXPECT_THAT(dom, HasSubstr("<svg")) << "the charts are in the DOM";
  EXPECT_THAT(dom, Not(HasSubstr("<script"))) << "the escaped URL stayed text";
  browser_screenshot(url, screenshot_path("report.png"));
}

}  // namespace
}  // namespace sitemill::testing
