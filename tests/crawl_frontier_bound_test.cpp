// The crawl frontier's bound (issue 34, item 2; docs/crawl.md): what is
// found and not yet fetched is kept up to a count of URLs and a number of
// bytes of their text; a link past either is counted, not kept, not seen,
// and room freed by a page leaving the queue is used again.
#include <gtest/gtest.h>

#include <string>

#include "crawl/crawl_frontier.h"

namespace sitemill::detail {
namespace {

normalized_url url_of(const std::string& text) {
  normalized_url url;
  EXPECT_EQ(normalize_url(text, url), url_problem::ok) << text;
  return url;
}

std::string page(int i) { return "https://e.com/p/" + std::to_string(i); }

frontier_limits bounded(std::size_t urls, std::size_t bytes) {
  frontier_limits l;
  l.max_depth = 3;
  l.max_query_variants = 2;
  l.max_held_urls = urls;
  l.max_held_bytes = bytes;
  return l;
}

TEST(CrawlFrontierBound, PastTheCountLinksAreCountedNotKept) {
  crawl_frontier f(bounded(3, 1 << 20), nullptr);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(f.discover(url_of(page(i)), 1), discovery::queued) << i;
  EXPECT_EQ(f.held_urls(), 3u);
  // Full: a new URL is counted each time it is found, and never seen.
  EXPECT_EQ(f.discover(url_of(page(3)), 1), discovery::dropped);
  EXPECT_EQ(f.discover(url_of(page(3)), 1), discovery::dropped);
  EXPECT_EQ(f.dropped(), 2u);
  EXPECT_EQ(f.seen(), 3u);
  // What is kept is still judged: a URL seen is seen, not dropped.
  EXPECT_EQ(f.discover(url_of(page(0)), 1), discovery::seen);
  // Too deep takes room too.
  EXPECT_EQ(f.discover(url_of(page(9)), 4), discovery::dropped);
  EXPECT_TRUE(f.too_deep().empty());
  // A page leaving the queue frees its room for the next link.
  f.taken(page(0).size());
  EXPECT_EQ(f.discover(url_of(page(3)), 1), discovery::queued);
  EXPECT_EQ(f.dropped(), 3u);
}

TEST(CrawlFrontierBound, PastTheBytesLinksAreCountedNotKept) {
  const std::size_t one = page(10).size();
  crawl_frontier f(bounded(1000, 2 * one), nullptr);
  EXPECT_EQ(f.discover(url_of(page(10)), 1), discovery::queued);
  EXPECT_EQ(f.discover(url_of(page(11)), 1), discovery::queued);
  EXPECT_EQ(f.discover(url_of(page(12)), 1), discovery::dropped);
  f.taken(one);
  EXPECT_EQ(f.discover(url_of(page(12)), 1), discovery::queued);
}

// A dropped URL is as if never found: it is not one of its path's query
// variants, so the trap cap counts only those kept.
TEST(CrawlFrontierBound, ADroppedVariantDoesNotCountTowardTheTrapCap) {
  crawl_frontier f(bounded(1, 1 << 20), nullptr);
  EXPECT_EQ(f.discover(url_of("https://e.com/cal?m=1"), 1), discovery::queued);
  EXPECT_EQ(f.discover(url_of("https://e.com/cal?m=2"), 1), discovery::dropped);
  f.taken(std::string("https://e.com/cal?m=1").size());
  EXPECT_EQ(f.discover(url_of("https://e.com/cal?m=2"), 1), discovery::queued);
  f.taken(std::string("https://e.com/cal?m=2").size());
  EXPECT_EQ(f.discover(url_of("https://e.com/cal?m=3"), 1),
            discovery::trap_cap);
}

// Found too deep first, then within depth: its room moves with it.
TEST(CrawlFrontierBound, ATooDeepUrlFoundAgainWithinDepthKeepsOneRoom) {
  crawl_frontier f(bounded(1, 1 << 20), nullptr);
  EXPECT_EQ(f.discover(url_of(page(1)), 4), discovery::too_deep);
  EXPECT_EQ(f.held_urls(), 1u);
  EXPECT_EQ(f.discover(url_of(page(1)), 2), discovery::queued);
  EXPECT_EQ(f.held_urls(), 1u);
  EXPECT_TRUE(f.too_deep().empty());
}

}  // namespace
}  // namespace sitemill::detail
