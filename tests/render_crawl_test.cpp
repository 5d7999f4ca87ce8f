// The rendering crawl through the library (crawl_options::render): what
// the CLI cannot set is tested here. A page that never settles is reported
// "render failed: not settled within ..." at render_timeout, alone: the
// other pages, in the same browser, are listed. One browser.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "sitemill/crawl/crawl_source.h"
#include "support/http_server.h"

namespace sitemill::testing {
namespace {

constexpr const char* links =
    "<!doctype html><html><head><title>Home</title></head><body>"
    "<a href=\"/busy\">busy</a> "
    "<a href=\"/calm\">calm</a></body></html>";

// Asks for more every 100 ms, for ever: the network is never idle.
constexpr const char* busy =
    "<!doctype html><html><head><script>"
    "setInterval(() => fetch('/poll?' + Date.now()), 100);"
    "</script></head><body>busy</body></html>";

TEST(RenderCrawl, APageThatNeverSettlesFailsAlone) {
  http_server server;
  server.route("/robots.txt", text_reply(404, ""));
  server.route("/", text_reply(200, links, "text/html"));
  server.route("/busy", text_reply(200, busy, "text/html"));
  server.route("/calm",
               text_reply(200, "<title>calm</title>calm", "text/html"));
  server.fallback(
      [](const recorded_request&) { return text_reply(200, "{}"); });

  crawl_options o;
  o.start_url = server.url("/");
  o.allow_private = true;
  o.render = true;
  o.render_concurrency = 2;
  o.render_timeout = std::chrono::seconds(8);
  auto source = crawl_source(o);
  source_context context;
  ASSERT_TRUE(source->validate(context));
  auto reader = source->open(context);
  ASSERT_TRUE(reader);
  std::vector<std::string> listed;
  std::map<std::string, std::string> skipped;
  input_record r;
  while ((*reader)->next(r)) {
    if (r.skipped.empty()) {
      listed.emplace_back(r.loc);
    } else {
      skipped.emplace(std::string(r.loc), std::string(r.skipped));
    }
  }
  EXPECT_EQ((*reader)->error(), "");
  EXPECT_EQ(listed,
            (std::vector<std::string>{server.url("/"), server.url("/calm")}));
  EXPECT_EQ(
      skipped,
      (std::map<std::string, std::string>{
          {server.url("/busy"), "render failed: not settled within 8 s"}}));
  EXPECT_GT(server.count("/poll"), 0u);  // its requests went through the crawl
}

}  // namespace
}  // namespace sitemill::testing
