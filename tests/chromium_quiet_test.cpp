// What sitemill's headless Chromium keeps alive besides the pages it is
// given (src/net/chromium.cpp's switches): nothing. Chromium builds parts of
// its own UI as web pages (the address bar's suggestion popups, the reload
// button) and loads them even headless, each in a renderer of its own for
// as long as the browser runs (about 100 MiB together, measured with
// benchmarks/render_bench.sh); sitemill's switches turn them off. After a
// page was loaded and its tab closed, the browser's targets are the
// browser itself and the blank tab it starts with.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "net/chromium.h"
#include "support/http_server.h"

namespace sitemill::detail {
namespace {

using std::chrono::milliseconds;

TEST(ChromiumQuiet, NoPageOfTheBrowsersOwnUiIsKeptAlive) {
  testing::http_server server;
  server.route("/", testing::text_reply(
                        200,
                        "<!doctype html><title>A page</title><p>Hello</p>",
                        "text/html"));
  auto started = chromium::start({});
  ASSERT_TRUE(started) << started.err().message;
  cdp_client& c = (*started)->client();

  // A page loaded to its load event and closed: the browser is fully up.
  auto target =
      c.call("Target.createTarget", cdp_params().add("url", "about:blank").str());
  ASSERT_TRUE(target);
  const std::string id = json_member(target->body, {"targetId"}).value_or("");
  auto attached = c.call(
      "Target.attachToTarget",
      cdp_params().add("targetId", id).add("flatten", true).str());
  ASSERT_TRUE(attached);
  const std::string session =
      json_member(attached->body, {"sessionId"}).value_or("");
  ASSERT_TRUE(c.call("Page.enable", "{}", session));
  ASSERT_TRUE(c.call("Page.navigate",
                     cdp_params().add("url", server.url("/")).str(), session));
  for (;;) {
    auto m = c.next(milliseconds(30'000));
    ASSERT_TRUE(m && *m) << "no load event";
    if ((*m)->method == "Page.loadEventFired" && (*m)->session_id == session)
      break;
  }
  ASSERT_TRUE(
      c.call("Target.closeTarget", cdp_params().add("targetId", id).str()));

  // Target.getTargets lists every target, the browser's own UI's too
  // (chrome://omnibox-popup.top-chrome/ and the like).
  auto targets = c.call("Target.getTargets", "{}");
  ASSERT_TRUE(targets) << targets.err().message;
  EXPECT_NE(targets->body.find("about:blank"), std::string::npos)
      << targets->body;
  EXPECT_EQ(targets->body.find("chrome://"), std::string::npos)
      << "a page of the browser's own UI is alive: " << targets->body;
}

}  // namespace
}  // namespace sitemill::detail
