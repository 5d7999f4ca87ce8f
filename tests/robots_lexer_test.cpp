// The one robots.txt lexer (src/robots/robots_lexer.h): lines, keys, values
// and the leniency it reports, for RFC 9309 2.2 (records), 2.2.4 (lenient
// reading of other records), 2.3 (UTF-8) and 2.5 (the parsing limit).
#include "robots/robots_lexer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "sitemill/limits.h"

namespace sitemill::detail {
namespace {

using ::testing::ElementsAreArray;

std::string_view key_name(robots_key k) {
  switch (k) {
    case robots_key::none:
      return "none";
    case robots_key::user_agent:
      return "user-agent";
    case robots_key::allow:
      return "allow";
    case robots_key::disallow:
      return "disallow";
    case robots_key::sitemap:
      return "sitemap";
    case robots_key::other:
      return "other";
  }
  return "?";
}

// Each line as "number key [name=value] [misspelled] [no-colon]"; blank and
// comment lines as "number -".
struct recorder : robots_handler {
  std::vector<std::string> lines;
  std::vector<robots_line> raw;
  void on_line(const robots_line& l) override {
    raw.push_back(l);
    std::string s = std::to_string(l.number) + " ";
    if (l.content.empty()) {
      lines.push_back(s + "-");
      return;
    }
    s += key_name(l.key);
    if (l.key != robots_key::none || !l.name.empty())
      s += " " + std::string(l.name) + "=" + std::string(l.value);
    if (l.misspelled) s += " misspelled";
    if (l.missing_colon) s += " no-colon";
    lines.push_back(s);
  }
};

struct lex_case {
  std::string_view name;
  std::string body;
  std::vector<std::string> lines;
};

void expect_lines(const lex_case& c) {
  SCOPED_TRACE(c.name);
  recorder r;
  const robots_lex_result result = lex_robots_txt(c.body, r);
  EXPECT_THAT(r.lines, ElementsAreArray(c.lines));
  EXPECT_EQ(result.lines, c.lines.size());
  // Nothing is lost: the BOM and the lines' bytes are the body.
  std::string joined(c.body.substr(0, result.bom));
  for (const robots_line& l : r.raw) joined += l.bytes();
  EXPECT_EQ(joined, c.body);
}

TEST(RobotsLexer, SplitsLinesAtLfCrAndCrlf) {
  const std::vector<lex_case> cases = {
      {"empty", "", {}},
      {"LF", "a: 1\nb: 2\n", {"1 other a=1", "2 other b=2"}},
      {"CRLF", "a: 1\r\nb: 2\r\n", {"1 other a=1", "2 other b=2"}},
      {"CR", "a: 1\rb: 2\r", {"1 other a=1", "2 other b=2"}},
      {"mixed, blank lines counted, no final line end",
       "\r\n\n\r\r\na: 1",
       {"1 -", "2 -", "3 -", "4 -", "5 other a=1"}},
      {"LF CR is two line ends",
       "a: 1\n\rb: 2",
       {"1 other a=1", "2 -", "3 other b=2"}},
  };
  for (const auto& c : cases) expect_lines(c);

  recorder r;
  lex_robots_txt("a\r\nb\rc\nd", r);
  ASSERT_EQ(r.raw.size(), 4u);
  EXPECT_EQ(r.raw[0].line_end, "\r\n");
  EXPECT_EQ(r.raw[1].line_end, "\r");
  EXPECT_EQ(r.raw[2].line_end, "\n");
  EXPECT_EQ(r.raw[3].line_end, "");
}

// RFC 9309 2.2: key *WS ":" *WS value, '#' to the end of the line a comment.
TEST(RobotsLexer, ReadsKeyColonValueWithCommentsAndWhitespace) {
  const std::vector<lex_case> cases = {
      {"plain", "User-agent: *", {"1 user-agent User-agent=*"}},
      {"any case",
       "DISALLOW: /a\nallow: /b\nSiteMap: x",
       {"1 disallow DISALLOW=/a", "2 allow allow=/b", "3 sitemap SiteMap=x"}},
      {"no space after the colon", "Disallow:/a", {"1 disallow Disallow=/a"}},
      {"whitespace everywhere",
       " \tDisallow \t: \t/a b \t",
       {"1 disallow Disallow=/a b"}},
      {"empty value", "Disallow:", {"1 disallow Disallow="}},
      {"comment after the value",
       "Disallow: /a # not /b",
       {"1 disallow Disallow=/a"}},
      {"comment glued to the value",
       "Disallow: /a#b",
       {"1 disallow Disallow=/a"}},
      {"comment-only and commented-out lines",
       "# hello\n   # indented\n#Disallow: /a",
       {"1 -", "2 -", "3 -"}},
      {"colon inside the value",
       "Sitemap: https://a.example:8080/s.xml",
       {"1 sitemap Sitemap=https://a.example:8080/s.xml"}},
      {"a bare URL reads as the key https",
       "https://a.example/s.xml",
       {"1 other https=//a.example/s.xml"}},
      {"unknown keys are records",
       "Crawl-delay: 10\nHost: a.example",
       {"1 other Crawl-delay=10", "2 other Host=a.example"}},
      {"no key", ": /a", {"1 none"}},
      {"one word", "Disallow\nSitemap   ", {"1 none", "2 none"}},
  };
  for (const auto& c : cases) expect_lines(c);
}

// Whitespace is every ASCII space, as google/robotstxt strips it; RFC 9309's
// grammar names only space and tab, but a form feed or vertical tab at either
// end of a value cannot be meant as part of a path or URL.
TEST(RobotsLexer, TakesFormFeedAndVerticalTabForWhitespace) {
  const std::vector<lex_case> cases = {
      {"around the value", "Disallow:\f/a\v", {"1 disallow Disallow=/a"}},
      {"before the key", "\vSitemap: x", {"1 sitemap Sitemap=x"}},
      {"for the colon", "Disallow\f/a", {"1 disallow Disallow=/a no-colon"}},
  };
  for (const auto& c : cases) expect_lines(c);
}

// RFC 9309 2.2.4 lets crawlers accept common misspellings; these are
// google/robotstxt's, plus "Sitemaps". Keys are compared whole.
TEST(RobotsLexer, ForgivesCommonMisspellingsOfWholeKeys) {
  const std::vector<lex_case> cases = {
      {"user-agent",
       "useragent: a\nUserAgent: b",
       {"1 user-agent useragent=a misspelled",
        "2 user-agent UserAgent=b misspelled"}},
      {"disallow",
       "dissallow: /1\ndissalow: /2\ndisalow: /3\ndiasllow: /4\ndisallaw: /5",
       {"1 disallow dissallow=/1 misspelled",
        "2 disallow dissalow=/2 misspelled", "3 disallow disalow=/3 misspelled",
        "4 disallow diasllow=/4 misspelled",
        "5 disallow disallaw=/5 misspelled"}},
      {"sitemap",
       "Site-map: x\nSITEMAPS: y",
       {"1 sitemap Site-map=x misspelled", "2 sitemap SITEMAPS=y misspelled"}},
      {"not misspellings",
       "Desallow: /a\nuseg-agent: b\nSitemapindex: c\nDisallowed: /d",
       {"1 other Desallow=/a", "2 other useg-agent=b", "3 other Sitemapindex=c",
        "4 other Disallowed=/d"}},
  };
  for (const auto& c : cases) expect_lines(c);
}

// google/robotstxt: whitespace stands for a forgotten colon only when the
// line is exactly two words.
TEST(RobotsLexer, ForgivesAMissingColonBetweenExactlyTwoWords) {
  const std::vector<lex_case> cases = {
      {"two words", "Disallow /a", {"1 disallow Disallow=/a no-colon"}},
      {"a URL keeps its colon",
       "Sitemap https://a.example/s.xml",
       {"1 sitemap Sitemap=https://a.example/s.xml no-colon"}},
      {"a colon inside the value",
       "Disallow /a:b",
       {"1 disallow Disallow=/a:b no-colon"}},
      {"misspelled too",
       "useragent bot4",
       {"1 user-agent useragent=bot4 misspelled no-colon"}},
      {"whitespace before the colon is not a missing colon",
       "Disallow  : /a",
       {"1 disallow Disallow=/a"}},
      {"three words are no record, but say their first word",
       "Disallow /a /b\nSitemap https://a/1.xml https://a/2.xml",
       {"1 none Disallow=/a /b no-colon",
        "2 none Sitemap=https://a/1.xml https://a/2.xml no-colon"}},
      {"prose", "Please do not crawl", {"1 none Please=do not crawl no-colon"}},
  };
  for (const auto& c : cases) expect_lines(c);
}

TEST(RobotsLexer, GivesColumnsFromTheLineStart) {
  recorder r;
  lex_robots_txt("\xEF\xBB\xBF  Sitemap :  https://a/s.xml # x", r);
  ASSERT_EQ(r.raw.size(), 1u);
  EXPECT_EQ(r.raw[0].column(r.raw[0].name), 3u);
  EXPECT_EQ(r.raw[0].column(r.raw[0].value), 14u);
}

// diagnostic.h: columns count characters, as libxml2 counts them for XML,
// so a robots.txt finding and a sitemap finding point the same way.
TEST(RobotsLexer, CountsColumnsInCharactersNotBytes) {
  recorder r;
  lex_robots_txt("X-\xC3\x9Cnknown: y", r);  // "X-Ünknown: y"
  ASSERT_EQ(r.raw.size(), 1u);
  EXPECT_EQ(r.raw[0].column(r.raw[0].value), 12u) << "13 would be bytes";
}

// RFC 9309 2.3: UTF-8. A UTF-8 BOM is skipped (and kept out of line 1); a
// UTF-16 one means no line can be read.
TEST(RobotsLexer, SkipsAUtf8BomAndReadsNothingOfUtf16) {
  using namespace std::string_literals;
  recorder r;
  robots_lex_result result = lex_robots_txt("\xEF\xBB\xBFSitemap: x\n", r);
  EXPECT_EQ(result.bom, 3u);
  EXPECT_FALSE(result.utf16);
  EXPECT_THAT(r.lines, ElementsAreArray({"1 sitemap Sitemap=x"}));

  for (const std::string& utf16 :
       {"\xFF\xFE"s + "S\0:\0 \0x\0\n\0"s, "\xFE\xFF"s + "\0S\0:\0 \0x\0\n"s}) {
    recorder none;
    result = lex_robots_txt(utf16, none);
    EXPECT_TRUE(result.utf16);
    EXPECT_EQ(result.lines, 0u);
    EXPECT_TRUE(none.lines.empty());
  }
}

// RFC 9309 2.5, with the limit made small so every boundary is cheap.
TEST(RobotsLexer, ReadsUpToTheLimitAndDropsTheLineItCuts) {
  struct limit_case {
    std::string_view name;
    std::string body;
    std::size_t limit;
    bool truncated;
    std::vector<std::string> lines;
  };
  const std::vector<limit_case> cases = {
      {"shorter", "a: 1\nb: 2", 10, false, {"1 other a=1", "2 other b=2"}},
      {"exactly the limit, unterminated",
       "a: 1\nb: 2",
       9,
       false,
       {"1 other a=1", "2 other b=2"}},
      {"cut inside the last line", "a: 1\nb: 2", 8, true, {"1 other a=1"}},
      {"cut inside line 1: nothing", "a: 1\nb: 2", 3, true, {}},
      {"line end right after the limit",
       "a: 1\nb: 2\nc",
       9,
       true,
       {"1 other a=1", "2 other b=2"}},
      {"CR right after the limit",
       "a: 1\nb: 2\r\nc",
       9,
       true,
       {"1 other a=1", "2 other b=2"}},
      {"limit between CR and LF", "a: 1\r\nb", 5, true, {"1 other a=1"}},
      {"the BOM counts",
       "\xEF\xBB\xBF"
       "a: 1\nb: 2",
       11,
       true,
       {"1 other a=1"}},
      {"the BOM counts, read whole",
       "\xEF\xBB\xBF"
       "a: 1\nb: 2",
       12,
       false,
       {"1 other a=1", "2 other b=2"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    recorder r;
    const robots_lex_result result = lex_robots_txt(c.body, r, c.limit);
    EXPECT_EQ(result.truncated, c.truncated);
    EXPECT_THAT(r.lines, ElementsAreArray(c.lines));
    for (const robots_line& l : r.raw) {
      EXPECT_LE(static_cast<std::size_t>(l.text.data() + l.text.size() -
                                         c.body.data()),
                c.limit);
    }
  }
}

TEST(RobotsLexer, ReadsEverythingWithoutALimit) {
  const std::string body(max_robots_txt_bytes + 10, '#');
  recorder r;
  const robots_lex_result limited = lex_robots_txt(body, r);
  EXPECT_TRUE(limited.truncated);
  EXPECT_EQ(limited.lines, 0u);
  const robots_lex_result whole = lex_robots_txt(body, r, robots_no_limit);
  EXPECT_FALSE(whole.truncated);
  EXPECT_EQ(whole.lines, 1u);
  EXPECT_EQ(r.raw.back().text.size(), body.size());
}

}  // namespace
}  // namespace sitemill::detail
