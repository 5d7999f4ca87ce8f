// Tests for sitemap_parser: every diagnostic code at its line and column,
// the edge cases of docs/protocol.md section 7 (E1-E30, E34-E36), the value
// tables of section 2 and checklist 31-34, the XSD verdict, formats (XML,
// text, gzip, RSS, Atom), lenient recovery, and chunk independence.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "parse/codes.h"
#include "parse/value_checks.h"
#include "parser_support.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/limits.h"
#include "sitemill/parse/sitemap_parser.h"

namespace sitemill {
namespace {

using testing::entry_copy;
using testing::ext_urlset;
using testing::gzip;
using testing::one_url;
using testing::parse;
using testing::parse_in_chunks;
using testing::parse_run;
using testing::sitemapindex;
using testing::urlset;

std::string repeat(std::string_view s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A <news:news> published at `date`.
std::string news(std::string_view date) {
  return "<news:news><news:publication><news:name>The Daily</news:name>"
         "<news:language>en</news:language></news:publication>"
         "<news:publication_date>" +
         std::string(date) +
         "</news:publication_date><news:title>T</news:title></news:news>";
}

// An <xhtml:link> alternate.
std::string link(std::string_view hreflang, std::string_view href) {
  return "<xhtml:link rel=\"alternate\" hreflang=\"" + std::string(hreflang) +
         "\" href=\"" + std::string(href) + "\"/>";
}

// The pinned time of the news tests: 2026-11-23T12:00:00Z.
std::chrono::system_clock::time_point news_time() {
  w3c_datetime when;
  EXPECT_EQ(parse_w3c_datetime("2026-11-23T12:00:00Z", when),
            datetime_problem::ok);
  return std::chrono::system_clock::time_point(
      std::chrono::seconds(when.unix_seconds()));
}

const std::string rss_head =
    "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel>\n";

// ---------------------------------------------------------------------------
// Every code, where it is reported (docs/diagnostics-document.md).

struct code_case {
  std::string_view code;
  std::string doc;
  std::uint64_t line, column;
  parse_options options = {};
};

std::vector<code_case> code_cases() {
  parse_options cap;
  cap.max_bytes = 50;
  parse_options extracting;  // as generate --from-sitemap reads
  extracting.schema_checks = false;
  const std::string plain = one_url("https://www.example.com/");
  const std::string gz = gzip(plain);
  std::string image_flood =
      "<url><loc>https://www.example.com/</loc><image:image>";
  image_flood += repeat("<image:caption/>", 20'001);
  image_flood += "</image:image></url>";
  std::string same_dates;
  for (int i = 0; i < 10; ++i)
    same_dates += "<url><loc>https://www.example.com/" + std::to_string(i) +
                  "</loc><lastmod>2024-01-01T00:00:00Z</lastmod></url>\n";
  const std::string a2048 = "https://www.example.com/" + std::string(2024, 'a');
  const std::string image =
      "<image:image><image:loc>https://www.example.com/a.jpg</image:loc>"
      "</image:image>";
  parse_options at_news_time;
  at_news_time.now = news_time();
  std::string news_flood;
  for (int i = 0; i < 1'001; ++i)
    news_flood += "<url><loc>https://www.example.com/" + std::to_string(i) +
                  "</loc>" + news("2026-11-23") + "</url>\n";
  return {
      // The bytes.
      {"empty-document", "", 0, 0},
      {"binary-content", std::string("\x01\x00\x02", 3), 1, 0},
      {"unsupported-compression", "PK\x03\x04zipped", 1, 1},
      {"gzip-corrupt",
       std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff\xff\xff\xff", 13),
       0, 0},
      {"gzip-truncated", gz.substr(0, gz.size() - 12), 0, 0},
      {"gzip-trailing-data", gz + "junk", 0, 0},
      {"decompressed-too-large", gz, 0, 0, cap},
      {"input-too-large", plain, 0, 0, cap},
      // XML.
      {"not-well-formed", one_url("https://www.example.com/</lo><loc>"), 3, 40},
      {"truncated",
       std::string(testing::xml_declaration) +
           std::string(testing::urlset_open) + "<url><loc>https://www.exa",
       3, 26},
      {"invalid-utf8", one_url("https://www.example.com/\xE9"), 3, 35},
      {"encoding-not-utf8",
       "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" +
           std::string(testing::urlset_open) +
           "<url><loc>https://www.example.com/</loc></url></urlset>",
       1, 1},
      {"xml-declaration-not-first", "\n\n  " + plain, 3, 3},
      {"entity-undefined", one_url("https://www.example.com/&nbsp;"), 3, 41},
      {"doctype",
       "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset>\n" +
           std::string(testing::urlset_open) +
           "<url><loc>https://www.example.com/</loc></url></urlset>",
       2, 0},
      {"dtd-entity",
       "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [\n<!ENTITY a \"b\">\n]>\n"
       "<urlset/>",
       3, 15},
      {"namespace-error", one_url("https://www.example.com/", "<x:foo/>"), 3,
       47},
      {"xml-warning",
       "<?xml version=\"1.1\"?>\n" + std::string(testing::urlset_open) +
           "<url><loc>https://www.example.com/</loc></url></urlset>",
       1, 20},
      // The root.
      {"unknown-root", "<?xml version=\"1.0\"?>\n<html><body/></html>", 2, 1},
      {"namespace-missing",
       "<?xml version=\"1.0\"?>\n<urlset><url><loc>https://www.example.com/"
       "</loc></url></urlset>",
       2, 1},
      {"namespace-legacy",
       "<?xml version=\"1.0\"?>\n<urlset "
       "xmlns=\"http://www.google.com/schemas/sitemap/0.84\"><url><loc>"
       "https://www.example.com/</loc></url></urlset>",
       2, 1},
      {"namespace-wrong",
       "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://example.com/ns\"><url>"
       "<loc>https://www.example.com/</loc></url></urlset>",
       2, 1},
      // Structure.
      {"no-entries", urlset(""), 0, 0},
      {"wrong-child",
       urlset("<sitemap><loc>https://www.example.com/s.xml</loc></sitemap>"), 3,
       1},
      {"entry-no-namespace",
       urlset("<url xmlns=\"\"><loc>https://www.example.com/</loc></url>"), 3,
       1},
      {"unknown-element", one_url("https://www.example.com/", "<foo/>"), 3, 41},
      {"element-order",
       urlset("<url><lastmod>2024-01-01</lastmod><loc>https://www.example.com/"
              "</loc></url>"),
       3, 35},
      {"duplicate-loc",
       one_url("https://www.example.com/",
               "<loc>https://www.example.com/b</loc>"),
       3, 41},
      {"duplicate-element",
       one_url("https://www.example.com/",
               "<lastmod>2024-01-01</lastmod><lastmod>2024-01-02</lastmod>"),
       3, 70},
      {"missing-loc", urlset("<url><lastmod>2024-01-01</lastmod></url>"), 3, 1},
      {"nested-element", one_url("https://www.example.com/<b/>"), 3, 35},
      {"unexpected-text", one_url("https://www.example.com/", "stray"), 3, 1},
      {"unexpected-attribute",
       urlset("<url id=\"1\"><loc>https://www.example.com/</loc></url>"), 3, 1},
      {"index-entry-field",
       sitemapindex("<sitemap><loc>https://www.example.com/s.xml</loc>"
                    "<changefreq>daily</changefreq></sitemap>"),
       3, 50},
      {"extension-unknown-namespace",
       one_url(
           "https://www.example.com/",
           "<m:mobile "
           "xmlns:m=\"http://www.google.com/schemas/sitemap-mobile/1.0\"/>"),
       3, 41},
      {"xsd-extension",
       ext_urlset("<url><loc>https://www.example.com/</loc>\n<image:image>"
                  "<image:caption>no loc</image:caption></image:image></url>"),
       4, 14},
      {"extension-namespace-wrong",
       one_url("https://www.example.com/",
               "<i:image xmlns:i=\"http://www.google.com/schemas/"
               "sitemap-image/2.0\"><i:loc>https://www.example.com/a.jpg"
               "</i:loc></i:image>"),
       3, 41},
      {"image-too-many",
       ext_urlset("<url><loc>https://www.example.com/</loc>" +
                  repeat(image, 1'000) + "\n" + image + "</url>"),
       4, 1},
      {"video-missing-field",
       ext_urlset("<url><loc>https://www.example.com/</loc>\n<video:video>"
                  "<video:thumbnail_loc>https://www.example.com/t.jpg"
                  "</video:thumbnail_loc><video:title>T</video:title>"
                  "<video:description>D</video:description></video:video>"
                  "</url>"),
       4, 1},
      {"news-too-old",
       ext_urlset("<url><loc>https://www.example.com/</loc>\n" +
                  news("2020-01-01") + "</url>"),
       4, 1},
      {"news-too-many", ext_urlset(news_flood), 1'003, 45, at_news_time},
      {"hreflang-invalid",
       ext_urlset("<url><loc>https://www.example.com/</loc>\n<xhtml:link "
                  "rel=\"alternate\" hreflang=\"en-UK\" "
                  "href=\"https://www.example.com/\"/></url>"),
       4, 1},
      {"hreflang-missing-href",
       ext_urlset("<url><loc>https://www.example.com/</loc>\n<xhtml:link "
                  "rel=\"alternate\" hreflang=\"en\"/></url>"),
       4, 1},
      {"hreflang-no-self",
       ext_urlset("<url><loc>https://www.example.com/</loc>" +
                  link("de", "https://www.example.com/de") + "</url>"),
       3, 1},
      {"hreflang-duplicate-language",
       ext_urlset("<url><loc>https://www.example.com/</loc>" +
                  link("en", "https://www.example.com/") +
                  link("de", "https://www.example.com/de") +
                  link("DE", "https://www.example.com/de2") + "</url>"),
       3, 1},
      {"hreflang-x-default-only",
       ext_urlset("<url><loc>https://www.example.com/</loc>" +
                  link("x-default", "https://www.example.com/") + "</url>"),
       3, 1},
      {"extension-too-large", ext_urlset(image_flood), 3, 41},
      {"extension-not-kept",
       ext_urlset("<url><loc>https://www.example.com/</loc>\n<image:image>"
                  "<image:loc>https://www.example.com/a.jpg</image:loc>"
                  "<image:colour>red</image:colour></image:image></url>"),
       4, 66, extracting},
      // loc.
      {"loc-empty", one_url(""), 3, 6},
      {"loc-not-absolute", one_url("/relative/page.html"), 3, 6},
      {"loc-not-http", one_url("ftp://ftp.example.com/file"), 3, 6},
      {"loc-too-long", one_url(a2048 + "b"), 3, 6},
      {"loc-length-2048", one_url(a2048), 3, 6},
      {"loc-too-short", one_url("http://a.b/"), 3, 6},
      {"loc-bad-percent", one_url("https://www.example.com/100%"), 3, 6},
      {"loc-space", one_url("https://www.example.com/a b"), 3, 6},
      {"loc-unsafe-char", one_url("https://www.example.com/a|b"), 3, 6},
      {"loc-non-ascii", one_url("https://www.example.com/\xC3\xBC"), 3, 6},
      {"loc-whitespace", one_url("&#160;https://www.example.com/"), 3, 6},
      {"loc-not-xsd", one_url("https://www.example.com/a[1]"), 3, 6},
      {"loc-fragment", one_url("https://www.example.com/a#top"), 3, 6},
      // lastmod.
      {"lastmod-malformed",
       one_url("https://www.example.com/", "<lastmod>yesterday</lastmod>"), 3,
       41},
      {"lastmod-no-zone",
       one_url("https://www.example.com/",
               "<lastmod>2024-01-01T10:20:30</lastmod>"),
       3, 41},
      {"lastmod-impossible",
       one_url("https://www.example.com/", "<lastmod>2023-02-29</lastmod>"), 3,
       41},
      {"lastmod-not-xsd",
       one_url("https://www.example.com/", "<lastmod>2024</lastmod>"), 3, 41},
      {"lastmod-not-w3c",
       one_url("https://www.example.com/",
               "<lastmod>2024-01-01+02:00</lastmod>"),
       3, 41},
      {"lastmod-padded",
       one_url("https://www.example.com/", "<lastmod> 2024-01-01 </lastmod>"),
       3, 41},
      {"lastmod-future",
       one_url("https://www.example.com/", "<lastmod>2999-01-01</lastmod>"), 3,
       41},
      {"lastmod-all-same", urlset(same_dates), 0, 0},
      // changefreq, priority.
      {"changefreq-invalid",
       one_url("https://www.example.com/",
               "<changefreq>sometimes</changefreq>"),
       3, 41},
      {"changefreq-case",
       one_url("https://www.example.com/", "<changefreq>Monthly</changefreq>"),
       3, 41},
      {"changefreq-padded",
       one_url("https://www.example.com/", "<changefreq> monthly</changefreq>"),
       3, 41},
      {"priority-invalid",
       one_url("https://www.example.com/", "<priority>5e-1</priority>"), 3, 41},
      {"priority-out-of-range",
       one_url("https://www.example.com/", "<priority>1.5</priority>"), 3, 41},
      // Text and feeds.
      {"text-not-url", "https://www.example.com/\nnot a url\n", 2, 1},
      {"feed-item-no-link",
       rss_head + "<item><title>t</title></item>\n</channel></rss>", 3, 1},
      {"feed-date-invalid",
       rss_head +
           "<item><link>https://www.example.com/</link><pubDate>yesterday"
           "</pubDate></item>\n</channel></rss>",
       3, 44},
      {"feed-date-nonstandard",
       rss_head +
           "<item><link>https://www.example.com/</link><pubDate>Sat, 07 Sep "
           "2002 00:00:01 UTC</pubDate></item>\n</channel></rss>",
       3, 44},
      {"feed-empty", rss_head + "</channel></rss>", 0, 0},
  };
}

TEST(Parser, ReportsEveryCodeAtItsLineAndColumn) {
  for (const auto& c : code_cases()) {
    SCOPED_TRACE(std::string(c.code));
    const parse_run run = parse(c.doc, c.options);
    const diagnostic* d = run.find(c.code);
    ASSERT_NE(d, nullptr) << run.describe();
    EXPECT_EQ(d->line, c.line) << d->message;
    EXPECT_EQ(d->column, c.column) << d->message;
    const auto* known = detail::find_document_code(c.code);
    ASSERT_NE(known, nullptr);
    EXPECT_EQ(d->level, known->level);
    EXPECT_GT(d->message.size(), 20u);
  }
}

// Codes with a test of their own (they need large inputs).
const std::set<std::string, std::less<>> codes_tested_elsewhere = {
    "too-large", "too-many-entries"};

TEST(Parser, HasACaseForEveryCode) {
  std::set<std::string, std::less<>> covered = codes_tested_elsewhere;
  for (const auto& c : code_cases()) covered.emplace(c.code);
  for (const auto& i : detail::all_document_codes())
    EXPECT_TRUE(covered.contains(i.name)) << i.name << " has no test case";
  EXPECT_EQ(covered.size(), detail::all_document_codes().size());
}

TEST(Parser, DocumentsEveryCodeWithItsSeverity) {
  const std::string doc = read_file(std::filesystem::path(SITEMILL_SOURCE_DIR) /
                                    "docs/diagnostics-document.md");
  ASSERT_FALSE(doc.empty());
  std::set<std::string> documented;
  std::istringstream lines(doc);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("| `")) continue;
    const auto end = line.find('`', 3);
    const std::string code = line.substr(3, end - 3);
    documented.insert(code);
    const auto* known = detail::find_document_code(code);
    ASSERT_NE(known, nullptr) << code << " is documented but never reported";
    EXPECT_NE(line.find("| " + std::string(to_string(known->level)) + " |"),
              std::string::npos)
        << code << " is documented with another severity";
  }
  for (const auto& i : detail::all_document_codes())
    EXPECT_TRUE(documented.contains(std::string(i.name)))
        << i.name << " is not documented";
}

TEST(Parser, CountsSeveritiesInTheSummary) {
  const parse_run run = parse(one_url(
      "/relative", "<changefreq> daily</changefreq><m:x xmlns:m=\"urn:x\"/>"));
  std::uint64_t errors = 0, warnings = 0, infos = 0;
  for (const auto& d : run.diagnostics) {
    errors += d.level == severity::error;
    warnings += d.level == severity::warning;
    infos += d.level == severity::info;
  }
  EXPECT_EQ(run.summary.errors, errors);
  EXPECT_EQ(run.summary.warnings, warnings);
  EXPECT_EQ(run.summary.infos, infos);
  EXPECT_GT(errors, 0u);
  EXPECT_GT(warnings, 0u);
  EXPECT_GT(infos, 0u);
}

// ---------------------------------------------------------------------------
// The edge cases of docs/protocol.md section 7 and the XSD verdict.

struct edge_case {
  std::string_view id;
  std::string doc;
  bool schema_valid;
  std::vector<std::string_view> codes;  // must all be reported
  std::size_t entries;
};

std::vector<edge_case> edge_cases() {
  const std::string url = "<url><loc>https://www.example.com/</loc></url>";
  const std::string a2048 = "https://www.example.com/" + std::string(2024, 'a');
  const std::string namespaced = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"";
  return {
      {"E1 BOM", "\xEF\xBB\xBF" + urlset(url), true, {}, 1},
      {"E2 whitespace before the declaration",
       "\n " + urlset(url),
       false,
       {"xml-declaration-not-first"},
       1},
      {"E3 no declaration",
       std::string(testing::urlset_open) + url + "</urlset>",
       true,
       {},
       1},
      {"E4 ISO-8859-1",
       "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n" +
           std::string(testing::urlset_open) +
           "<url><loc>https://www.example.com/\xFC</loc></url></urlset>",
       true,
       {"encoding-not-utf8", "loc-non-ascii"},
       1},
      {"E5 raw ampersand",
       one_url("https://www.example.com/?a=1&b=2"),
       false,
       {"not-well-formed"},
       0},
      {"E6 HTML entity",
       one_url("https://www.example.com/&nbsp;"),
       false,
       {"entity-undefined"},
       0},
      {"E7 raw less-than",
       urlset(url + "<url><loc>https://www.example.com/a<b</loc></url>"),
       false,
       {"not-well-formed"},
       1},
      {"E8 CDATA with raw ampersand",
       one_url("<![CDATA[https://www.example.com/?a=1&b=2]]>"),
       true,
       {},
       1},
      {"E9 padded loc",
       one_url("\n\t https://www.example.com/\n\t"),
       true,
       {},
       1},
      {"E10 NBSP before the URL",
       one_url("<![CDATA[\xC2\xA0https://www.example.com/]]>"),
       false,
       {"loc-whitespace"},
       1},
      {"E10 U+2000 after the URL",
       one_url("https://www.example.com/&#8192;"),
       true,
       {"loc-whitespace"},
       1},
      {"E11 relative loc",
       one_url("/some/relative/path.html"),
       true,
       {"loc-not-absolute"},
       1},
      {"E12 11 characters",
       one_url("http://a.bc"),
       false,
       {"loc-too-short"},
       1},
      {"E12 12 characters", one_url("http://a.bcd"), true, {}, 1},
      {"E13 2048 characters", one_url(a2048), true, {"loc-length-2048"}, 1},
      {"E13 2049 characters", one_url(a2048 + "b"), false, {"loc-too-long"}, 1},
      {"E14 space",
       one_url("https://www.example.com/a b"),
       true,
       {"loc-space"},
       1},
      {"E16 Monthly",
       one_url("https://www.example.com/", "<changefreq>Monthly</changefreq>"),
       false,
       {"changefreq-case"},
       1},
      {"E16 Never",
       one_url("https://www.example.com/", "<changefreq>Never</changefreq>"),
       false,
       {"changefreq-case"},
       1},
      {"E19 out of order",
       urlset("<url><changefreq>daily</changefreq><loc>https://www.example.com/"
              "</loc></url>"),
       false,
       {"element-order"},
       1},
      {"E19 duplicated",
       one_url("https://www.example.com/",
               "<priority>0.1</priority><priority>0.2</priority>"),
       false,
       {"duplicate-element"},
       1},
      {"E20 empty urlset", urlset(""), false, {"no-entries"}, 0},
      {"E20 empty sitemapindex", sitemapindex(""), false, {"no-entries"}, 0},
      {"E21 no namespace",
       "<?xml version=\"1.0\"?>\n<urlset>" + url + "</urlset>",
       false,
       {"namespace-missing"},
       1},
      {"E21 0.84",
       namespaced + "http://www.google.com/schemas/sitemap/0.84\">" + url +
           "</urlset>",
       false,
       {"namespace-legacy"},
       1},
      {"E21 https",
       namespaced + "https://www.sitemaps.org/schemas/sitemap/0.9\">" + url +
           "</urlset>",
       false,
       {"namespace-legacy"},
       1},
      {"E21 trailing slash",
       namespaced + "http://www.sitemaps.org/schemas/sitemap/0.9/\">" + url +
           "</urlset>",
       false,
       {"namespace-legacy"},
       1},
      {"E22 prefixed namespace",
       "<?xml version=\"1.0\"?>\n<sm:urlset "
       "xmlns:sm=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><sm:url>"
       "<sm:loc>https://www.example.com/</sm:loc></sm:url></sm:urlset>",
       true,
       {},
       1},
      {"E23 unknown element",
       urlset("<foo>x</foo>" + url),
       false,
       {"unknown-element"},
       1},
      {"E24 extension without schema",
       one_url("https://www.example.com/",
               "<pm:PageMap xmlns:pm=\"http://www.google.com/schemas/"
               "sitemap-pagemap/1.0\"><pm:DataObject/></pm:PageMap>"),
       false,
       {"extension-unknown-namespace"},
       1},
      {"E25 schemaLocation",
       "<?xml version=\"1.0\"?>\n<urlset "
       "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
       "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
       "xsi:schemaLocation=\"http://www.sitemaps.org/schemas/sitemap/0.9 "
       "http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd\">" +
           url + "</urlset>",
       true,
       {},
       1},
      {"E26 urlset holding sitemaps",
       urlset("<sitemap><loc>https://www.example.com/s.xml</loc></sitemap>"),
       false,
       {"wrong-child", "no-entries"},
       0},
      {"E27 sitemap text without loc",
       sitemapindex("<sitemap>\nhttps://www.example.com/s.xml?a=1&amp;b=2\n"
                    "</sitemap>"),
       false,
       {"missing-loc"},
       1},
      {"E28 truncated",
       std::string(testing::xml_declaration) +
           std::string(testing::urlset_open) + url + url + "<url><loc>htt",
       false,
       {"truncated"},
       2},
      {"E29 gzip", gzip(urlset(url)), true, {}, 1},
      {"E29 gzip of text", gzip("https://www.example.com/\n"), false, {}, 1},
      {"E30 text with BOM and CRLF",
       "\xEF\xBB\xBFhttps://www.example.com/a\r\nhttps://www.example.com/b\r\n",
       false,
       {},
       2},
      {"E34 hreflang underscore",
       ext_urlset("<url><loc>https://www.example.com/</loc><xhtml:link "
                  "rel=\"alternate\" hreflang=\"de_DE\" "
                  "href=\"https://www.example.com/de\"/></url>"),
       false,
       {"hreflang-invalid"},
       1},
      {"E34 hreflang dash",
       ext_urlset("<url><loc>https://www.example.com/</loc><xhtml:link "
                  "rel=\"alternate\" hreflang=\"de-DE\" "
                  "href=\"https://www.example.com/de\"/></url>"),
       true,
       {},
       1},
      {"E35 news language en-US",
       ext_urlset("<url><loc>https://www.example.com/</loc><news:news>"
                  "<news:publication><news:name>N</news:name><news:language>"
                  "en-US</news:language></news:publication>"
                  "<news:publication_date>2024-01-01</news:publication_date>"
                  "<news:title>T</news:title></news:news></url>"),
       false,
       {"xsd-extension"},
       1},
      {"E36 video duration 28801",
       ext_urlset("<url><loc>https://www.example.com/</loc><video:video>"
                  "<video:thumbnail_loc>https://www.example.com/t.jpg"
                  "</video:thumbnail_loc><video:title>T</video:title>"
                  "<video:description>D</video:description>"
                  "<video:content_loc>https://www.example.com/v.mp4"
                  "</video:content_loc><video:duration>28801</video:duration>"
                  "</video:video></url>"),
       false,
       {"xsd-extension"},
       1},
      {"E36 video duration 28800",
       ext_urlset("<url><loc>https://www.example.com/</loc><video:video>"
                  "<video:thumbnail_loc>https://www.example.com/t.jpg"
                  "</video:thumbnail_loc><video:title>T</video:title>"
                  "<video:description>D</video:description>"
                  "<video:content_loc>https://www.example.com/v.mp4"
                  "</video:content_loc><video:duration>28800</video:duration>"
                  "</video:video></url>"),
       true,
       {},
       1},
      {"image with loc",
       ext_urlset("<url><loc>https://www.example.com/</loc><image:image>"
                  "<image:loc>https://www.example.com/a.jpg</image:loc>"
                  "</image:image></url>"),
       true,
       {},
       1},
      {"image without loc",
       ext_urlset("<url><loc>https://www.example.com/</loc><image:image>"
                  "<image:caption>c</image:caption></image:image></url>"),
       false,
       {"xsd-extension"},
       1},
      {"extension element before loc",
       ext_urlset("<url><image:image><image:loc>https://www.example.com/a.jpg"
                  "</image:loc></image:image><loc>https://www.example.com/"
                  "</loc></url>"),
       false,
       {"element-order"},
       1},
      {"extension namespace declared on the element",
       one_url("https://www.example.com/",
               "<i:image xmlns:i=\"http://www.google.com/schemas/sitemap-image/"
               "1.1\"><i:loc>https://www.example.com/a.jpg</i:loc></i:image>"),
       true,
       {},
       1},
      {"comments and processing instructions",
       urlset("<!-- c --><url><?pi x?><loc>https://www.example.com/</loc>"
              "<!-- c --></url>"),
       true,
       {},
       1},
      {"whitespace-only CDATA in url",
       one_url("https://www.example.com/", "<![CDATA[ ]]>"),
       false,
       {"unexpected-text"},
       1},
      {"url inside loc (E40)",
       one_url("https://www.example.com/<url><loc>https://www.example.com/x"
               "</loc></url>"),
       false,
       {"nested-element"},
       1},
      {"index extension",
       sitemapindex(
           "<sitemap><loc>https://www.example.com/s.xml</loc><image:image "
           "xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">"
           "<image:loc>https://www.example.com/a.jpg</image:loc></image:image>"
           "</sitemap>"),
       false,
       {"extension-unknown-namespace"},
       1},
      {"valid index",
       sitemapindex("<sitemap><loc>https://www.example.com/s.xml</loc><lastmod>"
                    "2024-01-01</lastmod></sitemap>"),
       true,
       {},
       1},
      {"doctype without declarations",
       "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset>\n" +
           std::string(testing::urlset_open) + url + "</urlset>",
       true,
       {"doctype"},
       1},
  };
}

TEST(Parser, DecidesTheEdgeCasesOfTheProtocol) {
  for (const auto& c : edge_cases()) {
    SCOPED_TRACE(std::string(c.id));
    const parse_run run = parse(c.doc);
    EXPECT_EQ(run.summary.schema_valid, c.schema_valid) << run.describe();
    for (const auto code : c.codes)
      EXPECT_TRUE(run.has(code)) << code << "\n" << run.describe();
    EXPECT_EQ(run.entries.size(), c.entries) << run.describe();
    EXPECT_EQ(run.summary.entries, run.entries.size());
  }
}

TEST(Parser, TrimsWhatItDelivers) {
  // E8-E10: CDATA, XML whitespace and Unicode spaces around the URL.
  const parse_run run = parse(urlset(
      "<url><loc>\n <![CDATA[ https://www.example.com/?a=1&b=2 ]]>\n</loc>"
      "<lastmod> 2024-01-01 </lastmod><changefreq>\tdaily\n</changefreq>"
      "<priority> 0.5 </priority></url>\n"
      "<url><loc><![CDATA[\xC2\xA0https://www.example.com/b\xE2\x80\x80]]></"
      "loc>"
      "</url>"));
  ASSERT_EQ(run.entries.size(), 2u) << run.describe();
  EXPECT_EQ(run.entries[0].loc.text, "https://www.example.com/?a=1&b=2");
  EXPECT_EQ(run.entries[0].lastmod.text, "2024-01-01");
  EXPECT_EQ(run.entries[0].changefreq.text, "daily");
  EXPECT_EQ(run.entries[0].priority.text, "0.5");
  EXPECT_EQ(run.entries[1].loc.text, "https://www.example.com/b");
}

TEST(Parser, ReadsEntitiesAndCharacterReferences) {
  const parse_run run =
      parse(one_url("https://www.example.com/?a=1&amp;b=&#x32;&#51;&lt;&gt;"));
  ASSERT_EQ(run.entries.size(), 1u) << run.describe();
  EXPECT_EQ(run.entries[0].loc.text, "https://www.example.com/?a=1&b=23<>");
}

TEST(Parser, GivesEachFieldAndEntryItsPosition) {
  const parse_run run =
      parse(urlset("  <url>\n    <loc>https://www.example.com/</loc>\n"
                   "    <lastmod>2024-01-01</lastmod>\n  </url>\n"
                   "  <url\n     ><loc>https://www.example.com/b</loc></url>"));
  ASSERT_EQ(run.entries.size(), 2u) << run.describe();
  const entry_copy& a = run.entries[0];
  EXPECT_EQ(a.index, 0u);
  EXPECT_EQ(a.line, 3u);
  EXPECT_EQ(a.column, 3u);
  EXPECT_EQ(a.loc.line, 4u);
  EXPECT_EQ(a.loc.column, 5u);
  EXPECT_TRUE(a.lastmod.present);
  EXPECT_EQ(a.lastmod.line, 5u);
  EXPECT_EQ(a.lastmod.column, 5u);
  EXPECT_FALSE(a.changefreq.present);
  EXPECT_FALSE(a.priority.present);
  const entry_copy& b = run.entries[1];
  EXPECT_EQ(b.index, 1u);
  EXPECT_EQ(b.line, 7u);  // a start tag over two lines starts at its '<'
  EXPECT_EQ(b.column, 3u);
  EXPECT_EQ(b.loc.line, 8u);
  EXPECT_EQ(b.loc.column, 7u);
}

TEST(Parser, CountsLinesAndColumnsFromTheFileStart) {
  // A BOM is not a column; stripped whitespace before the declaration (E2)
  // still counts.
  const parse_run bom =
      parse("\xEF\xBB\xBF" + one_url("https://www.example.com/"));
  ASSERT_EQ(bom.entries.size(), 1u);
  EXPECT_EQ(bom.entries[0].loc.line, 3u);
  EXPECT_EQ(bom.entries[0].loc.column, 6u);
  const parse_run shifted =
      parse("\n\n  " + one_url("https://www.example.com/"));
  ASSERT_EQ(shifted.entries.size(), 1u);
  EXPECT_EQ(shifted.entries[0].loc.line, 5u);
  EXPECT_EQ(shifted.entries[0].loc.column, 6u);
  const parse_run first_line =
      parse(std::string(testing::urlset_open.substr(
                0, testing::urlset_open.size() - 1)) +
            "<url><loc>https://www.example.com/</loc></url></urlset>");
  ASSERT_EQ(first_line.entries.size(), 1u);
  EXPECT_EQ(first_line.entries[0].line, 1u);
  EXPECT_EQ(first_line.entries[0].column, 61u);
}

TEST(Parser, TellsTheKindOnceBeforeTheEntries) {
  struct order : parse_handler {
    std::string events;
    void on_document(document_kind k) override {
      events += "D(" + std::string(to_string(k)) + ")";
    }
    void on_entry(const parsed_entry&) override { events += "E"; }
  } handler;
  parse_bytes(urlset("<url><loc>https://www.example.com/a</loc></url>"
                     "<url><loc>https://www.example.com/b</loc></url>"),
              handler);
  EXPECT_EQ(handler.events, "D(urlset)EE");
}

TEST(Parser, NamesEachKind) {
  EXPECT_EQ(to_string(document_kind::unknown), "unknown");
  EXPECT_EQ(to_string(document_kind::urlset), "urlset");
  EXPECT_EQ(to_string(document_kind::sitemapindex), "sitemapindex");
  EXPECT_EQ(to_string(document_kind::text), "text");
  EXPECT_EQ(to_string(document_kind::rss), "rss");
  EXPECT_EQ(to_string(document_kind::atom), "atom");
}

// ---------------------------------------------------------------------------
// Values: docs/protocol.md section 2 (lastmod), checklist 31-34.

struct value_case {
  std::string value;
  bool xsd_valid;
  std::string_view code;  // "" when nothing is reported
};

void check_values(std::string_view element,
                  const std::vector<value_case>& cases) {
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(element) + " \"" + c.value + "\"");
    const std::string field = "<" + std::string(element) + ">" + c.value +
                              "</" + std::string(element) + ">";
    const parse_run run = parse(one_url("https://www.example.com/", field));
    EXPECT_EQ(run.summary.schema_valid, c.xsd_valid) << run.describe();
    if (c.code.empty()) {
      EXPECT_TRUE(run.diagnostics.empty()) << run.describe();
    } else {
      EXPECT_EQ(run.diagnostics.size(), 1u) << run.describe();
      EXPECT_TRUE(run.has(c.code)) << run.describe();
    }
    ASSERT_EQ(run.entries.size(), 1u);
  }
}

TEST(Parser, JudgesLastmodByTheW3CProfileAndTheXsd) {
  // The table of docs/protocol.md section 2, row by row, then calendar checks.
  check_values("lastmod",
               {
                   {"2005", false, "lastmod-not-xsd"},
                   {"2005-01", false, "lastmod-not-xsd"},
                   {"2005-01-01", true, ""},
                   {"2005-01-01+02:00", true, "lastmod-not-w3c"},
                   {"2005-01-01T10:20+01:00", false, "lastmod-not-xsd"},
                   {"2005-01-01T10:20:30+01:00", true, ""},
                   {"2005-01-01T10:20:30Z", true, ""},
                   {"2005-01-01T10:20:30.45+01:00", true, ""},
                   {"2005-01-01T10:20:30", true, "lastmod-no-zone"},
                   {"2005-01-01 10:20:30+01:00", false, "lastmod-malformed"},
                   {"2005-01-01T10:20:30+0100", false, "lastmod-malformed"},
                   {"2005-02-30", false, "lastmod-impossible"},
                   {"2005-01-01T24:00:00Z", true, "lastmod-impossible"},
                   {" 2005-01-01 ", true, "lastmod-padded"},
                   {"2004-02-29", true, ""},
                   {"", false, "lastmod-malformed"},
                   {"2005-01-01T10:20:30+15:00", false, "lastmod-impossible"},
                   {"10000-01-01", true, "lastmod-not-w3c"},
                   {"2999-12-31", true, "lastmod-future"},
               });
}

TEST(Parser, ShortcutsTheLastmodXsdVerdictExactly) {
  // check_lastmod skips xsd_accepts_lastmod where the W3C parse already
  // decides; the two must agree everywhere.
  std::vector<std::string> values = {"",
                                     "2005",
                                     "2005-01",
                                     " 2005-01-01 ",
                                     "2005-01-01+02:00",
                                     "10000-01-01",
                                     "-0001-01-01",
                                     "0000-01-01"};
  for (const char* year :
       {"0001", "1900", "2000", "2004", "2023", "2100", "9999"})
    for (int month : {1, 2, 4, 12, 13})
      for (int day : {1, 28, 29, 30, 31, 32}) {
        char date[16];
        std::snprintf(date, sizeof date, "%s-%02d-%02d", year, month, day);
        for (const char* time :
             {"", "T00:00:00Z", "T23:59:59+14:00", "T23:59:59-14:00",
              "T12:00:00+14:01", "T12:00:00-00:00", "T24:00:00Z", "T10:20Z",
              "T10:20:30", "T10:20:30.5Z", "T10:20:59.99999999999999Z",
              "T10:20:60Z", "T10:60:00Z", "Z", "+01:00"})
          values.push_back(std::string(date) + time);
      }
  for (const auto& v : values) {
    w3c_datetime dt;
    const auto problem = parse_w3c_datetime(detail::trim_xml(v), dt);
    EXPECT_EQ(detail::lastmod_xsd_verdict(v, problem, dt.form),
              xsd_accepts_lastmod(v))
        << v;
  }
}

TEST(Parser, AcceptsOnlyTheSevenLowercaseChangefreqs) {
  check_values("changefreq", {
                                 {"always", true, ""},
                                 {"hourly", true, ""},
                                 {"daily", true, ""},
                                 {"weekly", true, ""},
                                 {"monthly", true, ""},
                                 {"yearly", true, ""},
                                 {"never", true, ""},
                                 {"<![CDATA[daily]]>", true, ""},
                                 {"Monthly", false, "changefreq-case"},
                                 {"NEVER", false, "changefreq-case"},
                                 {" monthly ", false, "changefreq-padded"},
                                 {"\nmonthly\n", false, "changefreq-padded"},
                                 {"sometimes", false, "changefreq-invalid"},
                                 {"", false, "changefreq-invalid"},
                             });
}

TEST(Parser, ReadsPriorityAsAnXsdDecimalFromZeroToOne) {
  // E17, E18, and libxml2's 24-digit limit.
  check_values("priority",
               {
                   {"0.0", true, ""},
                   {"1.0", true, ""},
                   {"1", true, ""},
                   {".5", true, ""},
                   {"+0.5", true, ""},
                   {"-0.0", true, ""},
                   {"1.", true, ""},
                   {" 0.5 ", true, ""},
                   {"1.000", true, ""},
                   {"5e-1", false, "priority-invalid"},
                   {"0,5", false, "priority-invalid"},
                   {"", false, "priority-invalid"},
                   {".", false, "priority-invalid"},
                   {"1.5", false, "priority-out-of-range"},
                   {"-0.1", false, "priority-out-of-range"},
                   {"1.01", false, "priority-out-of-range"},
                   {"0.100000000000000000000000", true, ""},
                   {"0.1000000000000000000000000", false, "priority-invalid"},
               });
}

TEST(Parser, ChecksEachLocAgainstTheProtocolAndTheXsd) {
  const std::string a2048 = "https://www.example.com/" + std::string(2024, 'a');
  struct loc_case {
    std::string loc;
    bool xsd_valid;
    std::vector<std::string_view> codes;
  };
  const std::vector<loc_case> cases = {
      {"https://www.example.com/", true, {}},
      {"http://www.example.com:8080/a/b?c=d&amp;e=f#g", true, {"loc-fragment"}},
      {"HTTPS://WWW.EXAMPLE.COM/", true, {}},
      {"https://www.example.com/%C3%BC", true, {}},
      {"https://www.example.com/\xC3\xBC", true, {"loc-non-ascii"}},
      {"https://www.example.com/a b", true, {"loc-space"}},
      {"https://www.example.com/%zz", false, {"loc-bad-percent"}},
      {"https://www.example.com/%2", false, {"loc-bad-percent"}},
      {"https://www.example.com/a[1]", false, {"loc-not-xsd"}},
      {"https://www.example.com/#a#b", false, {"loc-not-xsd", "loc-fragment"}},
      {"https://www.example.com:/", false, {"loc-not-xsd"}},
      {"https://www.example.com/a\"b", true, {"loc-unsafe-char"}},
      {"mailto:someone@example.com", true, {"loc-not-http"}},
      {"//www.example.com/page", true, {"loc-not-absolute"}},
      {"http:///www.example.com/", true, {"loc-not-absolute"}},
      {"www.example.com/page", true, {"loc-not-absolute"}},
      {"relative", false, {"loc-not-absolute", "loc-too-short"}},
      {"", false, {"loc-empty"}},
      {a2048, true, {"loc-length-2048"}},
      {a2048 + "b", false, {"loc-too-long"}},
      {"https://www.example.com/" + repeat("\xC3\xA9", 2024),
       true,
       {"loc-length-2048", "loc-non-ascii"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.loc.substr(0, 60));
    const parse_run run = parse(one_url(c.loc));
    EXPECT_EQ(run.summary.schema_valid, c.xsd_valid) << run.describe();
    EXPECT_EQ(run.diagnostics.size(), c.codes.size()) << run.describe();
    for (const auto code : c.codes) EXPECT_TRUE(run.has(code)) << code;
  }
}

TEST(Parser, AgreesWithLibxml2OnAnyUriWhenTakingTheFastPath) {
  // The fast path may only say "valid" where xmlParseURI agrees.
  const std::vector<std::string> uris = {
      "https://www.example.com/",
      "http://a.b/",
      "https://www.example.com/a b",
      "https://www.example.com/\xC3\xBC",
      "https://www.example.com:65535/x?y=z#f",
      "https://www.example.com/a'b\"c<d>e{f}g|h\\i^j`k",
      "https://ex_ample.com/~a-b.c!$&'()*+,;=:@/?",
      "https://www.example.com/%41%42",
      "http://exa mple.com/",
      "https://www.example.com?q",
      "https://www.example.com#f",
  };
  std::string scratch;
  for (const auto& u : uris) {
    SCOPED_TRACE(u);
    EXPECT_TRUE(detail::any_uri_fast_path(u));
    EXPECT_TRUE(detail::xsd_any_uri(u, scratch));
  }
  for (const std::string_view u :
       {"https://www.example.com/%zz", "https://[::1/",
        "https://www.example.com/#a#b", "1http://x.com/",
        "https://www.example.com:/", "https://a.b/[x]"}) {
    SCOPED_TRACE(u);
    EXPECT_FALSE(detail::any_uri_fast_path(u));
    EXPECT_FALSE(detail::xsd_any_uri(u, scratch));
  }
}

// ---------------------------------------------------------------------------
// Formats.

TEST(Parser, ReadsAnIndexAndItsEntries) {
  const parse_run run = parse(sitemapindex(
      "<sitemap><loc>https://www.example.com/a.xml</loc><lastmod>"
      "2024-01-01T00:00:00Z</lastmod></sitemap>\n"
      "<sitemap><loc>https://www.example.com/b.xml.gz</loc></sitemap>"));
  EXPECT_EQ(run.kinds, std::vector<document_kind>{document_kind::sitemapindex});
  EXPECT_EQ(run.summary.kind, document_kind::sitemapindex);
  EXPECT_TRUE(run.summary.schema_valid) << run.describe();
  EXPECT_EQ(run.locs(),
            (std::vector<std::string>{"https://www.example.com/a.xml",
                                      "https://www.example.com/b.xml.gz"}));
  EXPECT_EQ(run.entries[0].lastmod.text, "2024-01-01T00:00:00Z");
}

TEST(Parser, ReadsTextSitemapsLineByLine) {
  // Checklist 22-23: BOM stripped, CRLF accepted, blank lines skipped,
  // other lines reported with their number.
  const parse_run run = parse(
      "\xEF\xBB\xBFhttps://www.example.com/a\r\n\r\n  "
      "https://www.example.com/b  \r\n"
      "# a comment\nhttps://www.example.com/c");
  EXPECT_EQ(run.summary.kind, document_kind::text);
  EXPECT_TRUE(run.summary.complete);
  EXPECT_FALSE(run.summary.schema_valid);
  EXPECT_EQ(run.locs(),
            (std::vector<std::string>{"https://www.example.com/a",
                                      "https://www.example.com/b",
                                      "https://www.example.com/c"}));
  EXPECT_EQ(run.entries[1].loc.line, 3u);
  EXPECT_EQ(run.entries[1].loc.column, 3u);
  EXPECT_EQ(run.entries[2].line, 5u);
  ASSERT_EQ(run.diagnostics.size(), 1u) << run.describe();
  EXPECT_EQ(run.diagnostics[0].code, "text-not-url");
  EXPECT_EQ(run.diagnostics[0].line, 4u);
}

TEST(Parser, ChecksTextLinesLikeLocs) {
  const parse_run run = parse(
      "https://www.example.com/a b\nftp://example.com/x\nhttp:example.com\n"
      "https://www.example.com/\xE9\n");
  EXPECT_TRUE(run.has("loc-space"));
  EXPECT_TRUE(run.has("loc-not-http"));
  EXPECT_TRUE(run.has("loc-not-absolute"));
  EXPECT_TRUE(run.has("invalid-utf8"));
  EXPECT_EQ(run.find("invalid-utf8")->line, 4u);
  EXPECT_EQ(run.entries.size(), 3u);  // the bad UTF-8 line is skipped
}

TEST(Parser, StopsAtBinaryContent) {
  const parse_run run = parse(std::string("GIF89a\x00\x01\x02", 9));
  EXPECT_TRUE(run.has("binary-content"));
  EXPECT_FALSE(run.summary.complete);
  EXPECT_TRUE(run.entries.empty());
}

TEST(Parser, TellsUtf16FromUtf8) {
  // Checklist 36: UTF-16 is an error, read leniently when it is XML.
  const std::string doc =
      urlset("<url><loc>https://www.example.com/</loc></url>");
  std::string le = "\xFF\xFE";
  for (const char c : doc) {
    le += c;
    le += '\0';
  }
  const parse_run run = parse(le);
  EXPECT_TRUE(run.has("encoding-not-utf8")) << run.describe();
  EXPECT_EQ(run.locs(), std::vector<std::string>{"https://www.example.com/"});
  EXPECT_FALSE(run.summary.schema_valid);
  std::string text = "\xFF\xFE";
  for (const char c : std::string_view("https://www.example.com/\n")) {
    text += c;
    text += '\0';
  }
  const parse_run t = parse(text);
  EXPECT_TRUE(t.has("encoding-not-utf8"));
  EXPECT_TRUE(t.entries.empty());
  EXPECT_FALSE(t.summary.complete);
}

TEST(Parser, StopsQuietlyWhenTheDeclaredEncodingCannotBeDecoded) {
  // libxml2 reports a failed conversion to its global handler (stderr) and
  // halts; the parser must say so itself, and print nothing.
  const std::string doc =
      "<?xml version=\"1.0\" encoding=\"UTF-7\"?>\n" +
      std::string(testing::urlset_open) +
      "<url><loc>https://www.example.com/a</loc></url>\n<url><loc>"
      "https://www.example.com/\xFF\xFF\xFF\xFF</loc></url></urlset>";
  ::testing::internal::CaptureStderr();
  const parse_run run = parse(doc);
  const std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(printed, "");
  EXPECT_TRUE(run.has("encoding-not-utf8"));
  EXPECT_TRUE(run.has("not-well-formed")) << run.describe();
  EXPECT_FALSE(run.summary.complete);
  EXPECT_FALSE(run.summary.schema_valid);
}

TEST(Parser, SniffsGzipByItsMagicBytes) {
  const std::string doc =
      urlset("<url><loc>https://www.example.com/</loc></url>");
  const parse_run run = parse(gzip(doc));
  EXPECT_TRUE(run.summary.gzipped);
  EXPECT_TRUE(run.summary.complete);
  EXPECT_TRUE(run.summary.schema_valid) << run.describe();
  EXPECT_EQ(run.summary.bytes, doc.size());
  EXPECT_EQ(run.locs(), std::vector<std::string>{"https://www.example.com/"});
  const parse_run plain = parse(doc);
  EXPECT_FALSE(plain.summary.gzipped);
  EXPECT_EQ(plain.summary.bytes, doc.size());
}

TEST(Parser, ReadsConcatenatedGzipMembersAsOneStream) {
  const std::string doc = urlset(
      "<url><loc>https://www.example.com/a</loc></url>"
      "<url><loc>https://www.example.com/b</loc></url>");
  const std::size_t half = doc.size() / 2;
  const parse_run run =
      parse(gzip(doc.substr(0, half)) + gzip(doc.substr(half)));
  EXPECT_TRUE(run.summary.complete) << run.describe();
  EXPECT_TRUE(run.diagnostics.empty()) << run.describe();
  EXPECT_EQ(run.entries.size(), 2u);
}

// One gzip inflater for every reader: after a whole member, anything that is
// not another member is trailing data (a warning here; the list readers
// refuse it), even one byte, which the parser used to call a cut-off member.
TEST(Parser, CallsAnythingAfterTheLastGzipMemberTrailingData) {
  const std::string doc =
      urlset("<url><loc>https://www.example.com/</loc></url>");
  for (const std::string& tail :
       {std::string("\n"), std::string("junk"), std::string(100, '\0'),
        std::string("\x1F\x8Bnot a member")}) {
    const parse_run run = parse(gzip(doc) + tail);
    EXPECT_TRUE(run.has("gzip-trailing-data")) << run.describe();
    EXPECT_FALSE(run.has("gzip-truncated")) << run.describe();
    EXPECT_TRUE(run.summary.complete) << run.describe();
    EXPECT_EQ(run.entries.size(), 1u);
  }
}

TEST(Parser, ReportsRejectedCompressionFormats) {
  for (const std::string& head :
       {std::string("PK\x03\x04"), std::string("BZh91AY"),
        std::string("\xFD"
                    "7zXZ\0",
                    6),
        std::string("\x28\xB5\x2F\xFD"),
        gzip(gzip("https://www.example.com/\n"))}) {
    const parse_run run = parse(head + "rest of the file");
    EXPECT_TRUE(run.has("unsupported-compression")) << run.describe();
    EXPECT_FALSE(run.summary.complete);
  }
}

TEST(Parser, ReadsRssItems) {
  const parse_run run = parse(
      rss_head +
      "<item><link>https://www.example.com/1</link><pubDate>Sat, 07 Sep 2002 "
      "00:00:01 GMT</pubDate></item>\n"
      "<item><guid>https://www.example.com/2</guid></item>\n"
      "<item><guid "
      "isPermaLink=\"false\">https://www.example.com/3</guid></item>\n"
      "<item><link>https://www.example.com/4<![CDATA[?a=1&b=2]]></link>"
      "<pubDate>05 Jan 17 13:34:55</pubDate></item>\n</channel></rss>");
  EXPECT_EQ(run.kinds, std::vector<document_kind>{document_kind::rss});
  EXPECT_EQ(run.locs(),
            (std::vector<std::string>{"https://www.example.com/1",
                                      "https://www.example.com/2",
                                      "https://www.example.com/4?a=1&b=2"}));
  EXPECT_EQ(run.entries[0].lastmod.text, "Sat, 07 Sep 2002 00:00:01 GMT");
  EXPECT_EQ(run.count("feed-item-no-link"), 1u);
  EXPECT_EQ(run.count("feed-date-invalid"), 1u);
  EXPECT_FALSE(run.summary.schema_valid);
  EXPECT_TRUE(run.summary.complete);
}

TEST(Parser, ReadsRss1Items) {
  const parse_run run = parse(
      "<?xml version=\"1.0\"?>\n<rdf:RDF "
      "xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" "
      "xmlns=\"http://purl.org/rss/1.0/\" "
      "xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel/>"
      "<item rdf:about=\"https://www.example.com/1\"><link>"
      "https://www.example.com/1</link><dc:date>2024-01-01T00:00:00Z</dc:date>"
      "</item></rdf:RDF>");
  EXPECT_EQ(run.summary.kind, document_kind::rss);
  EXPECT_EQ(run.locs(), std::vector<std::string>{"https://www.example.com/1"});
  EXPECT_EQ(run.entries[0].lastmod.text, "2024-01-01T00:00:00Z");
  EXPECT_TRUE(run.diagnostics.empty()) << run.describe();
}

TEST(Parser, ReadsAtomEntries) {
  const parse_run run = parse(
      "<?xml version=\"1.0\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">"
      "<link href=\"https://www.example.com/feed\" rel=\"self\"/>\n"
      "<entry><link rel=\"edit\" href=\"https://www.example.com/edit\"/>"
      "<link rel=\"alternate\" href=\"https://www.example.com/1?a=1&amp;b=2\"/>"
      "<updated>2003-12-13T18:30:02Z</updated></entry>\n"
      "<entry><link href=\"https://www.example.com/2\"/><updated>2003-12-13"
      "</updated></entry>\n<entry><title>no link</title></entry>\n</feed>");
  EXPECT_EQ(run.kinds, std::vector<document_kind>{document_kind::atom});
  EXPECT_EQ(run.locs(),
            (std::vector<std::string>{"https://www.example.com/1?a=1&b=2",
                                      "https://www.example.com/2"}));
  EXPECT_EQ(run.entries[0].lastmod.text, "2003-12-13T18:30:02Z");
  EXPECT_EQ(run.entries[0].loc.line, 3u);
  // A date without time: readable, but not the date-time Atom asks for.
  EXPECT_EQ(run.count("feed-date-nonstandard"), 1u);
  EXPECT_EQ(run.count("feed-date-invalid"), 0u);
  EXPECT_EQ(run.count("feed-item-no-link"), 1u);
}

TEST(Parser, ReadsAtom03Entries) {
  const parse_run run = parse(
      "<feed version=\"0.3\" xmlns=\"http://purl.org/atom/ns#\"><entry>"
      "<link rel=\"alternate\" type=\"text/html\" "
      "href=\"https://www.example.com/1\"/>"
      "<modified>2003-12-13T18:30:02Z</modified></entry></feed>");
  EXPECT_EQ(run.summary.kind, document_kind::atom);
  ASSERT_EQ(run.entries.size(), 1u);
  EXPECT_EQ(run.entries[0].lastmod.text, "2003-12-13T18:30:02Z");
  EXPECT_TRUE(run.diagnostics.empty()) << run.describe();
}

TEST(Parser, ReportsAnUnknownRootAndReadsNothing) {
  const parse_run run = parse(
      "<?xml version=\"1.0\"?>\n<foo><url><loc>"
      "https://www.example.com/</loc></url></foo>");
  EXPECT_TRUE(run.has("unknown-root"));
  EXPECT_TRUE(run.kinds.empty());
  EXPECT_EQ(run.summary.kind, document_kind::unknown);
  EXPECT_TRUE(run.entries.empty());
}

// ---------------------------------------------------------------------------
// Limits.

TEST(Parser, CountsEntriesBeyondFiftyThousandAndSaysSoOnce) {
  // Checklist 35: the XSD does not count; the 50,001st entry is an error.
  const std::string url = "<url><loc>https://www.example.com/</loc></url>\n";
  for (const std::size_t n : {max_urls_per_sitemap, max_urls_per_sitemap + 2}) {
    SCOPED_TRACE(n);
    const parse_run run = parse(urlset(repeat(url, n)));
    EXPECT_EQ(run.summary.entries, n);
    EXPECT_EQ(run.count("too-many-entries"),
              n > max_urls_per_sitemap ? 1u : 0u);
    EXPECT_TRUE(run.summary.schema_valid);  // the schema has no such limit
    if (n > max_urls_per_sitemap) {
      EXPECT_EQ(run.find("too-many-entries")->line, 3 + max_urls_per_sitemap);
    }
  }
  std::string text;
  for (std::size_t i = 0; i <= max_urls_per_sitemap; ++i)
    text += "https://www.example.com/\n";
  EXPECT_EQ(parse(text).count("too-many-entries"), 1u);
}

TEST(Parser, ReportsADocumentOverFiftyMegabytesAndStopsAtTheCap) {
  // Checklist 35 and 25: 52,428,800 bytes is the limit; reading stops at
  // parse_options::max_bytes.
  std::string doc = urlset("<url><loc>https://www.example.com/</loc></url>");
  const std::size_t close = doc.rfind("</urlset>");
  const std::string padded =
      doc.substr(0, close) +
      std::string(max_bytes_per_sitemap + 1 - doc.size(), ' ') +
      doc.substr(close);
  ASSERT_EQ(padded.size(), max_bytes_per_sitemap + 1);
  const parse_run over = parse(padded);
  EXPECT_EQ(over.count("too-large"), 1u);
  EXPECT_TRUE(over.summary.complete);
  EXPECT_EQ(over.summary.bytes, padded.size());
  const parse_run at_limit = parse(
      doc.substr(0, close) +
      std::string(max_bytes_per_sitemap - doc.size(), ' ') + doc.substr(close));
  EXPECT_FALSE(at_limit.has("too-large")) << at_limit.describe();

  parse_options small;
  small.max_bytes = 100;
  const parse_run capped = parse(padded, small);
  EXPECT_TRUE(capped.has("input-too-large"));
  EXPECT_FALSE(capped.summary.complete);
  EXPECT_EQ(capped.summary.bytes, 100u);
}

// ---------------------------------------------------------------------------
// Lenient reading: what comes before a fatal error is kept (checklist 26).

TEST(Parser, KeepsTheEntriesReadBeforeACut) {
  std::string doc = urlset("");
  doc.resize(doc.rfind("</urlset>"));
  // "&amp;" and CDATA: a cut inside them makes libxml2 wait for a delimiter
  // that never comes, which must still read as a cut.
  for (int i = 0; i < 5; ++i)
    doc += "<url><loc>https://www.example.com/?a=" + std::to_string(i) +
           "&amp;b=<![CDATA[c]]></loc></url>\n";
  doc += "</urlset>\n";
  const parse_run full = parse(doc);
  ASSERT_EQ(full.entries.size(), 5u);
  for (std::size_t cut = 0; cut < doc.size(); ++cut) {
    SCOPED_TRACE(cut);
    const std::string head = doc.substr(0, cut);
    const parse_run run = parse(head);
    // Entries whose </url> is in the cut-off text, and only those.
    std::size_t closed = 0;
    for (std::size_t p = head.find("</url>"); p != std::string::npos;
         p = head.find("</url>", p + 1))
      ++closed;
    ASSERT_EQ(run.entries.size(), closed) << run.describe();
    for (std::size_t i = 0; i < closed; ++i)
      EXPECT_EQ(run.entries[i], full.entries[i]);
    const bool whole_root = head.find("</urlset>") != std::string::npos;
    EXPECT_EQ(run.summary.complete, whole_root || cut == 0) << run.describe();
    EXPECT_FALSE(run.summary.schema_valid && !whole_root);
    if (!whole_root && cut > 0) {
      EXPECT_GT(run.summary.errors, 0u);
    }
    if (head.find("<url>") != std::string::npos && !whole_root) {
      EXPECT_TRUE(run.has("truncated")) << run.describe();
    }
  }
}

TEST(Parser, KeepsTheEntriesOfACutGzipStream) {
  std::string body;
  for (int i = 0; i < 200; ++i)
    body += "<url><loc>https://www.example.com/" + std::to_string(i) +
            "</loc></url>\n";
  const std::string gz = gzip(urlset(body));
  std::size_t last = 0;
  for (std::size_t cut = 20; cut < gz.size(); cut += 7) {
    SCOPED_TRACE(cut);
    const parse_run run = parse(gz.substr(0, cut));
    EXPECT_TRUE(run.has("gzip-truncated")) << run.describe();
    EXPECT_FALSE(run.summary.complete);
    EXPECT_GE(run.entries.size(), last);  // more bytes never mean fewer URLs
    last = run.entries.size();
  }
  EXPECT_GT(last, 150u);
}

TEST(Parser, KeepsReadingAfterAnEntryLevelError) {
  const parse_run run = parse(urlset(
      "<url><lastmod>2024-01-01</lastmod></url>\n"
      "<url><loc>https://www.example.com/a</loc><loc>https://www.example.com/x"
      "</loc></url>\n<foo/>\n<url><loc>https://www.example.com/b</loc></url>"));
  EXPECT_EQ(run.locs(),
            (std::vector<std::string>{"https://www.example.com/a",
                                      "https://www.example.com/b"}));
  EXPECT_TRUE(run.has("missing-loc"));
  EXPECT_TRUE(run.has("duplicate-loc"));
  EXPECT_TRUE(run.has("unknown-element"));
  EXPECT_TRUE(run.summary.complete);
}

// ---------------------------------------------------------------------------
// Options.

TEST(Parser, SkipsValueChecksWhenSchemaChecksAreOff) {
  parse_options off;
  off.schema_checks = false;
  const std::string doc =
      one_url("/relative",
              "<lastmod>2014</lastmod><changefreq>Never</changefreq>"
              "<priority>2</priority><m:x xmlns:m=\"urn:x\"/>");
  const parse_run run = parse(doc, off);
  // The one report left is what extraction needs: content it cannot keep.
  ASSERT_EQ(run.diagnostics.size(), 1u) << run.describe();
  EXPECT_EQ(run.diagnostics[0].code, "extension-unknown-namespace");
  ASSERT_EQ(run.entries.size(), 1u);
  EXPECT_EQ(run.entries[0].loc.text, "/relative");
  EXPECT_EQ(run.entries[0].changefreq.text, "Never");
  EXPECT_FALSE(run.summary.schema_valid);
  EXPECT_GE(parse(doc).diagnostics.size(), 5u);
  // What extraction needs is still reported.
  EXPECT_TRUE(parse(urlset("<url/>"), off).has("missing-loc"));
  EXPECT_TRUE(
      parse(one_url("https://www.example.com/&"), off).has("not-well-formed"));
  EXPECT_FALSE(
      parse(one_url("https://www.example.com/"), off).summary.schema_valid);
}

// ---------------------------------------------------------------------------
// Feeding: the split of the bytes changes nothing.

std::vector<std::string> feeding_corpus() {
  std::vector<std::string> docs;
  for (const auto& c : code_cases())
    if (c.options.max_bytes == parse_options{}.max_bytes &&
        c.doc.size() < 100'000)
      docs.push_back(c.doc);
  for (const auto& c : edge_cases()) docs.push_back(c.doc);
  const auto dir =
      std::filesystem::path(SITEMILL_SOURCE_DIR) / "tests/data/conformance";
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.file_size() < 100'000)
      docs.push_back(read_file(e.path()));
  std::string big;
  for (int i = 0; i < 3000; ++i)
    big += "<url><loc>https://www.example.com/" + std::to_string(i) +
           "</loc><lastmod>2024-01-01</lastmod></url>\n";
  docs.push_back(urlset(big));
  docs.push_back(gzip(urlset(big)));
  return docs;
}

void expect_same(const parse_run& a, const parse_run& b) {
  EXPECT_EQ(a.kinds, b.kinds);
  EXPECT_EQ(a.entries, b.entries);
  EXPECT_TRUE(testing::same_diagnostics(a.diagnostics, b.diagnostics))
      << "one:\n"
      << a.describe() << "other:\n"
      << b.describe();
  EXPECT_TRUE(testing::same_summary(a.summary, b.summary));
}

TEST(Parser, GivesTheSameResultsFedOneByteAtATime) {
  for (const auto& doc : feeding_corpus()) {
    SCOPED_TRACE(doc.substr(0, 80));
    expect_same(parse(doc), parse_in_chunks(doc, 1));
  }
}

TEST(Parser, GivesTheSameResultsFedInAnyChunks) {
  std::mt19937 rng(20240517);
  for (const auto& doc : feeding_corpus()) {
    SCOPED_TRACE(doc.substr(0, 80));
    const parse_run whole = parse(doc);
    for (const std::size_t chunk :
         {std::size_t{7}, std::size_t{4096}, std::size_t{65'537}})
      expect_same(whole, parse_in_chunks(doc, chunk));
    parse_run run;
    testing::recorder r(run);
    sitemap_parser parser(r);
    for (std::size_t i = 0; i < doc.size();) {
      const std::size_t n =
          std::min<std::size_t>(rng() % 300 + 1, doc.size() - i);
      parser.feed(doc.data() + i, n);
      i += n;
    }
    run.summary = parser.finish();
    expect_same(whole, run);
  }
}

TEST(Parser, IgnoresFeedsAfterItStopped) {
  parse_run run;
  testing::recorder r(run);
  sitemap_parser parser(r);
  const std::string bad =
      one_url("https://www.example.com/&nbsp;") + repeat(" ", 70'000);
  EXPECT_FALSE(parser.feed(bad.data(), bad.size()));
  EXPECT_FALSE(parser.feed("<url>", 5));
  run.summary = parser.finish();
  EXPECT_FALSE(run.summary.complete);
  EXPECT_EQ(run.count("entity-undefined"), 1u);
  const parse_summary again = parser.finish();
  EXPECT_TRUE(testing::same_summary(again, run.summary));
}

// ---------------------------------------------------------------------------
// parse_file.

TEST(Parser, ParsesAFile) {
  const auto path =
      std::filesystem::temp_directory_path() /
      ("sitemill_parser_" + std::to_string(::getpid()) + ".xml.gz");
  const std::string doc =
      urlset("<url><loc>https://www.example.com/</loc></url>");
  {
    std::ofstream out(path, std::ios::binary);
    out << gzip(doc);
  }
  parse_run run;
  testing::recorder r(run);
  const auto result = parse_file(path.string(), r);
  std::filesystem::remove(path);
  ASSERT_TRUE(result.has_value()) << result.err().message;
  EXPECT_TRUE(result->gzipped);
  EXPECT_TRUE(result->schema_valid);
  EXPECT_EQ(result->entries, 1u);
  EXPECT_EQ(run.locs(), std::vector<std::string>{"https://www.example.com/"});
}

TEST(Parser, ReportsAFileItCannotRead) {
  parse_run run;
  testing::recorder r(run);
  const auto missing = parse_file("/nonexistent/sitemap.xml", r);
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.err().message.find("/nonexistent/sitemap.xml"),
            std::string::npos);
  const auto dir =
      parse_file(std::filesystem::temp_directory_path().string(), r);
  ASSERT_FALSE(dir.has_value());
  EXPECT_NE(dir.err().message.find("cannot read"), std::string::npos);
}

// ---------------------------------------------------------------------------
// Google's rules for the extensions beyond their schemas (docs/protocol.md 3).

TEST(ParserExtensions, ReportsTheImageAfterTheThousandthOfAUrl) {
  const std::string image =
      "<image:image><image:loc>https://www.example.com/a.jpg</image:loc>"
      "</image:image>";
  for (const std::size_t n : {1'000u, 1'001u, 2'000u}) {
    SCOPED_TRACE(n);
    const parse_run run = parse(ext_urlset(
        "<url><loc>https://www.example.com/</loc>" + repeat(image, n) +
        "</url><url><loc>https://www.example.com/b</loc>" + image + "</url>"));
    EXPECT_EQ(run.count("image-too-many"), n > 1'000 ? 1u : 0u)
        << run.describe();
    EXPECT_TRUE(run.summary.schema_valid) << "the schema has no such limit";
  }
}

TEST(ParserExtensions, MeasuresNewsAgeFromThePinnedTimeOfTheCheck) {
  parse_options o;
  o.now = news_time();  // 2026-11-23T12:00:00Z
  struct row {
    std::string_view date;
    bool too_old;
  };
  for (const row& r : {row{"2026-11-23T12:00:00Z", false},
                       row{"2026-11-21T12:00:00Z", false},  // exactly 2 days
                       row{"2026-11-21T11:59:59Z", true},
                       row{"2026-11-21T13:00:00+01:00", false},
                       row{"2026-11-21", true},  // midnight UTC
                       row{"2020-01-01", true}, row{"2027-01-01", false}}) {
    SCOPED_TRACE(r.date);
    const parse_run run =
        parse(ext_urlset("<url><loc>https://www.example.com/</loc>" +
                         news(r.date) + "</url>"),
              o);
    EXPECT_EQ(run.has("news-too-old"), r.too_old) << run.describe();
  }
}

TEST(ParserExtensions, CountsNewsPerDocumentUpToAThousand) {
  parse_options o;
  o.now = news_time();
  for (const int n : {1'000, 1'001}) {
    std::string body;
    for (int i = 0; i < n; ++i)
      body += "<url><loc>https://www.example.com/" + std::to_string(i) +
              "</loc>" + news("2026-11-23") + "</url>\n";
    const parse_run run = parse(ext_urlset(body), o);
    EXPECT_EQ(run.count("news-too-many"), n > 1'000 ? 1u : 0u) << n;
  }
}

TEST(ParserExtensions, NamesEachMissingVideoFieldOnceAtTheElement) {
  const std::string thumb =
      "<video:thumbnail_loc>https://www.example.com/t.jpg"
      "</video:thumbnail_loc>";
  const std::string title = "<video:title>T</video:title>";
  const std::string description = "<video:description>D</video:description>";
  const std::string content =
      "<video:content_loc>https://www.example.com/v.mp4</video:content_loc>";
  const std::string player =
      "<video:player_loc>https://www.example.com/p</video:player_loc>";
  struct row {
    std::string inner;
    std::vector<std::string_view> missing;  // named in the message
  };
  const row rows[] = {
      {thumb + title + description + content, {}},
      {thumb + title + description + player, {}},
      {thumb + title + description, {"content_loc or video:player_loc"}},
      {title + description + content, {"video:thumbnail_loc"}},
      {thumb + description + content, {"video:title"}},
      {thumb + title + content, {"video:description"}},
      {content, {"thumbnail_loc", "title", "description"}},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.inner);
    const parse_run run =
        parse(ext_urlset("<url><loc>https://www.example.com/</loc>\n"
                         "<video:video>" +
                         r.inner + "</video:video></url>"));
    const diagnostic* d = run.find("video-missing-field");
    ASSERT_EQ(d != nullptr, !r.missing.empty()) << run.describe();
    if (d == nullptr) continue;
    EXPECT_EQ(d->line, 4u);
    EXPECT_EQ(d->column, 1u);
    for (auto m : r.missing)
      EXPECT_NE(d->message.find(m), std::string::npos) << d->message;
    EXPECT_FALSE(run.has("xsd-extension")) << "said once, with its own code\n"
                                           << run.describe();
  }
}

TEST(ParserExtensions, JudgesHreflangCodesWithTheRealTablesAndSuggests) {
  struct row {
    std::string_view tag;
    bool valid;
    std::string_view suggestion;  // "" when none
  };
  const row rows[] = {
      {"de", true, ""},          {"de-AT", true, ""},
      {"zh-Hant", true, ""},     {"es-419", true, ""},
      {"x-default", true, ""},   {"EN-gb", true, ""},
      {"de_DE", false, "de-DE"}, {"en-UK", false, "en-GB"},
      {"en_uk", false, "en-GB"}, {"eng", false, ""},
      {"de-XX", false, ""},      {"xx", false, ""},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.tag);
    const parse_run run =
        parse(ext_urlset("<url><loc>https://www.example.com/</loc>" +
                         link(r.tag, "https://www.example.com/") + "</url>"));
    const diagnostic* d = run.find("hreflang-invalid");
    ASSERT_EQ(d == nullptr, r.valid) << run.describe();
    if (d != nullptr && !r.suggestion.empty()) {
      EXPECT_NE(
          d->message.find("did you mean \"" + std::string(r.suggestion) + "\""),
          std::string::npos)
          << d->message;
    }
    EXPECT_FALSE(run.has("xsd-extension")) << run.describe();
  }
}

TEST(ParserExtensions, ChecksEachPagesOwnAlternates) {
  const std::string self = link("en", "https://www.example.com/");
  const std::string de = link("de", "https://www.example.com/de");
  struct row {
    std::string links;
    std::vector<std::string_view> codes;
  };
  const row rows[] = {
      {self + de, {}},
      {self + de + link("x-default", "https://www.example.com/"), {}},
      {de, {"hreflang-no-self"}},
      {self + de + link("de", "https://www.example.com/de"), {}},
      {self + de + link("de", "https://www.example.com/de2"),
       {"hreflang-duplicate-language"}},
      {self + link("x-default", "https://www.example.com/a") +
           link("x-default", "https://www.example.com/b"),
       {"hreflang-duplicate-language"}},
      {link("x-default", "https://www.example.com/"),
       {"hreflang-x-default-only"}},
      {"<xhtml:link rel=\"alternate\" href=\"android-app://a/b\"/>", {}},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.links);
    const parse_run run = parse(ext_urlset(
        "<url><loc>https://www.example.com/</loc>" + r.links + "</url>"));
    std::size_t found = 0;
    for (const auto& d : run.diagnostics)
      found += d.code.starts_with("hreflang-");
    EXPECT_EQ(found, r.codes.size()) << run.describe();
    for (auto c : r.codes) EXPECT_TRUE(run.has(c)) << c;
  }
}

TEST(ParserExtensions, WarnsOfANamespaceOneVersionOffAKnownExtension) {
  struct row {
    std::string_view uri;
    std::string_view meant;  // "" for an unknown namespace
  };
  const row rows[] = {
      {"http://www.google.com/schemas/sitemap-image/2.0",
       "http://www.google.com/schemas/sitemap-image/1.1"},
      {"https://www.google.com/schemas/sitemap-image/1.1",
       "http://www.google.com/schemas/sitemap-image/1.1"},
      {"http://www.google.com/schemas/sitemap-image/1.1/",
       "http://www.google.com/schemas/sitemap-image/1.1"},
      {"http://google.com/schemas/sitemap-video/1.0",
       "http://www.google.com/schemas/sitemap-video/1.1"},
      {"http://www.google.com/schemas/sitemap-news/1.0",
       "http://www.google.com/schemas/sitemap-news/0.9"},
      {"https://www.w3.org/1999/xhtml", "http://www.w3.org/1999/xhtml"},
      {"http://www.w3.org/1999/xlink", ""},
      {"http://www.google.com/schemas/sitemap-mobile/1.0", ""},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.uri);
    const parse_run run =
        parse(one_url("https://www.example.com/",
                      "<x:image xmlns:x=\"" + std::string(r.uri) + "\"/>"));
    const diagnostic* d = run.find("extension-namespace-wrong");
    ASSERT_EQ(d != nullptr, !r.meant.empty()) << run.describe();
    EXPECT_EQ(run.has("extension-unknown-namespace"), r.meant.empty());
    EXPECT_FALSE(run.summary.schema_valid);
    EXPECT_EQ(run.summary.valid_but_unknown_namespaces, r.meant.empty())
        << "only a namespace nothing can judge is forgiven";
    if (d != nullptr) {
      EXPECT_NE(
          d->message.find("Did you mean \"" + std::string(r.meant) + "\""),
          std::string::npos)
          << d->message;
    }
  }
}

}  // namespace
}  // namespace sitemill
