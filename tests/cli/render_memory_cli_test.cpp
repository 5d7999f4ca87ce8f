// `generate --from-crawl --render --render-memory MIB`: each tab's
// JavaScript heap is capped (V8's old space). A page whose script allocates
// far past the cap, here 64 MiB against a loop that would take gigabytes,
// crashes its own tab: it is reported skipped with a reason that says so,
// and the crawl goes on to the pages after it, in the same run, which
// exits 0. Neither a hang (the run is bounded by its timeout) nor a crash
// of sitemill.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string page(std::string_view head, std::string_view body) {
  return "<!doctype html><html><head><title>Page</title>" + std::string(head) +
         "</head><body>" + std::string(body) + "</body></html>";
}

// Holds on to 8 MiB arrays of numbers (V8's heap, not a buffer) for ever.
constexpr std::string_view hog =
    "<script>const held = []; for (;;) held.push(new Array(1 << 20).fill(1.5));"
    "</script>";

TEST(RenderMemoryCli, APagePastItsTabsHeapIsSkippedAndTheCrawlGoesOn) {
  http_server server;
  server.route("/robots.txt", text_reply(404, ""));
  server.route("/", text_reply(200,
                               page("", "<a href=/hog>hog</a> "
                                        "<a href=/calm>calm</a>"),
                               "text/html"));
  server.route("/hog", text_reply(200, page(hog, "<a href=/after-hog>x</a>"),
                                  "text/html"));
  server.route("/calm", text_reply(200, page("", "<a href=/later>later</a>"),
                                   "text/html"));
  server.route("/later", text_reply(200, page("", "later"), "text/html"));

  temp_dir t;
  run_options limits;
  limits.timeout = std::chrono::seconds(180);
  set_expectations expect;
  expect.base_url = server.url("/");
  const generate_run g = generate_and_check(
      t / "out",
      {"--from-crawl", server.url("/"), "--no-gzip", "--allow-private",
       "--render", "--render-concurrency", "1", "--render-memory", "64"},
      limits, expect);
  ASSERT_FALSE(g.run.timed_out) << "the crawl hung";
  ASSERT_EQ(g.run.exit_code, 0) << g.run.err;
  const nlohmann::json& report = g.report;

  std::map<std::string, std::string> skipped;
  for (const auto& s : report.at("skipped")) {
    const std::string reason = s.at("reason");
    const std::size_t colon = reason.find(": ", reason.find("//"));
    skipped[reason.substr(0, colon)] = reason.substr(colon + 2);
  }
  ASSERT_EQ(skipped.size(), 1u) << report.dump();
  EXPECT_EQ(skipped.begin()->first, server.url("/hog"));
  EXPECT_THAT(skipped.begin()->second, StartsWith("render failed: "));
  EXPECT_THAT(skipped.begin()->second, HasSubstr("64 MiB"));

  // The crawl went on: the pages after it were rendered and listed; the
  // link only the failed page had was not followed.
  std::vector<std::string> listed = all_locs(g.set);
  std::sort(listed.begin(), listed.end());
  EXPECT_THAT(listed, ElementsAre(server.url("/"), server.url("/calm"),
                                  server.url("/later")));
  EXPECT_EQ(server.count("/after-hog"), 0u);
}

}  // namespace
}  // namespace sitemill::testing
