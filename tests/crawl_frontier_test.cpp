// What the crawler does with a URL before fetching it: session ids removed,
// then depth, robots.txt and the trap cap judged in that order.
#include "crawl/crawl_frontier.h"

#include <gtest/gtest.h>

namespace sitemill::detail {
namespace {

std::string stripped(std::string_view text) {
  normalized_url url;
  EXPECT_EQ(normalize_url(text, url), url_problem::ok) << text;
  strip_session_ids(url);
  return std::string(url.href());
}

normalized_url url_of(std::string_view text) {
  normalized_url url;
  EXPECT_EQ(normalize_url(text, url), url_problem::ok) << text;
  return url;
}

TEST(CrawlFrontier, StripsSessionIdsWhereverTheyAre) {
  const struct {
    std::string_view in, out;
  } cases[] = {
      {"https://e.com/a?PHPSESSID=x1", "https://e.com/a"},
      {"https://e.com/a?page=2&sid=9&sort=up",
       "https://e.com/a?page=2&sort=up"},
      {"https://e.com/a?SessionId=1&session_id=2", "https://e.com/a"},
      {"https://e.com/a;jsessionid=AB12?x=1", "https://e.com/a?x=1"},
      {"https://e.com/a;JSESSIONID=AB12;v=2", "https://e.com/a;v=2"},
      {"https://e.com/a?jsessionid=1", "https://e.com/a"},
      // Look-alikes are kept.
      {"https://e.com/a?sidebar=1", "https://e.com/a?sidebar=1"},
      {"https://e.com/a?x=sid", "https://e.com/a?x=sid"},
      {"https://e.com/sid/a", "https://e.com/sid/a"},
      {"https://e.com/a?", "https://e.com/a?"},
  };
  for (const auto& c : cases) EXPECT_EQ(stripped(c.in), c.out) << c.in;
}

TEST(CrawlFrontier, JudgesSeenDepthRobotsAndTrapCapInThatOrder) {
  const robots_rules robots =
      parse_robots_rules("User-agent: *\nDisallow: /private/\n", "sitemill");
  crawl_frontier f({/*max_depth=*/2, /*max_query_variants=*/2}, &robots);
  EXPECT_EQ(f.discover(url_of("https://e.com/a"), 0), discovery::queued);
  EXPECT_EQ(f.discover(url_of("https://e.com/a"), 1), discovery::seen);
  // Too deep is not seen: a shorter path still queues it.
  EXPECT_EQ(f.discover(url_of("https://e.com/deep"), 3), discovery::too_deep);
  EXPECT_EQ(f.too_deep().size(), 1u);
  EXPECT_EQ(f.discover(url_of("https://e.com/deep"), 2), discovery::queued);
  EXPECT_TRUE(f.too_deep().empty());
  // Depth is judged before robots.txt.
  EXPECT_EQ(f.discover(url_of("https://e.com/private/x"), 5),
            discovery::too_deep);
  EXPECT_EQ(f.discover(url_of("https://e.com/private/x"), 1),
            discovery::robots);
  EXPECT_EQ(f.discover(url_of("https://e.com/private/x"), 1), discovery::seen);
  // Two variants of one path, then the cap; another path has its own.
  EXPECT_EQ(f.discover(url_of("https://e.com/cal?m=1"), 1), discovery::queued);
  EXPECT_EQ(f.discover(url_of("https://e.com/cal?m=2"), 1), discovery::queued);
  EXPECT_EQ(f.discover(url_of("https://e.com/cal?m=2"), 1), discovery::seen);
  EXPECT_EQ(f.discover(url_of("https://e.com/cal?m=3"), 1),
            discovery::trap_cap);
  EXPECT_EQ(f.discover(url_of("https://e.com/cal"), 1), discovery::queued)
      << "the path itself is no variant";
  EXPECT_EQ(f.discover(url_of("https://e.com/shop?c=1"), 1), discovery::queued);
}

TEST(CrawlFrontier, WithoutRulesEverythingIsAllowed) {
  crawl_frontier f({}, nullptr);
  EXPECT_EQ(f.discover(url_of("https://e.com/private/x"), 100),
            discovery::queued);
}

}  // namespace
}  // namespace sitemill::detail
