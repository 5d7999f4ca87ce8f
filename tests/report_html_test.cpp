// The HTML report's renderer (report/report_html.h): its numbers, its
// escaping of untrusted text, its charts, its caps, and no script.
#include "sitemill/report/report_html.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "support/browser.h"

namespace sitemill {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

set_stats small_stats() {
  set_stats s;
  s.input = "public/";
  s.entry = "public/sitemap.xml";
  s.urls = 1234567;
  s.files = 2;
  s.bytes = 5000;
  s.bytes_on_disk = 1000;
  s.bytes_measured = 4000;
  s.distinct_urls = 1234560;
  s.documents = {{"public/a.xml", document_kind::urlset, 3, 100, 40, true},
                 {"public/<b>.xml", document_kind::urlset, 2, 90, {}, false}};
  s.segments = {{"blog", 1000000}, {"<x>", 5}};
  s.lastmod_months = {{"2025-12", 3}, {"2026-01", 7}};
  s.lastmod_none = 1234557;
  s.changefreq[1] = 9;  // hourly
  s.priority[5] = 4;    // 0.5
  return s;
}

document_report doc(std::string source, std::vector<diagnostic> diagnostics) {
  document_report r;
  r.source = std::move(source);
  r.diagnostics = std::move(diagnostics);
  return r;
}

TEST(ReportHtml, GroupsFindingsByCodeErrorsFirstWithCountsAndCappedExamples) {
  check_report r;
  std::vector<diagnostic> many;
  for (int i = 1; i <= 30; ++i)
    many.push_back({severity::warning, "w-code", static_cast<std::uint64_t>(i),
                    0, "w " + std::to_string(i)});
  many.push_back({severity::info, "more-not-listed", 0, 0, "5 more w-code"});
  r.documents.push_back(doc("a.xml", many));
  r.documents.back().unlisted.push_back({"w-code", severity::warning, 5});
  r.documents.push_back(
      doc("b.xml", {{severity::error, "e-code", 7, 0, "bad"},
                    {severity::warning, "w-code", 2, 0, "w b"}}));

  const auto groups = group_findings(r, 20);
  ASSERT_EQ(groups.size(), 2u) << "more-not-listed is no code of its own";
  EXPECT_EQ(groups[0].code, "e-code");
  EXPECT_EQ(groups[0].level, severity::error);
  EXPECT_EQ(groups[0].count, 1u);
  ASSERT_EQ(groups[0].examples.size(), 1u);
  EXPECT_EQ(groups[0].examples[0].document, "b.xml");
  EXPECT_EQ(groups[0].examples[0].line, 7u);
  EXPECT_EQ(groups[1].code, "w-code");
  EXPECT_EQ(groups[1].count, 36u) << "30 listed + 5 unlisted + 1 in b.xml";
  EXPECT_EQ(groups[1].documents, 2u);
  ASSERT_EQ(groups[1].examples.size(), 20u);
  EXPECT_EQ(groups[1].examples[19].message, "w 20");
}

TEST(ReportHtml, ShowsTheTotalsChartsAndFindings) {
  check_report r;
  r.documents.push_back(
      doc("public/a.xml",
          {{severity::warning, "lastmod-all-same", 0, 0, "same lastmod"}}));
  std::string html;
  append_report_html(html, small_stats(), group_findings(r));

  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
  EXPECT_EQ(testing::element_text(html, "url-count"), "1,234,567");
  EXPECT_EQ(testing::element_text(html, "file-count"), "2");
  EXPECT_EQ(testing::element_text(html, "byte-count"), "5,000");
  EXPECT_EQ(testing::element_text(html, "gzip-ratio"), "0.250");
  EXPECT_EQ(testing::element_text(html, "lastmod-none-share"), "100.0%");
  EXPECT_EQ(testing::table_rows(html, "files"), 2u);
  EXPECT_EQ(testing::table_rows(html, "paths"), 2u);
  EXPECT_EQ(testing::table_rows(html, "findings"), 1u);
  EXPECT_THAT(html, HasSubstr("id=\"code-lastmod-all-same\""));
  EXPECT_EQ(testing::element_text(html, "warning-count"), "1");
  EXPECT_THAT(html, HasSubstr("<svg role=\"img\""));
  EXPECT_THAT(html, HasSubstr("<title>URLs by lastmod month</title>"));
  EXPECT_THAT(html, HasSubstr(">hourly</text>"));
  EXPECT_THAT(html, HasSubstr(">0.5</text>"));
  EXPECT_THAT(html, HasSubstr("@media print"));
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("http://"))) << "nothing is fetched";
  EXPECT_THAT(html, Not(HasSubstr("https://")));
}

TEST(ReportHtml, EscapesEveryTextFromTheSet) {
  set_stats s = small_stats();
  s.input = "<script>alert(1)</script>";
  s.not_read = 1;
  s.not_read_examples = {"x.xml: \"<img src=x onerror=alert(1)>\""};
  check_report r;
  r.documents.push_back(doc("<i>doc</i>", {{severity::error, "c<o>de\"", 3, 0,
                                            "<b>message</b> & 'more'"}}));
  std::string html;
  append_report_html(html, s, group_findings(r));
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("<img")));
  EXPECT_THAT(html, Not(HasSubstr("<b>")));
  EXPECT_THAT(html, Not(HasSubstr("<i>")));
  EXPECT_THAT(html, Not(HasSubstr("<x>")));
  EXPECT_THAT(html, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_THAT(html, HasSubstr("&lt;b&gt;message&lt;/b&gt; &amp; &apos;more"));
  EXPECT_THAT(html, HasSubstr("public/&lt;b&gt;.xml"));
  EXPECT_THAT(html, HasSubstr("id=\"code-c&lt;o&gt;de&quot;\""));
}

TEST(ReportHtml, EachQuotedExampleLinksToItsLineAndTheLineBackToItsCodes) {
  std::vector<code_findings> groups(2);
  groups[0].code = "e-code";
  groups[0].count = 2;
  groups[0].examples = {{"a.xml", 7, "bad", 3, "<loc>x</loc>"},
                        {"https://x.example/b.xml", 2, "far", 0, {}}};
  groups[1].code = "w-code";
  groups[1].level = severity::warning;
  groups[1].count = 2;
  groups[1].examples = {{"a.xml", 7, "also", 3, "<loc>x</loc>"},
                        {"a.xml", 2, "earlier", 0, "<urlset>"}};
  std::string html;
  append_report_html(html, small_stats(), groups);
  EXPECT_EQ(testing::table_rows(html, "lines"), 2u)
      << "one row per place, however many codes point at it";
  // In document order: line 2 is place 0, line 7 place 1.
  EXPECT_THAT(html, HasSubstr("<td class=\"num\"><a href=\"#line-1\">7</a>"));
  EXPECT_THAT(html, HasSubstr("<td class=\"num\"><a href=\"#line-0\">2</a>"));
  EXPECT_THAT(html,
              HasSubstr("<tr id=\"line-1\"><td class=\"loc\">a.xml</td><td "
                        "class=\"num\">7</td><td class=\"num\">3</td><td>"
                        "<code>&lt;loc&gt;x&lt;/loc&gt;</code></td><td><a "
                        "href=\"#code-e-code\">e-code</a> <a "
                        "href=\"#code-w-code\">w-code</a></td></tr>"));
  EXPECT_THAT(html, Not(HasSubstr("#line-2")))
      << "the fetched document's example has no quote and no link";
  EXPECT_THAT(html, HasSubstr("<td class=\"num\">2</td><td>far</td>"));
}

TEST(ReportHtml, WithoutQuotesThereIsNoLinesSection) {
  check_report r;
  r.documents.push_back(doc("a.xml", {{severity::error, "e", 3, 0, "m"}}));
  std::string html;
  append_report_html(html, small_stats(), group_findings(r));
  EXPECT_THAT(html, Not(HasSubstr("lines-section")));
  EXPECT_THAT(html, Not(HasSubstr("href=\"#line-")));
}

TEST(ReportHtml, ListsTheFirstThousandDocumentsAndSumsTheRest) {
  set_stats s;
  s.input = "big/";
  for (std::size_t i = 0; i < report_listed_documents + 5; ++i)
    s.documents.push_back({"big/s" + std::to_string(i) + ".xml",
                           document_kind::urlset,
                           10,
                           100,
                           {},
                           true});
  std::string html;
  append_report_html(html, s, {});
  EXPECT_EQ(testing::table_rows(html, "files"), report_listed_documents);
  EXPECT_THAT(html, HasSubstr("5 more documents (the first 1,000 are listed)"));
  EXPECT_THAT(html, HasSubstr("<td class=\"num\">50</td>"))
      << "the entries of the five not listed";
  EXPECT_THAT(html, HasSubstr("<p>No findings.</p>"));
}

TEST(ReportHtml, TheMonthChartHasABarForEveryMonthBetweenTheFirstAndLast) {
  set_stats s = small_stats();
  s.lastmod_months = {{"2025-11", 3}, {"2026-02", 7}};
  std::string html;
  append_report_html(html, s, {});
  for (const char* month :
       {"2025-11: 3", "2025-12: 0", "2026-01: 0", "2026-02: 7"})
    EXPECT_THAT(html, HasSubstr(std::string("<title>") + month + "</title>"))
        << month;
}

}  // namespace
}  // namespace sitemill
