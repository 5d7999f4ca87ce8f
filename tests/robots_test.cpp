// find_sitemaps: the Sitemap: records of robots.txt (docs/protocol.md section
// 5, RFC 9309 2.2.4, 2.3 and 2.5; checklist E33).
#include "sitemill/robots/robots.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/limits.h"

namespace sitemill {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr std::string_view kRobotsUrl = "https://example.com/robots.txt";

std::string fixture(const std::string& name) {
  const std::string path =
      std::string(SITEMILL_SOURCE_DIR "/tests/data/robots/") + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// "url@line", one per sitemap, so a table can list them in one line each.
std::vector<std::string> urls(const robots_sitemaps& found) {
  std::vector<std::string> out;
  for (const auto& s : found.sitemaps) {
    out.push_back(s.url + "@" + std::to_string(s.line));
  }
  return out;
}

// "severity code line:column".
std::vector<std::string> findings(const robots_sitemaps& found) {
  std::vector<std::string> out;
  for (const auto& d : found.diagnostics) {
    out.push_back(std::string(to_string(d.level)) + " " + d.code + " " +
                  std::to_string(d.line) + ":" + std::to_string(d.column));
  }
  return out;
}

struct robots_case {
  std::string name;  // fixture file, or what an inline case shows
  std::string text;  // the robots.txt (read from the fixture for those)
  std::vector<std::string> sitemaps;
  std::vector<std::string> diagnostics;
  std::string robots_url = std::string(kRobotsUrl);
};

void expect_case(const robots_case& c) {
  SCOPED_TRACE(c.name);
  const robots_sitemaps found = find_sitemaps(c.text, c.robots_url);
  EXPECT_THAT(urls(found), ElementsAreArray(c.sitemaps));
  EXPECT_THAT(findings(found), ElementsAreArray(c.diagnostics));
  for (const auto& d : found.diagnostics) {
    EXPECT_TRUE(d.code.starts_with("robots-")) << d.code;
    EXPECT_FALSE(d.message.empty()) << d.code;
  }
}

// The crawler-commons robots.txt files (tests/data/robots/NOTICE).
TEST(Robots, ReadsTheConformanceFiles) {
  const std::vector<robots_case> cases = {
      {"sitemap-robots.txt",
       "",
       {"http://domain.com/sitemap.xml@2",
        "http://domain.com/dir/MixedCased-sitemap.xml@11"},
       {"info robots-bare-url 8:1"}},
      {"relative-sitemap-robots.txt",
       "",
       {"https://example.com/sitemap.xml@1"},
       {"error robots-relative-sitemap 1:10"}},
      {"sitemap-robots-dedup.txt",
       "",
       {"http://example.org/sitemap.xml@4"},
       {"info robots-duplicate-sitemap 5:10"}},
      {"robots-with-utf8-bom.txt",
       "",
       {"http://www.newsweek.com/sitemap_index.xml@15"},
       {}},
      {"robots-with-utf16le-bom.txt", "", {}, {"error robots-utf16 0:0"}},
      {"robots-with-utf16be-bom.txt", "", {}, {"error robots-utf16 0:0"}},
      {"dos-line-endings.txt", "", {}, {}},
      {"rfc9309-example-simple-robots.txt", "", {}, {}},
      {"directive-typos-robots.txt", "", {}, {}},
      // "sitemap :" (space before the colon) is allowed by RFC 9309 2.2's
      // *WS; the value is relative.
      {"format-errors-robots.txt",
       "",
       {"https://example.com/sitemap.xml@11"},
       {"error robots-relative-sitemap 11:11"}},
  };
  for (robots_case c : cases) {
    c.text = fixture(c.name);
    expect_case(c);
  }
}

// Section 5: the record name is case-insensitive, the URL's case is kept,
// and a Sitemap record may stand anywhere without touching the groups.
TEST(Robots, FindsSitemapRecordsWhereverTheyStand) {
  const std::vector<robots_case> cases = {
      {"lowercase name",
       "sitemap: https://a.example/s.xml\n",
       {"https://a.example/s.xml@1"},
       {}},
      {"uppercase name",
       "SITEMAP: https://a.example/s.xml",
       {"https://a.example/s.xml@1"},
       {}},
      {"no space after the colon",
       "Sitemap:https://a.example/s.xml",
       {"https://a.example/s.xml@1"},
       {}},
      {"indented, tabs around the colon",
       "  \tSitemap\t:\thttps://a.example/s.xml \t",
       {"https://a.example/s.xml@1"},
       {}},
      {"mixed-case path and query kept, scheme and host lowercased",
       "Sitemap: HTTPS://A.Example/Dir/Site-MAP.xml?Lang=EN",
       {"https://a.example/Dir/Site-MAP.xml?Lang=EN@1"},
       {}},
      {"between groups",
       "User-agent: a\nDisallow: /\nSitemap: https://a.example/s.xml\n"
       "User-agent: b\nDisallow: /private\n",
       {"https://a.example/s.xml@3"},
       {}},
      {"after the last group, several",
       "User-agent: *\nDisallow:\n\nSitemap: https://a.example/1.xml\n"
       "Sitemap: https://b.example/2.xml.gz\n",
       {"https://a.example/1.xml@4", "https://b.example/2.xml.gz@5"},
       {}},
      {"other keys ignored",
       "Sitemapindex: https://a.example/x.xml\nHost: a.example\n"
       "Sitemap\nDisallow: https://a.example/y.xml\n",
       {},
       {}},
      {"empty file", "", {}, {}},
      {"only blank lines and comments", "\n\n# nothing\n   \n", {}, {}},
  };
  for (const auto& c : cases) expect_case(c);
}

TEST(Robots, StripsCommentsFromTheFirstHash) {
  const std::vector<robots_case> cases = {
      {"comment after the URL",
       "Sitemap: https://a.example/s.xml # the main one",
       {"https://a.example/s.xml@1"},
       {}},
      // RFC 9309's grammar has no '#' in a value; the URL's fragment would
      // be dropped anyway.
      {"hash glued to the URL",
       "Sitemap: https://a.example/s.xml#part",
       {"https://a.example/s.xml@1"},
       {}},
      {"commented-out record",
       "# Sitemap: https://a.example/old.xml\n",
       {},
       {}},
      {"comment hides the whole value",
       "Sitemap: # soon",
       {},
       {"error robots-sitemap-empty 1:1"}},
  };
  for (const auto& c : cases) expect_case(c);
}

TEST(Robots, HandlesBomAndEveryLineEnd) {
  const std::vector<robots_case> cases = {
      // The BOM is not part of line 1: columns count from after it.
      {"UTF-8 BOM",
       "\xEF\xBB\xBFSitemap: https://a.example/s.xml\n",
       {"https://a.example/s.xml@1"},
       {}},
      {"CRLF",
       "User-agent: *\r\nDisallow: /x\r\nSitemap: https://a.example/1.xml\r\n"
       "Sitemap: https://a.example/2.xml\r\n",
       {"https://a.example/1.xml@3", "https://a.example/2.xml@4"},
       {}},
      {"CR only",
       "Sitemap: https://a.example/1.xml\rSitemap: https://a.example/2.xml\r",
       {"https://a.example/1.xml@1", "https://a.example/2.xml@2"},
       {}},
      {"mixed, no final line end",
       "\r\n\n\rSitemap: https://a.example/1.xml",
       {"https://a.example/1.xml@4"},
       {}},
      {"blank CRLF lines counted",
       "\r\n\r\nSitemap: /s.xml\r\n",
       {"https://example.com/s.xml@3"},
       {"error robots-relative-sitemap 3:10"}},
  };
  for (const auto& c : cases) expect_case(c);
}

// RFC 9309 2.3: UTF-8 only. A UTF-16 file yields nothing, even its
// readable-looking records.
TEST(Robots, RefusesUtf16) {
  using namespace std::string_literals;
  const std::vector<robots_case> cases = {
      {"UTF-16 LE",
       "\xFF\xFE"s + "S\0i\0t\0e\0m\0a\0p\0:\0 \0h\0"s,
       {},
       {"error robots-utf16 0:0"}},
      {"UTF-16 BE",
       "\xFE\xFF"s + "\0S\0i\0t\0e\0m\0a\0p\0:\0 \0h"s,
       {},
       {"error robots-utf16 0:0"}},
  };
  for (const auto& c : cases) expect_case(c);
}

// Section 5: the value must be a full URL. Relative values are resolved (as
// Google does) so the check can go on, and reported as errors.
TEST(Robots, ResolvesRelativeValuesAndReportsThem) {
  const std::vector<robots_case> cases = {
      {"root-relative",
       "Sitemap: /sitemap.xml",
       {"https://example.com/sitemap.xml@1"},
       {"error robots-relative-sitemap 1:10"}},
      {"path-relative against a robots.txt below the root",
       "Sitemap: maps/s.xml",
       {"http://127.0.0.1:8080/site/maps/s.xml@1"},
       {"error robots-relative-sitemap 1:10"},
       "http://127.0.0.1:8080/site/robots.txt"},
      {"dot segments",
       "Sitemap: ../s.xml",
       {"https://example.com/a/s.xml@1"},
       {"error robots-relative-sitemap 1:10"},
       "https://example.com/a/b/robots.txt"},
      // RFC 3986 5.2.2: a query alone keeps the robots.txt's own path.
      {"query-relative",
       "Sitemap: ?map=1",
       {"https://example.com/robots.txt?map=1@1"},
       {"error robots-relative-sitemap 1:10"}},
      {"network-path keeps the robots.txt scheme",
       "Sitemap: //cdn.example.net/s.xml",
       {"https://cdn.example.net/s.xml@1"},
       {"error robots-relative-sitemap 1:10"}},
      {"no robots.txt URL to resolve against",
       "Sitemap: /sitemap.xml",
       {},
       {"error robots-relative-sitemap 1:10"},
       ""},
  };
  for (const auto& c : cases) expect_case(c);

  const auto found = find_sitemaps("Sitemap: /s.xml", kRobotsUrl);
  ASSERT_EQ(found.diagnostics.size(), 1u);
  EXPECT_THAT(found.diagnostics[0].message,
              HasSubstr("\"Sitemap: https://example.com/s.xml\""));
}

// Section 5: "There may be many Sitemap: lines. Remove duplicates."
TEST(Robots, RemovesDuplicatesAndSaysWhereTheFirstWas) {
  const std::vector<robots_case> cases = {
      {"sitemap: then Sitemap:",
       "sitemap: https://a.example/s.xml\nSitemap: https://a.example/s.xml\n",
       {"https://a.example/s.xml@1"},
       {"info robots-duplicate-sitemap 2:10"}},
      {"spelled differently, the same once normalised",
       "Sitemap: https://a.example/s.xml\nSitemap: HTTPS://A.EXAMPLE:443/s.xml",
       {"https://a.example/s.xml@1"},
       {"info robots-duplicate-sitemap 2:10"}},
      {"relative and absolute forms of one URL",
       "Sitemap: https://example.com/s.xml\nSitemap: /s.xml\n",
       {"https://example.com/s.xml@1"},
       {"error robots-relative-sitemap 2:10",
        "info robots-duplicate-sitemap 2:10"}},
      {"path case makes them different",
       "Sitemap: https://a.example/S.xml\nSitemap: https://a.example/s.xml",
       {"https://a.example/S.xml@1", "https://a.example/s.xml@2"},
       {}},
  };
  for (const auto& c : cases) expect_case(c);

  const auto found = find_sitemaps(
      "Sitemap: https://a.example/s.xml\n\nSitemap: HTTPS://A.example/s.xml",
      kRobotsUrl);
  ASSERT_EQ(found.diagnostics.size(), 1u);
  EXPECT_THAT(found.diagnostics[0].message, HasSubstr("repeats line 1"));
  EXPECT_THAT(found.diagnostics[0].message,
              HasSubstr("both are https://a.example/s.xml"));
}

// RFC 9309 2.2.4: crawlers may be lenient with other records; each thing
// forgiven is said, so the owner can fix it for stricter crawlers.
TEST(Robots, ForgivesCommonMistakesWithAWarning) {
  const std::vector<robots_case> cases = {
      {"site-map",
       "Site-map: https://a.example/s.xml",
       {"https://a.example/s.xml@1"},
       {"warning robots-sitemap-misspelled 1:1"}},
      {"sitemaps",
       "  Sitemaps: https://a.example/s.xml",
       {"https://a.example/s.xml@1"},
       {"warning robots-sitemap-misspelled 1:3"}},
      {"missing colon",
       "Sitemap https://a.example/s.xml",
       {"https://a.example/s.xml@1"},
       {"warning robots-missing-colon 1:1"}},
      {"space inside the URL",
       "Sitemap: https://a.example/my sitemap.xml",
       {"https://a.example/my%20sitemap.xml@1"},
       {"warning robots-sitemap-whitespace 1:10"}},
  };
  for (const auto& c : cases) expect_case(c);
}

// The shared lexer's choices (src/robots/robots_lexer.h), where this reader
// used to differ: google/robotstxt's whitespace and missing-colon rules.
TEST(Robots, ReadsLinesAsGooglesParserDoes) {
  const std::vector<robots_case> cases = {
      {"vertical tab and form feed are whitespace before the key",
       "\vSitemap: https://a.example/1.xml\n\fSitemap: https://a.example/2.xml",
       {"https://a.example/1.xml@1", "https://a.example/2.xml@2"},
       {}},
      // Google reads no record without a colon unless the line is exactly
      // two words; taking "1.xml%20https://..." helped no one.
      {"no colon and two URLs",
       "Sitemap https://a.example/1.xml https://a.example/2.xml",
       {},
       {"warning robots-missing-colon 1:1"}},
      {"no colon, misspelled, two words",
       "  site-map https://a.example/1.xml extra",
       {},
       {"warning robots-missing-colon 1:3"}},
      // One word is no record, trailing whitespace or not.
      {"Sitemap and spaces", "Sitemap \t\nSitemap", {}, {}},
  };
  for (const auto& c : cases) expect_case(c);

  const auto found = find_sitemaps("Sitemap https://a.example/1.xml x", "");
  ASSERT_EQ(found.diagnostics.size(), 1u);
  EXPECT_THAT(found.diagnostics[0].message, HasSubstr("nothing was taken"));
}

TEST(Robots, ReportsWhatCannotBeASitemapUrl) {
  const std::vector<robots_case> cases = {
      {"bare URL line",
       "https://a.example/s.xml\n",
       {},
       {"info robots-bare-url 1:1"}},
      {"empty value",
       "Sitemap:\nSitemap:   \n",
       {},
       {"error robots-sitemap-empty 1:1", "error robots-sitemap-empty 2:1"}},
      {"ftp",
       "Sitemap: ftp://a.example/s.xml",
       {},
       {"error robots-sitemap-invalid 1:10"}},
      {"file",
       "Sitemap: file:///etc/passwd",
       {},
       {"error robots-sitemap-invalid 1:10"}},
      {"credentials",
       "Sitemap: https://u:p@a.example/s.xml",
       {},
       {"error robots-sitemap-invalid 1:10"}},
      {"bad port",
       "Sitemap: https://a.example:99999/s.xml",
       {},
       {"error robots-sitemap-invalid 1:10"}},
      {"invalid UTF-8",
       "Sitemap: https://a.example/\xC3(.xml",
       {},
       {"error robots-sitemap-invalid 1:10"}},
      {"good lines around a bad one",
       "Sitemap: https://a.example/1.xml\nSitemap: mailto:x@a.example\n"
       "Sitemap: https://a.example/2.xml\n",
       {"https://a.example/1.xml@1", "https://a.example/2.xml@3"},
       {"error robots-sitemap-invalid 2:10"}},
  };
  for (const auto& c : cases) expect_case(c);

  const auto found =
      find_sitemaps("Sitemap: ftp://a.example/s.xml", kRobotsUrl);
  ASSERT_EQ(found.diagnostics.size(), 1u);
  EXPECT_THAT(found.diagnostics[0].message, HasSubstr("not http or https"));
  EXPECT_THAT(found.diagnostics[0].message, HasSubstr("ftp://a.example/s.xml"));
}

// RFC 9309 2.5: a parsing limit of at least 500 KiB; this one is exactly
// that, and the line it cuts is dropped whole.
TEST(Robots, ReadsOnlyTheFirst500KiB) {
  constexpr std::size_t kLimit = max_robots_txt_bytes;
  const std::string first = "Sitemap: https://a.example/first.xml\n";
  const std::string cut_record = "Sitemap: https://a.example/cut.xml";
  const std::string cut = cut_record + "\n";
  const std::string after = "Sitemap: https://a.example/after.xml\n";
  // Comment lines of 64 bytes up to `size` bytes from the start.
  auto filler = [](std::size_t size) {
    std::string s;
    while (s.size() + 64 <= size) s += "#" + std::string(62, '-') + "\n";
    s += "#" + std::string(size - s.size() - 1, '-');
    return s;
  };
  // The 1-based line on which `needle` starts in `text`.
  auto line_of = [](const std::string& text, const std::string& needle) {
    const auto end =
        text.begin() + static_cast<std::ptrdiff_t>(text.find(needle));
    return std::to_string(std::count(text.begin(), end, '\n') + 1);
  };

  {
    SCOPED_TRACE("a record that ends exactly at the limit is read");
    const std::string text = first +
                             filler(kLimit - first.size() - cut.size() - 1) +
                             "\n" + cut + after;
    ASSERT_EQ(text.size(), kLimit + after.size());
    const auto found = find_sitemaps(text, kRobotsUrl);
    EXPECT_THAT(urls(found), ElementsAre("https://a.example/first.xml@1",
                                         "https://a.example/cut.xml@" +
                                             line_of(text, cut_record)));
    ASSERT_EQ(found.diagnostics.size(), 1u);
    EXPECT_EQ(std::to_string(found.diagnostics[0].line), line_of(text, after));
    EXPECT_EQ(found.diagnostics[0].code, "robots-truncated");
    EXPECT_EQ(found.diagnostics[0].level, severity::info);
    EXPECT_THAT(found.diagnostics[0].message, HasSubstr("512,000"));
  }
  {
    SCOPED_TRACE("a record the limit cuts is dropped, not shortened");
    const std::string text =
        first + filler(kLimit - first.size() - 10) + "\n" + cut + after;
    const auto found = find_sitemaps(text, kRobotsUrl);
    EXPECT_THAT(urls(found), ElementsAre("https://a.example/first.xml@1"));
    EXPECT_THAT(findings(found), ElementsAre("info robots-truncated " +
                                             line_of(text, cut_record) + ":0"));
  }
  {
    SCOPED_TRACE("exactly 500 KiB is read whole");
    const std::string text =
        first + filler(kLimit - first.size() - cut.size()) + "\n" + cut_record;
    ASSERT_EQ(text.size(), kLimit);
    const auto found = find_sitemaps(text, kRobotsUrl);
    EXPECT_THAT(urls(found), ElementsAre("https://a.example/first.xml@1",
                                         "https://a.example/cut.xml@" +
                                             line_of(text, cut_record)));
    EXPECT_THAT(found.diagnostics, IsEmpty());
  }
}

}  // namespace
}  // namespace sitemill
