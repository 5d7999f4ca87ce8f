// The crawler (generate --from-crawl's source) against the acceptance site
// (tests/support/crawl_site.h): the URLs it lists, every URL it skips with
// its reason, and the lastmods it gives must be exactly the site's expected
// answer, whatever the concurrency and whichever traps are opened.
#include "sitemill/crawl/crawl_source.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "sitemill/date/dates.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/source/state_db.h"
#include "support/crawl_site.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

struct crawl_outcome {
  std::vector<std::string> listed;  // sorted
  std::map<std::string, std::string> skipped;
  std::map<std::string, std::string> lastmod;
  std::vector<std::string> order;  // records as they came
  std::string error;
};

crawl_site_options small_site() {
  crawl_site_options o;
  o.pages = 300;
  o.slow_delay = std::chrono::milliseconds(200);
  return o;
}

crawl_options options_for(const crawl_site& site, const crawl_expectations& x,
                          unsigned concurrency) {
  crawl_options o;
  o.start_url = site.start_url();
  o.concurrency = concurrency;
  o.max_pages = x.max_pages;
  o.max_depth = x.max_depth;
  o.max_query_variants = x.max_query_variants;
  o.max_page_bytes = x.max_response_bytes;
  o.rules.honour_robots = x.respect_robots;
  o.seed_sitemaps = x.seed_sitemaps;
  o.resolve = {site.resolve_entry()};
  // Retried answers pause the host: keep the waits short (a Retry-After
  // still counts).
  o.retry.max_attempts = 2;
  o.retry.first_wait = std::chrono::milliseconds(50);
  return o;
}

// Reads the crawl's records; with `state`, as a --state run does (the
// reader may ask it for lastmods); stops reading after `stop_after` records
// (the reader then goes, as when a run is interrupted).
crawl_outcome crawl(const crawl_options& o, state_db* state = nullptr,
                    std::size_t stop_after = SIZE_MAX) {
  crawl_outcome out;
  auto source = crawl_source(o);
  source_context context;
  context.has_state = state != nullptr;
  EXPECT_TRUE(source->validate(context));
  context.state = state;
  auto reader = source->open(context);
  if (!reader) {
    out.error = reader.err().message;
    return out;
  }
  input_record r;
  while (out.order.size() < stop_after && (*reader)->next(r)) {
    const std::string loc(r.loc);
    out.order.push_back(loc);
    if (!r.skipped.empty()) {
      EXPECT_TRUE(out.skipped.emplace(loc, std::string(r.skipped)).second)
          << "reported twice: " << loc;
      continue;
    }
    out.listed.push_back(loc);
    if (!r.lastmod.empty()) out.lastmod.emplace(loc, std::string(r.lastmod));
  }
  out.error = (*reader)->error();
  std::sort(out.listed.begin(), out.listed.end());
  EXPECT_TRUE(std::adjacent_find(out.listed.begin(), out.listed.end()) ==
              out.listed.end())
      << "a page listed twice";
  return out;
}

void expect_answer(const crawl_site& site, const crawl_expectations& x,
                   const crawl_outcome& got) {
  EXPECT_EQ(got.error, "");
  EXPECT_EQ(got.listed, site.expected_urls(x));
  EXPECT_EQ(got.skipped, site.expected_skips(x));
  for (const auto& [url, text] : got.lastmod) {
    w3c_datetime when;
    ASSERT_EQ(parse_w3c_datetime(text, when), datetime_problem::ok) << text;
    EXPECT_EQ(site.expected_lastmod(url), to_time_point(when)) << url;
  }
  for (const std::string& url : got.listed) {
    if (site.expected_lastmod(url)) {
      EXPECT_TRUE(got.lastmod.contains(url)) << url;
    }
  }
}

TEST(CrawlSource, ListsExactlyTheExpectedPagesAndSaysWhyOfTheRest) {
  crawl_site site(small_site());
  const crawl_expectations x;
  const crawl_outcome got = crawl(options_for(site, x, 4));
  expect_answer(site, x, got);
  EXPECT_GT(got.listed.size(), 300u);
  // The once-only 429 and 503 were asked again, once each.
  EXPECT_EQ(site.server().count("/site/busy"), 2u);
  EXPECT_EQ(site.server().count("/site/unavailable"), 2u);
  // A 500 is asked again too (it may pass), as often as the policy says.
  EXPECT_EQ(site.server().count("/site/broken"), 2u);
  // Nothing was asked of 127.0.0.1:PORT, the same server under another
  // host name, which the off-host links and redirect name.
  for (const recorded_request& r : site.server().requests()) {
    const auto host = r.header("Host");
    ASSERT_TRUE(host);
    EXPECT_EQ(host->rfind("localhost:", 0), 0u)
        << "fetched from another host: " << *host << r.target;
  }
}

// Answers come back in any order at 8 requests at once; the records, and so
// where the caps cut, are those of one request at a time.
TEST(CrawlSource, ConcurrencyChangesNothingButTheTime) {
  crawl_site site(small_site());
  crawl_expectations x;
  x.max_pages = 150;
  const crawl_outcome one = crawl(options_for(site, x, 1));
  const crawl_outcome eight = crawl(options_for(site, x, 8));
  expect_answer(site, x, one);
  EXPECT_EQ(eight.order, one.order);
  EXPECT_EQ(eight.skipped, one.skipped);
}

TEST(CrawlSource, EachLimitCutsWhereTheRulesSay) {
  crawl_site site(small_site());
  std::vector<crawl_expectations> cases(5);
  cases[0].max_depth = 2;
  cases[1].max_query_variants = 8;
  cases[2].seed_sitemaps = true;
  cases[3].respect_robots = false;
  cases[4].max_response_bytes = 4 * 1024 * 1024;
  for (const crawl_expectations& x : cases) {
    SCOPED_TRACE(::testing::Message()
                 << "depth " << x.max_depth << ", variants "
                 << x.max_query_variants << ", seeds " << x.seed_sitemaps
                 << ", robots " << x.respect_robots << ", bytes "
                 << x.max_response_bytes);
    expect_answer(site, x, crawl(options_for(site, x, 4)));
  }
}

TEST(CrawlSource, SendsItsUserAgentAndReadsRobotsTxtFirst) {
  crawl_site site(small_site());
  crawl_expectations x;
  x.max_pages = 5;
  (void)crawl(options_for(site, x, 2));
  const auto requests = site.server().requests();
  ASSERT_FALSE(requests.empty());
  EXPECT_EQ(requests.front().target, "/robots.txt");
  for (const recorded_request& r : requests) {
    EXPECT_EQ(r.header("User-Agent").value_or("").rfind("sitemill/", 0), 0u);
  }
  EXPECT_EQ(requests.size(), 1u + 5u) << "robots.txt and max_pages pages";
}

// The requests the server got since `from` (its log's length then), robots.txt
// left out.
std::vector<recorded_request> page_requests(crawl_site& site,
                                            std::size_t from) {
  std::vector<recorded_request> all = site.server().requests();
  std::vector<recorded_request> out;
  for (std::size_t i = from; i < all.size(); ++i)
    if (all[i].target != "/robots.txt") out.push_back(all[i]);
  return out;
}

void expect_same_pages(const crawl_site& site, const crawl_outcome& got) {
  const crawl_expectations x;
  EXPECT_EQ(got.error, "");
  EXPECT_EQ(got.listed, site.expected_urls(x));
  EXPECT_EQ(got.skipped, site.expected_skips(x));
}

// With --state, a re-crawl asks every page that sent a Last-Modified
// conditionally, takes a 304's verdict, links and lastmod from the crawl
// cache, and gives the same records.
TEST(CrawlSource, AReCrawlWithStateAsksConditionallyAndAgrees) {
  crawl_site site(small_site());
  temp_dir t;
  auto db = state_db::open(t / "state.db");
  ASSERT_TRUE(db) << db.err().message;
  const crawl_options o = options_for(site, crawl_expectations{}, 4);

  ASSERT_TRUE((*db)->begin_run());
  const crawl_outcome first = crawl(o, db->get());
  ASSERT_TRUE((*db)->commit_run());
  expect_same_pages(site, first);
  const std::size_t mark = site.server().requests().size();

  ASSERT_TRUE((*db)->begin_run());
  const crawl_outcome again = crawl(o, db->get());
  ASSERT_TRUE((*db)->commit_run());
  expect_same_pages(site, again);
  EXPECT_EQ(again.order, first.order);
  EXPECT_EQ(again.lastmod, first.lastmod)
      << "unchanged pages keep their lastmod, from Last-Modified or the state";
  std::size_t conditional = 0;
  for (const recorded_request& r : page_requests(site, mark))
    if (r.header("If-Modified-Since")) ++conditional;
  EXPECT_EQ(conditional, 100u) << "every tree page that sends Last-Modified";
}

// A crawl stopped half way (the reader went: Ctrl-C) resumes on the next run:
// what it judged is not asked again, and the records are a whole crawl's.
TEST(CrawlSource, AnInterruptedCrawlWithStateResumes) {
  crawl_site site(small_site());
  temp_dir t;
  auto db = state_db::open(t / "state.db");
  ASSERT_TRUE(db) << db.err().message;
  const crawl_options o = options_for(site, crawl_expectations{}, 4);

  const std::size_t fresh_start = site.server().requests().size();
  const crawl_outcome fresh = crawl(o);  // no state: the yardstick
  const std::size_t fresh_requests = page_requests(site, fresh_start).size();

  ASSERT_TRUE((*db)->begin_run());
  const crawl_outcome cut = crawl(o, db->get(), 150);
  (*db)->abandon_run();
  EXPECT_EQ(cut.order.size(), 150u);
  const std::size_t mark = site.server().requests().size();

  ASSERT_TRUE((*db)->begin_run());
  const crawl_outcome resumed = crawl(o, db->get());
  ASSERT_TRUE((*db)->commit_run());
  expect_same_pages(site, resumed);
  EXPECT_EQ(resumed.order, fresh.order);
  const std::size_t resumed_requests = page_requests(site, mark).size();
  EXPECT_LT(resumed_requests + 100, fresh_requests)
      << "resumed: " << resumed_requests << ", fresh: " << fresh_requests;
}

// The progress callback: counts that only grow, and a last call, marked
// done, whose counts are the crawl's.
TEST(CrawlSource, TellsItsProgressAndEndsWithTheTotals) {
  crawl_site site(small_site());
  crawl_options o = options_for(site, crawl_expectations{}, 4);
  std::vector<crawl_progress> seen;
  std::mutex mu;
  o.progress = [&](const crawl_progress& p) {
    std::lock_guard lock(mu);
    seen.push_back(p);
  };
  const crawl_outcome got = crawl(o);
  ASSERT_EQ(got.error, "");
  std::lock_guard lock(mu);
  ASSERT_FALSE(seen.empty());
  for (std::size_t i = 1; i < seen.size(); ++i) {
    EXPECT_GE(seen[i].fetched, seen[i - 1].fetched);
    EXPECT_GE(seen[i].listed, seen[i - 1].listed);
    EXPECT_GE(seen[i].seconds, seen[i - 1].seconds);
  }
  EXPECT_EQ(std::count_if(seen.begin(), seen.end(),
                          [](const crawl_progress& p) { return p.done; }),
            1);
  const crawl_progress& last = seen.back();
  EXPECT_TRUE(last.done);
  EXPECT_EQ(last.listed, got.listed.size());
  EXPECT_EQ(last.skipped, got.skipped.size());
  EXPECT_EQ(last.queued, 0u);
  EXPECT_EQ(last.errors, 0u);
  // Every request but robots.txt's was a page (no seeds here).
  EXPECT_EQ(last.fetched + 1, site.server().requests().size() -
                                  2 /* busy and unavailable, asked twice */ -
                                  1 /* broken, asked twice */);
  EXPECT_GT(last.bytes, 0u);
}

// --include names a type to list (a PDF answered 200 is listed instead of
// "not html"); --exclude keeps a part of the site from being fetched.
TEST(CrawlSource, IncludeListsATypeAndExcludeIsNotFetched) {
  crawl_site site(small_site());
  const crawl_expectations x;
  const std::string pdf = site.url("/site/files/doc.pdf");
  {
    crawl_options o = options_for(site, x, 4);
    o.patterns = {{"*.pdf", true, false}};
    const crawl_outcome got = crawl(o);
    ASSERT_EQ(got.error, "");
    std::vector<std::string> listed = site.expected_urls(x);
    listed.insert(std::upper_bound(listed.begin(), listed.end(), pdf), pdf);
    EXPECT_EQ(got.listed, listed);
    std::map<std::string, std::string> skipped = site.expected_skips(x);
    ASSERT_EQ(skipped.erase(pdf), 1u);
    EXPECT_EQ(got.skipped, skipped);
  }
  {
    const std::size_t mark = site.server().requests().size();
    crawl_options o = options_for(site, x, 4);
    o.patterns = {{"files/", false, false}};
    const crawl_outcome got = crawl(o);
    ASSERT_EQ(got.error, "");
    EXPECT_EQ(got.listed, site.expected_urls(x));
    std::map<std::string, std::string> skipped = site.expected_skips(x);
    std::size_t excluded = 0;
    for (auto& [url, why] : skipped) {
      if (url.find("/site/files/") == std::string::npos) continue;
      why = "excluded by `patterns`";
      ++excluded;
    }
    EXPECT_EQ(excluded, 3u);
    EXPECT_EQ(got.skipped, skipped);
    for (const recorded_request& r : page_requests(site, mark))
      EXPECT_EQ(r.target.find("/site/files/"), std::string::npos) << r.target;
  }
}

// An answer judged by its head (a redirect, a 404, a PDF) with a small
// body has the body read and dropped, not refused: refusing ends the
// transfer by closing the connection, and a site of many redirects would
// cost a connection each. One request at a time, a handful of connections
// serve the whole crawl: one, one more after each refused 429 and 503
// retry (the fetcher's), and one after the huge page.
TEST(CrawlSource, KeepsItsConnectionsAcrossRedirectsAndErrors) {
  crawl_site site(small_site());
  const crawl_outcome got = crawl(options_for(site, crawl_expectations{}, 1));
  ASSERT_EQ(got.error, "");
  EXPECT_GT(site.server().requests().size(), 300u);
  EXPECT_LE(site.server().connections(), 6u);
}

TEST(CrawlSource, RefusesAStartThatIsNotAWebUrl) {
  crawl_options o;
  o.start_url = "ftp://example.com/";
  EXPECT_FALSE(crawl_source(o)->validate(source_context{}));
}

}  // namespace
}  // namespace sitemill::testing
