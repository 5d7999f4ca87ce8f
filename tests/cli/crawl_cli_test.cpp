// `sitemill generate --from-crawl` end to end (issue 12): the published set
// is the acceptance site's expected answer, every URL left out is in the
// report with its reason, the crawl mixes with other sources, and a site
// whose robots.txt cannot be read publishes nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <map>
#include <thread>

#include "support/crawl_site.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;

crawl_site_options small_site() {
  crawl_site_options o;
  o.pages = 300;
  o.slow_delay = std::chrono::milliseconds(200);
  return o;
}

// The flags that make the CLI's crawl the site's reference crawl
// (crawl_expectations' defaults).
std::vector<std::string> crawl_args(const crawl_site& site) {
  return {
      "--from-crawl", site.start_url(),       "--base-url", site.start_url(),
      "--no-gzip",    "--max-query-variants", "5",          "--max-page-size",
      "2MiB"};
}

TEST(CrawlCli, PublishesTheExpectedPagesAndReportsEveryOtherUrl) {
  crawl_site site(small_site());
  temp_dir t;
  set_expectations expect;
  expect.base_url = site.start_url();
  const generate_run g =
      generate_and_check(t / "out", crawl_args(site), {}, expect);
  std::vector<std::string> locs = all_locs(g.set);
  std::sort(locs.begin(), locs.end());
  const crawl_expectations x;
  EXPECT_EQ(locs, site.expected_urls(x));

  std::map<std::string, std::string> skipped;
  for (const auto& s : g.report.at("skipped")) {
    const std::string reason = s.at("reason");
    const std::size_t colon = reason.find(": ", reason.find("//"));
    ASSERT_NE(colon, std::string::npos) << reason;
    skipped[reason.substr(0, colon)] = reason.substr(colon + 2);
  }
  EXPECT_EQ(skipped, site.expected_skips(x));
  EXPECT_EQ(g.report.at("skipped").size(), site.expected_skips(x).size());
}

TEST(CrawlCli, MixesWithAListAndListsEachPageOnce) {
  crawl_site site(small_site());
  temp_dir t;
  const std::string extra = site.url("/site/only-in-the-list");
  const std::string crawled = site.url("/site/s0/p0.html");
  write_file(t / "urls.txt", extra + "\n" + crawled + "\n");
  std::vector<std::string> args = crawl_args(site);
  args.push_back(t / "urls.txt");
  set_expectations expect;
  expect.base_url = site.start_url();
  const generate_run g = generate_and_check(t / "out", args, {}, expect);
  const std::vector<std::string> locs = all_locs(g.set);
  EXPECT_EQ(std::count(locs.begin(), locs.end(), extra), 1);
  EXPECT_EQ(std::count(locs.begin(), locs.end(), crawled), 1);
  EXPECT_EQ(locs.size(), site.expected_urls(crawl_expectations{}).size() + 1);
}

// The test: kill -9 in the middle of a crawl with --state; the rerun
// resumes (asks fewer pages than a whole crawl does) and publishes the set a
// whole crawl publishes. The old set stays in place meanwhile.
TEST(CrawlCli, AKilledCrawlResumesAndPublishesTheSameSet) {
  crawl_site_options o = small_site();
  o.pages = 1500;
  crawl_site site(o);
  temp_dir t;
  std::vector<std::string> args = {"generate", "--out",        t / "out",
                                   "--state",  t / "state.db", "--concurrency",
                                   "2"};
  for (const std::string& a : crawl_args(site)) args.push_back(a);

  const std::size_t fresh_start = site.server().requests().size();
  const run_result fresh = run_sitemill(
      {"generate", "--out", t / "fresh", "--from-crawl", site.start_url(),
       "--base-url", site.start_url(), "--no-gzip", "--max-query-variants", "5",
       "--max-page-size", "2MiB", "--concurrency", "2"});
  ASSERT_EQ(fresh.exit_code, 0) << fresh.err;
  const std::size_t fresh_requests =
      site.server().requests().size() - fresh_start;

  const std::size_t mark = site.server().requests().size();
  {
    background_process crawl(args);
    // Past two of the cache's 200-page transactions, then kill.
    for (int i = 0; i < 3000; ++i) {
      if (site.server().requests().size() - mark >= 700 || crawl.finished())
        break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ASSERT_FALSE(crawl.finished()) << "the crawl ended before the kill";
    crawl.kill_and_wait(SIGKILL);
  }
  EXPECT_TRUE(list_files(t / "out").empty()) << "nothing published yet";

  const std::size_t resumed_start = site.server().requests().size();
  const run_result resumed = run_sitemill(args);
  ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
  const std::size_t resumed_requests =
      site.server().requests().size() - resumed_start;
  EXPECT_LT(resumed_requests + 300, fresh_requests)
      << "resumed " << resumed_requests << ", whole " << fresh_requests;
  // The same pages in the same order; lastmods differ where a page sends
  // no Last-Modified: --state dates those by content (today), the crawl
  // without it leaves them undated.
  set_expectations expect;
  expect.base_url = site.start_url();
  EXPECT_EQ(all_locs(expect_valid_set(t / "out", expect)),
            all_locs(expect_valid_set(t / "fresh", expect)));
}

TEST(CrawlCli, AnUnreadableRobotsTxtPublishesNothing) {
  http_server server;
  server.route("/robots.txt", text_reply(503, "busy\n"));
  server.route("/", text_reply(200, "<a href=\"/a\">a</a>", "text/html"));
  temp_dir t;
  const run_result r =
      run_sitemill({"generate", "--from-crawl", server.url("/"), "--base-url",
                    server.url("/"), "--out", t / "out", "--no-gzip"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("robots.txt"));
  EXPECT_THAT(r.err, HasSubstr("RFC 9309"));
  EXPECT_TRUE(list_files(t / "out").empty());
  EXPECT_EQ(server.count("/"), 0u) << "no page fetched";

  // --ignore-robots crawls anyway.
  const run_result anyway = run_sitemill(
      {"generate", "--from-crawl", server.url("/"), "--base-url",
       server.url("/"), "--out", t / "out", "--no-gzip", "--ignore-robots"});
  EXPECT_EQ(anyway.exit_code, 0) << anyway.err;
  EXPECT_EQ(server.count("/"), 1u);
}

// http://site/ that answers with a redirect to https://www.site/ would give
// an empty set without a word; the run fails and says where to start.
TEST(CrawlCli, AStartUrlThatRedirectsOutOfItsScopeIsAnError) {
  http_server server;
  server.route("/robots.txt", text_reply(404, "none\n"));
  server.redirect("/shop/", "/store/");
  temp_dir t;
  const run_result r = run_sitemill(
      {"generate", "--from-crawl", server.url("/shop/"), "--base-url",
       server.url("/"), "--out", t / "out", "--no-gzip"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("redirects to " + server.url("/store/")));
  EXPECT_THAT(r.err, HasSubstr("start the crawl there"));
  EXPECT_TRUE(list_files(t / "out").empty());
}

TEST(CrawlCli, RefusesAStartUrlThatIsNotAWebUrl) {
  temp_dir t;
  const run_result r =
      run_sitemill({"generate", "--from-crawl", "ftp://example.com/",
                    "--base-url", "https://example.com/", "--out", t / "out"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("--from-crawl ftp://example.com/"));
  EXPECT_FALSE(std::filesystem::exists(t / "out"));
}

}  // namespace
}  // namespace sitemill::testing
