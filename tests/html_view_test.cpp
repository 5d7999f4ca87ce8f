// The HTML view's pages (write/html_view.h) and the bundled stylesheet's
// name (write/stylesheet.h): what a person's browser is given must escape
// every text taken from a sitemap, and link only what cannot run.
#include "sitemill/write/html_view.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "sitemill/html/html_page.h"
#include "sitemill/write/stylesheet.h"

namespace sitemill {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string row_html(const html_view_row& row) {
  std::string out;
  append_html_row(out, 7, row);
  return out;
}

TEST(HtmlView, EscapesEveryFieldOfARow) {
  const std::string out =
      row_html({"https://www.example.com/a?x=1&y=\"2\"<script>", "<b>",
                "daily'", "0.5&"});
  EXPECT_THAT(out, HasSubstr("<td class=\"num\">7</td>"));
  EXPECT_THAT(out, HasSubstr("<a href=\"https://www.example.com/"
                             "a?x=1&amp;y=&quot;2&quot;&lt;script&gt;\">"));
  EXPECT_THAT(out, HasSubstr("<td>&lt;b&gt;</td>"));
  EXPECT_THAT(out, HasSubstr("<td>daily&apos;</td>"));
  EXPECT_THAT(out, HasSubstr("0.5&amp;</td>"));
  EXPECT_THAT(out, Not(HasSubstr("<script")));
  EXPECT_THAT(out, Not(HasSubstr("<b>")));
}

TEST(HtmlView, LinksOnlyHttpAndHttpsLocs) {
  EXPECT_THAT(row_html({"HTTPS://www.example.com/", "", "", ""}),
              HasSubstr("<a href="));
  EXPECT_THAT(row_html({"http://www.example.com/", "", "", ""}),
              HasSubstr("<a href="));
  for (const char* loc :
       {"javascript:alert(1)", "data:text/html,x", "JavaScript:x", "/a"}) {
    SCOPED_TRACE(loc);
    const std::string out = row_html({loc, "", "", ""});
    EXPECT_THAT(out, Not(HasSubstr("<a ")));
    EXPECT_THAT(out, HasSubstr(std::string(">") + loc + "</td>"));
  }
}

TEST(HtmlView, APageNamesItsRangeItsSitemapAndTheFrontPage) {
  std::string out;
  append_html_page_start(
      out, {"sitemap.html", "sitemap-2-abc.xml.gz", 1'001, 2'000, 4'500});
  append_html_row(out, 1'001, {"https://www.example.com/", "", "", ""});
  append_html_page_end(out);
  EXPECT_TRUE(out.starts_with("<!DOCTYPE html>"));
  EXPECT_THAT(out, HasSubstr("URLs 1,001 to 2,000 of 4,500 in <a "
                             "href=\"sitemap-2-abc.xml.gz\">"));
  EXPECT_THAT(out, HasSubstr("<a href=\"sitemap.html\">"));
  EXPECT_THAT(out, HasSubstr("<table id=\"urls\">"));
  EXPECT_TRUE(out.ends_with("</body></html>\n"));
  // Nothing runs and nothing is fetched: no script, no external resource.
  EXPECT_THAT(out, Not(HasSubstr("<script")));
  EXPECT_THAT(out, Not(HasSubstr("src=")));
  EXPECT_THAT(out, Not(HasSubstr("<link")));
}

TEST(HtmlView, TheFrontPageTotalsItsSitemapsAndLinksTheirPages) {
  std::vector<html_view_file> files = {
      {"sitemap-1-aaa.xml.gz", 50'000, "2025-05-01", {"p1.html", "p2.html"}},
      {"sitemap-2-bbb.xml.gz", 3, "", {"p3.html"}},
  };
  std::string out;
  append_html_front_page(out, "sitemap.xml", files);
  EXPECT_THAT(out, HasSubstr("<span id=\"file-count\">2</span>"));
  EXPECT_THAT(out, HasSubstr("<span id=\"url-count\">50,003</span>"));
  EXPECT_THAT(out, HasSubstr("<a href=\"sitemap.xml\">"));
  EXPECT_THAT(out, HasSubstr("<a href=\"p2.html\">2</a>"));
  EXPECT_THAT(out, HasSubstr("<td>2025-05-01</td>"));
  std::size_t rows = 0;
  for (std::size_t at = out.find("<tr><td"); at != std::string::npos;
       at = out.find("<tr><td", at + 1))
    ++rows;
  EXPECT_EQ(rows, 2u);
}

// The view pages are not pages of the site: as sitemill's own HTML reading
// (and a search engine) reads them, they say noindex.
TEST(HtmlView, EveryPageSaysNoindex) {
  std::string page;
  append_html_page_start(page,
                         {"sitemap.html", "sitemap-1-abc.xml.gz", 1, 1, 1});
  append_html_row(page, 1, {"https://www.example.com/", "", "", ""});
  append_html_page_end(page);
  const std::vector<html_view_file> files = {
      {"sitemap-1-abc.xml.gz", 1, "", {"sitemap-1.html"}}};
  std::string front;
  append_html_front_page(front, "sitemap.xml", files);
  for (const std::string* html : {&page, &front}) {
    EXPECT_TRUE(scan_html(*html, {}).noindex) << *html;
  }
}

TEST(Stylesheet, IsNamedAfterItsSetAndItsContent) {
  EXPECT_THAT(std::string(bundled_stylesheet()),
              HasSubstr("<xsl:stylesheet version=\"1.0\""));
  const std::string name = bundled_stylesheet_name("products");
  EXPECT_TRUE(std::regex_match(name, std::regex("products-[0-9a-f]{12}\\.xsl")))
      << name;
  EXPECT_EQ(name, bundled_stylesheet_name("products")) << "stable";
  // The same bytes: only the stem differs between sets.
  EXPECT_EQ(bundled_stylesheet_name("blog"), "blog" + name.substr(8));
}

}  // namespace
}  // namespace sitemill
