// Tests for the robots.txt rules the directory source obeys (RFC 9309, the
// `*` group): grouping, longest match, wildcards, percent-encoding. Cases
// come from RFC 9309's text and Google's published matching examples.
#include "sitemill/robots/robots_rules.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
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
                   {{"/private/a", false}, {"/nocolon/a", true}}},
        rules_case{"cr_line_ends",
                   "User-agent: *\rDisallow: /a/\rAllow: /a/b\r",
                   {{"/a/x", false}, {"/a/b", true}}},
        rules_case{"empty_file", "", {{"/", true}, {"/a", true}}}));

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

TEST(RobotsRules, ReadsOnlyTheFirst500KiB) {
  std::string text = "User-agent: *\nDisallow: /early/\n";
  text.append(max_robots_txt_bytes, '#');  // one long comment line
  text.append("\nDisallow: /late/\n");
  const robots_rules rules = parse_robots_rules(text);
  EXPECT_FALSE(rules.allowed("/early/x"));
  EXPECT_TRUE(rules.allowed("/late/x"));
}

TEST(RobotsRules, TreatsAnEmptyPathAsTheRoot) {
  const robots_rules rules =
      parse_robots_rules("User-agent: *\nDisallow: /$\n");
  EXPECT_FALSE(rules.allowed(""));
  EXPECT_TRUE(rules.allowed("/a"));
}

}  // namespace
}  // namespace sitemill
