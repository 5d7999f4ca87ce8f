// Tests for the robots.txt rules the directory source obeys (RFC 9309, the
// `*` group): grouping, longest match, wildcards, percent-encoding. Cases
// come from RFC 9309's text and Google's published matching examples.
#include "sitemill/robots/robots_rules.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sitemill/limits.h"

namespace sitemill {
namespace {

struct verdict {
  std::string_view path;
  bool allowed;
};

struct rules_case {
  std::string_view name;
  std::string_view robots_txt;
  std::vector<verdict> verdicts;
};

void PrintTo(const rules_case& c, std::ostream* os) { *os << c.name; }

class RobotsRules : public testing::TestWithParam<rules_case> {};

TEST_P(RobotsRules, DecidesEachPathAsTheRfcSays) {
  const rules_case& c = GetParam();
  const robots_rules rules = parse_robots_rules(c.robots_txt);
  for (const verdict& v : c.verdicts) {
    EXPECT_EQ(rules.allowed(v.path), v.allowed) << "path " << v.path;
  }
}

// RFC 9309 section 5.1, the example file.
constexpr std::string_view rfc_example =
    "User-Agent: *\n"
    "Disallow: *.gif$\n"
    "Disallow: /example/\n"
    "Allow: /publications/\n"
    "\n"
    "User-Agent: foobot\n"
    "Disallow:/\n"
    "Allow:/example/page.html\n"
    "Allow:/example/allowed.gif\n"
    "\n"
    "User-Agent: barbot\n"
    "User-Agent: bazbot\n"
    "Disallow: /example/page.html\n"
    "\n"
    "User-Agent: quxbot\n";

INSTANTIATE_TEST_SUITE_P(
    Cases, RobotsRules,
    testing::Values(
        rules_case{"rfc_example",
                   rfc_example,
                   {{"/", true},
                    {"/picture.gif", false},
                    {"/picture.gif?x=1", true},  // '$' anchors at the end
                    {"/example/", false},
                    {"/example/page.html", false},  // foobot's Allow is not *
                    {"/publications/", true},
                    {"/publications/a.gif", true},  // the longer rule wins
                    {"/other.html", true}}},
        // RFC 9309 5.2: the most specific (longest) match wins.
        rules_case{"longest_match",
                   "User-agent: *\nAllow: /example/page/\n"
                   "Disallow: /example/page/disallowed.gif\n",
                   {{"/example/page/", true},
                    {"/example/page/disallowed.gif", false},
                    {"/example/page/other.gif", true}}},
        // Google's examples for a plain path rule.
        rules_case{"prefix",
                   "User-agent: *\nDisallow: /fish\n",
                   {{"/fish", false},
                    {"/fish.html", false},
                    {"/fish/salmon.html", false},
                    {"/fishheads", false},
                    {"/fishheads/yummy.html", false},
                    {"/fish.php?id=anything", false},
                    {"/Fish.asp", true},  // paths are case-sensitive
                    {"/catfish", true},
                    {"/?id=fish", true},
                    {"/desert/fish", true}}},
        rules_case{"trailing_slash",
                   "User-agent: *\nDisallow: /fish/\n",
                   {{"/fish/", false},
                    {"/fish/?id=anything", false},
                    {"/fish/salmon.htm", false},
                    {"/fish", true},
                    {"/fish.html", true},
                    {"/animals/fish/", true}}},
        rules_case{"wildcard",
                   "User-agent: *\nDisallow: /*.php\n",
                   {{"/index.php", false},
                    {"/folder/filename.php", false},
                    {"/folder/filename.php?parameters", false},
                    {"/folder/any.php.file.html", false},
                    {"/filename.php/", false},
                    {"/", true},
                    {"/windows.PHP", true}}},
        rules_case{"wildcard_and_anchor",
                   "User-agent: *\nDisallow: /*.php$\n",
                   {{"/filename.php", false},
                    {"/folder/filename.php", false},
                    {"/filename.php?parameters", true},
                    {"/filename.php/", true},
                    {"/filename.php5", true}}},
        rules_case{"wildcard_in_the_middle",
                   "User-agent: *\nDisallow: /fish*.php\n",
                   {{"/fish.php", false},
                    {"/fishheads/catfish.php?parameters", false},
                    {"/Fish.PHP", true},
                    {"/fish.html", true}}},
        rules_case{"several_wildcards",
                   "User-agent: *\nDisallow: /a*b*c$\n",
                   {{"/abc", false},
                    {"/a-b-c", false},
                    {"/a/bb/cc/c", false},
                    {"/acb", true},
                    {"/abcd", true}}},
        // Google: on equal length, Allow wins; otherwise the longer rule.
        rules_case{"allow_wins_ties",
                   "User-agent: *\nAllow: /folder\nDisallow: /folder\n",
                   {{"/folder/page", true}}},
        rules_case{"shorter_allow_loses",
                   "User-agent: *\nAllow: /p\nDisallow: /\n",
                   {{"/page", true}, {"/other", false}}},
        rules_case{"longer_wildcard_disallow_wins",
                   "User-agent: *\nAllow: /page\nDisallow: /*.htm\n",
                   {{"/page.htm", false}, {"/page", true}}},
        rules_case{"anchored_root",
                   "User-agent: *\nAllow: /$\nDisallow: /\n",
                   {{"/", true}, {"/page.htm", false}}},
        // RFC 9309 2.2.2's table: both spellings of a character match.
        rules_case{"percent_encoding_of_rule",
                   "User-agent: *\nDisallow: /foo/bar/%62%61%7A\n"
                   "Disallow: /foo/bar/ツ\n",
                   {{"/foo/bar/baz", false},
                    {"/foo/bar/%E3%83%84", false},
                    {"/foo/bar/%e3%83%84", false},
                    {"/foo/bar/ツ", false},
                    {"/foo/bar/", true}}},
        rules_case{"percent_encoding_of_path",
                   "User-agent: *\nDisallow: /foo/bar/%E3%83%84\n"
                   "Disallow: /x/baz\n",
                   {{"/foo/bar/ツ", false},
                    {"/x/%62%61%7A", false},
                    {"/x/ba%7a", false},
                    {"/x/bar", true}}},
        rules_case{"reserved_escapes_stay_escaped",
                   "User-agent: *\nDisallow: /a%3Fb\n",
                   {{"/a%3fb", false}, {"/a?b", true}}},
        rules_case{"query_is_part_of_the_path",
                   "User-agent: *\nDisallow: /foo/bar?baz=quz\n",
                   {{"/foo/bar?baz=quz", false}, {"/foo/bar", true}}},
        // Groups.
        rules_case{"named_agents_are_ignored",
                   "User-agent: foobot\nDisallow: /\n",
                   {{"/", true}, {"/a", true}}},
        rules_case{"star_among_several_agents",
                   "User-agent: foobot\nUser-agent: *\nDisallow: /private/\n",
                   {{"/private/x", false}, {"/public/x", true}}},
        rules_case{"star_groups_are_combined",
                   "User-agent: *\nDisallow: /a/\n\nUser-agent: foobot\n"
                   "Disallow: /b/\n\nUser-agent: *\nDisallow: /c/\n",
                   {{"/a/1", false}, {"/b/1", true}, {"/c/1", false}}},
        rules_case{"a_group_ends_at_the_next_user_agent_after_rules",
                   "User-agent: *\nDisallow: /a/\nUser-agent: foobot\n"
                   "Disallow: /b/\n",
                   {{"/a/1", false}, {"/b/1", true}}},
        rules_case{"rules_before_any_group_apply_to_no_one",
                   "Disallow: /a/\nUser-agent: *\nDisallow: /b/\n",
                   {{"/a/1", true}, {"/b/1", false}}},
        rules_case{"sitemap_and_unknown_lines_do_not_end_a_group",
                   "User-agent: *\nSitemap: https://example.com/s.xml\n"
                   "Crawl-delay: 10\nDisallow: /a/\n",
                   {{"/a/1", false}}},
        rules_case{"empty_disallow_allows_everything",
                   "User-agent: *\nDisallow:\n",
                   {{"/", true}, {"/anything", true}}},
        rules_case{"robots_txt_itself_is_always_allowed",
                   "User-agent: *\nDisallow: /\n",
                   {{"/robots.txt", true}, {"/", false}, {"/x", false}}},
        // Lenient reading.
        rules_case{"bom_crlf_comments_case_and_spaces",
                   "\xEF\xBB\xBFuser-AGENT : * # everyone\r\n"
                   "# a comment line\r\n"
                   "DISALLOW :  /private/  # keep out\r\n"
                   "disallow /nocolon/\r\n",
                   {{"/private/a", false}, {"/nocolon/a", false}}},
        // The shared lexer's choices (src/robots/robots_lexer.h), after
        // google/robotstxt; this reader used to ignore all three.
        rules_case{"missing_colon_between_exactly_two_words",
                   "User-agent *\nDisallow /a/\nDisallow /b/ /c/\n",
                   {{"/a/x", false}, {"/b/x", true}, {"/c/x", true}}},
        rules_case{"common_misspellings",
                   "useragent: *\nDissallow: /1/\ndissalow: /2/\n"
                   "disalow: /3/\ndiasllow: /4/\ndisallaw: /5/\n"
                   "Desallow: /6/\nDisallowed: /7/\n",
                   {{"/1/x", false},
                    {"/2/x", false},
                    {"/3/x", false},
                    {"/4/x", false},
                    {"/5/x", false},
                    {"/6/x", true},
                    {"/7/x", true}}},
        rules_case{"form_feed_and_vertical_tab_are_whitespace",
                   "User-agent: *\f\nDisallow:\v/a\f\n",
                   {{"/a/b", false}, {"/b", true}}},
        rules_case{"cr_line_ends",
                   "User-agent: *\rDisallow: /a/\rAllow: /a/b\r",
                   {{"/a/x", false}, {"/a/b", true}}},
        rules_case{"empty_file", "", {{"/", true}, {"/a", true}}}));

TEST(RobotsRules, ReadsTheCrawlDelayOfTheGroupsThatApply) {
  const std::string_view text =
      "User-agent: *\nCrawl-delay: 5\nDisallow: /x\n\n"
      "User-agent: sitemill\ncrawl-DELAY: 0.5\nDisallow: /y\n\n"
      "User-agent: other\nCrawl-delay: 30\n";
  EXPECT_EQ(parse_robots_rules(text, "sitemill").crawl_delay(), 0.5);
  EXPECT_EQ(parse_robots_rules(text, "somebot").crawl_delay(), 5.0);
  EXPECT_EQ(parse_robots_rules(text, "other").crawl_delay(), 30.0);
  EXPECT_FALSE(parse_robots_rules("User-agent: *\nDisallow: /\n", "sitemill")
                   .crawl_delay());
  EXPECT_FALSE(parse_robots_rules("Crawl-delay: 3\nUser-agent: *\n", "a")
                   .crawl_delay())
      << "a line before any group applies to no one";
  for (std::string_view bad : {"soon", "-1", "1s", ""}) {
    EXPECT_FALSE(parse_robots_rules("User-agent: *\nCrawl-delay: " +
                                        std::string(bad) + "\n",
                                    "sitemill")
                     .crawl_delay())
        << bad;
  }
  EXPECT_EQ(parse_robots_rules("User-agent: *\nCrawl-delay: 99999999\n", "a")
                .crawl_delay(),
            86400.0);
}

TEST(RobotsRules, NamesTheDecidingRule) {
  const robots_rules rules = parse_robots_rules(
      "User-agent: *\nDisallow: /private/\nAllow: /private/ok/\n"
      "disallow: /*.pdf$\n");
  const struct {
    std::string_view path;
    std::string_view rule;
  } cases[] = {
      {"/private/secret.html", "Disallow: /private/"},
      {"/private/ok/page.html", "Allow: /private/ok/"},
      {"/doc.pdf", "Disallow: /*.pdf$"},
      {"/public.html", ""},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(rules.matching_rule(c.path), c.rule) << c.path;
  }
  EXPECT_EQ(rules.size(), 3U);
}

struct agent_case {
  std::string_view name;
  std::string robots_txt;
  std::string_view user_agent;
  std::vector<verdict> verdicts;
};

void expect_agent_cases(const std::vector<agent_case>& cases) {
  for (const agent_case& c : cases) {
    SCOPED_TRACE(std::string(c.name) + ", as " + std::string(c.user_agent));
    const robots_rules rules = parse_robots_rules(c.robots_txt, c.user_agent);
    for (const verdict& v : c.verdicts) {
      EXPECT_EQ(rules.allowed(v.path), v.allowed) << "path " << v.path;
    }
  }
}

// RFC 9309 2.2.1: a crawler obeys the groups that name its product token, in
// any case and all combined; only when none does, the `*` groups.
TEST(RobotsRules, ObeysTheGroupsOfANamedUserAgent) {
  const std::string star_and_ours =
      "User-agent: *\nDisallow: /a/\n\nUser-agent: sitemill\nDisallow: /b/\n";
  expect_agent_cases({
      {"exact", star_and_ours, "sitemill", {{"/a/x", true}, {"/b/x", false}}},
      {"any case",
       "User-agent: SiteMill\nDisallow: /a/\n",
       "SITEMILL",
       {{"/a/x", false}}},
      {"its groups combined",
       "User-agent: sitemill\nDisallow: /a/\n\nUser-agent: other\n"
       "Disallow: /b/\n\nuser-agent: sitemill\nDisallow: /c/\n",
       "sitemill",
       {{"/a/x", false}, {"/b/x", true}, {"/c/x", false}}},
      {"fallback to *",
       "User-agent: other\nDisallow: /a/\n\nUser-agent: *\nDisallow: /b/\n",
       "sitemill",
       {{"/a/x", true}, {"/b/x", false}}},
      {"no group of its own and none for *",
       "User-agent: other\nDisallow: /\n",
       "sitemill",
       {{"/", true}, {"/a", true}}},
      {"a group naming both it and *",
       "User-agent: other\nUser-agent: *\nUser-agent: sitemill\n"
       "Disallow: /a/\n\nUser-agent: *\nDisallow: /b/\n",
       "sitemill",
       {{"/a/x", false}, {"/b/x", true}}},
      {"its group allows what * disallows",
       "User-agent: *\nDisallow: /\n\nUser-agent: sitemill\nAllow: /\n",
       "sitemill",
       {{"/", true}, {"/private/x", true}}},
      {"its group without rules allows everything",
       "User-agent: *\nDisallow: /\n\nUser-agent: sitemill\n",
       "sitemill",
       {{"/x", true}}},
      // The product token is what a User-Agent header starts with, and what
      // a User-agent line's value starts with.
      {"a whole User-Agent header",
       "User-agent: sitemill\nDisallow: /a/\n",
       "sitemill/1.0 (+https://example.com/bot)",
       {{"/a/x", false}}},
      {"a User-agent value with a version",
       "User-agent: sitemill/2.0\nDisallow: /a/\n",
       "sitemill",
       {{"/a/x", false}}},
      {"tokens that only start like ours",
       "User-agent: sitemill-news\nDisallow: /a/\n\nUser-agent: sitemillbot\n"
       "Disallow: /b/\n",
       "sitemill",
       {{"/a/x", true}, {"/b/x", true}}},
      // As in Google's parser, a token ends at the first other character.
      {"a digit ends a token",
       "User-agent: bot1\nDisallow: /a/\n",
       "bot2",
       {{"/a/x", false}}},
      {"ours only starts like theirs",
       "User-agent: sitemill\nDisallow: /a/\n",
       "sitemill-news",
       {{"/a/x", true}}},
      // No product token: the `*` groups, as parse_robots_rules(text).
      {"*", star_and_ours, "*", {{"/a/x", false}, {"/b/x", true}}},
      {"empty", star_and_ours, "", {{"/a/x", false}, {"/b/x", true}}},
      {"no letter first", star_and_ours, "1bot", {{"/a/x", false}}},
  });
}

// RFC 9309 5.1, the example file, for each crawler it names.
TEST(RobotsRules, DecidesTheRfcExampleForEachNamedCrawler) {
  const std::string text(rfc_example);
  expect_agent_cases({
      {"foobot",
       text,
       "foobot",
       {{"/example/page.html", true},
        {"/example/allowed.gif", true},
        {"/example/other.html", false},
        {"/publications/", false}}},
      {"barbot",
       text,
       "barbot",
       {{"/example/page.html", false},
        {"/example/other.html", true},
        {"/picture.gif", true}}},
      {"bazbot", text, "BazBot", {{"/example/page.html", false}}},
      {"quxbot: an empty group of its own",
       text,
       "quxbot",
       {{"/example/page.html", true}, {"/picture.gif", true}}},
      {"anyone else: *",
       text,
       "otherbot",
       {{"/picture.gif", false}, {"/example/page.html", false}}},
  });
}

std::string fixture(const std::string& name) {
  const std::string path =
      std::string(SITEMILL_SOURCE_DIR "/tests/data/robots/") + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// The crawler-commons files of misspellings and format errors
// (tests/data/robots/NOTICE), read as google/robotstxt reads them. Their
// agents are renamed: a product token has no digits (RFC 9309 2.2.1), so
// "bot1" and "bot2" would both be "bot".
TEST(RobotsRules, ReadsTheConformanceFilesForNamedCrawlers) {
  auto renamed = [](std::string text) {
    const std::pair<std::string, std::string> names[] = {{"bot1", "bot-one"},
                                                         {"bot2", "bot-two"},
                                                         {"bot3", "bot-three"},
                                                         {"bot4", "bot-four"}};
    for (const auto& [from, to] : names) {
      for (std::size_t at = text.find(from); at != std::string::npos;
           at = text.find(from, at)) {
        text.replace(at, from.size(), to);
      }
    }
    return text;
  };
  const std::string typos = renamed(fixture("directive-typos-robots.txt"));
  const std::string format = renamed(fixture("format-errors-robots.txt"));
  expect_agent_cases({
      {"typos",
       typos,
       "bot-one",
       {{"/desallow/", true}, {"/dissalow/", false}}},
      // "useg-agent: bot3" is an unknown record, which does not end bot2's
      // group (RFC 9309 2.2.4): the Disallow after it is bot2's.
      {"typos",
       typos,
       "bot-two",
       {{"/useragent/", false}, {"/useg-agent/", false}}},
      {"typos", typos, "bot-three", {{"/useg-agent/", true}}},
      {"typos", typos, "bot-four", {{"/useragent-no-colon/", false}}},
      {"format",
       format,
       "bot-one",
       {{"/whitespace-before-colon/", false}, {"/no-colon/", false}}},
      {"format", format, "bot-two", {{"/no-colon-useragent/", false}}},
      {"format",
       format,
       "bot-three",
       {{"/whitespace-before-colon", true}, {"/other", false}}},
  });
}

// RFC 9309 2.5: the same limit as the Sitemap finder, counted the same way.
TEST(RobotsRules, ReadsOnlyTheFirst500KiB) {
  constexpr std::size_t limit = max_robots_txt_bytes;
  {
    std::string text = "User-agent: *\nDisallow: /early/\n";
    text.append(limit, '#');  // one long comment line
    text.append("\nDisallow: /late/\n");
    const robots_rules rules = parse_robots_rules(text);
    EXPECT_FALSE(rules.allowed("/early/x"));
    EXPECT_TRUE(rules.allowed("/late/x"));
  }
  // "Disallow: /last/" ends `end` bytes into a file of `size` bytes, after
  // `prefix` ("" or a UTF-8 BOM).
  auto file = [](std::string_view prefix, std::size_t end, std::size_t size) {
    const std::string_view head = "User-agent: *\n#";
    const std::string_view rule = "\nDisallow: /last/";
    std::string s(prefix);
    s += head;
    s.append(end - s.size() - rule.size(), '-');
    s += rule;
    s.append(size - s.size(), '\n');
    return s;
  };
  const struct {
    std::string_view name;
    std::string_view prefix;
    std::size_t end, size;
    bool read;
  } cases[] = {
      // This reader used to drop the line whose line end is the first byte
      // past the limit, and not to count a BOM; the finder did both.
      {"line end right after the limit", "", limit, limit + 1, true},
      {"line cut by the limit", "", limit + 1, limit + 2, false},
      {"the BOM counts", "\xEF\xBB\xBF", limit + 1, limit + 2, false},
      {"the BOM counts, read whole", "\xEF\xBB\xBF", limit, limit + 1, true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string text = file(c.prefix, c.end, c.size);
    ASSERT_EQ(text.find("/last/") + 6, c.end);
    ASSERT_EQ(text.size(), c.size);
    EXPECT_EQ(parse_robots_rules(text).allowed("/last/x"), !c.read);
  }
}

TEST(RobotsRules, TreatsAnEmptyPathAsTheRoot) {
  const robots_rules rules =
      parse_robots_rules("User-agent: *\nDisallow: /$\n");
  EXPECT_FALSE(rules.allowed(""));
  EXPECT_TRUE(rules.allowed("/a"));
}

}  // namespace
}  // namespace sitemill
