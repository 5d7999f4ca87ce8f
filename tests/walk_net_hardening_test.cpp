// Issue 34, the walker's side: a cancel reaches a request that waits for an
// answer (http_request::cancelled), and a child whose URL cannot be fetched
// is told as bad_url, never passed over.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "sitemill/net/http.h"
#include "sitemill/walk/walker.h"
#include "support/campaign.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill {
namespace {

using ::testing::HasSubstr;
using testing::http_reply;
using testing::http_server;
using testing::sitemapindex;
using testing::temp_dir;
using testing::text_reply;
using testing::urlset;
using testing::write_file;

using namespace std::chrono_literals;

// A server that reads the request and answers nothing for two minutes.
http_reply silent() {
  http_reply r = text_reply(200, "late");
  r.delay = 120s;
  return r;
}

struct events final : walk_observer, parse_handler {
  std::vector<walk_skip> skipped;  // on_skip and on_failed, in order
  std::vector<std::string> skipped_sources;
  std::vector<walk_read> reads;
  std::function<bool()> cancel = [] { return false; };

  parse_handler& on_open(const walk_document&) override { return *this; }
  void on_read(const walk_document&, const walk_read& r) override {
    reads.push_back(r);
  }
  void on_failed(const walk_document& doc, const walk_skip& why) override {
    skipped.push_back(why);
    skipped_sources.push_back(doc.source);
  }
  void on_skip(const walk_document& doc, const walk_skip& why) override {
    skipped.push_back(why);
    skipped_sources.push_back(doc.source);
  }
  bool cancelled() override { return cancel(); }
};

walk_options long_timeouts() {
  walk_options o;
  o.http.total_timeout = 120s;
  o.max_time = std::chrono::seconds(300);
  return o;
}

TEST(HttpClient, ARequestsCancelQuestionEndsAWaitForAnAnswer) {
  http_server server;
  server.route("/silent", silent());
  http_options options;
  options.total_timeout = 120s;
  http_client client(options);
  http_request request;
  request.url = server.url("/silent");
  request.cancelled = [&] { return server.count("/silent") > 0; };
  const auto r = client.send(request);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.err().message, server.url("/silent") + ": cancelled");
  EXPECT_EQ(server.count("/silent"), 1u);
  // Asked before anything is sent: nothing is.
  EXPECT_FALSE(client.send(request));
  EXPECT_EQ(server.count("/silent"), 1u);
}

// Before, the walker looked at its observer's cancel only as body bytes
// arrived, so a server that accepted and sent no headers held a Ctrl-C of
// check, stats and report until the request's timeout.
TEST(WalkCancel, AnObserversCancelEndsAFetchTheServerNeverAnswers) {
  http_server server;
  server.route("/sitemap.xml", silent());
  events seen;
  seen.cancel = [&] { return server.count("/sitemap.xml") > 0; };
  sitemap_walker walker(long_timeouts(), seen);
  walker.walk(server.url("/sitemap.xml"));
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::hostile_input,
                                 1);
  EXPECT_TRUE(walker.cancelled());
  ASSERT_EQ(seen.reads.size(), 1u);
  EXPECT_EQ(seen.reads[0].stop, walk_stop::cancelled);
  EXPECT_TRUE(seen.skipped.empty());

  // fetch_text (a site's robots.txt) ends the same way.
  events again;
  again.cancel = [&] { return server.count("/robots.txt") > 0; };
  server.route("/robots.txt", silent());
  walk_options o = long_timeouts();
  o.allow_private = true;  // no target names the server here
  sitemap_walker other(o, again);
  const walk_text text = other.fetch_text(server.url("/robots.txt"), 1024);
  EXPECT_EQ(text.stop, walk_stop::cancelled)
      << text.error << " " << (text.response ? text.response->status : 0);
  EXPECT_TRUE(other.cancelled());
}

TEST(WalkChildren, TellsAChildWhoseUrlCannotBeFetched) {
  http_server server;
  const std::string port = std::to_string(server.port());
  const std::vector<std::string> bad = {
      "http://user@127.0.0.1:" + port + "/u.xml",
      "http://127.0.0.1:83617/x.xml"};
  server.route("/index.xml", text_reply(200, sitemapindex({bad[0], bad[1]}),
                                        "application/xml"));
  events fetched;
  sitemap_walker(long_timeouts(), fetched).walk(server.url("/index.xml"));
  ASSERT_EQ(fetched.skipped.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(fetched.skipped[i].reason, walk_skip_reason::bad_url);
    EXPECT_EQ(fetched.skipped_sources[i], bad[i]);
  }
  EXPECT_THAT(fetched.skipped[0].message, HasSubstr("user name or password"));
  EXPECT_THAT(fetched.skipped[1].message, HasSubstr("port"));

  // A local index's, with or without fetching missing children.
  temp_dir t;
  write_file(t / "index.xml", sitemapindex({bad[0], bad[1]}));
  for (const bool fetch : {false, true}) {
    walk_options o = long_timeouts();
    o.fetch_missing_children = fetch;
    events local;
    sitemap_walker(o, local).walk(t / "index.xml");
    ASSERT_EQ(local.skipped.size(), 2u) << fetch;
    EXPECT_EQ(local.skipped[0].reason, walk_skip_reason::bad_url);
    EXPECT_EQ(local.skipped[1].reason, walk_skip_reason::bad_url);
  }
  EXPECT_EQ(server.count("/u.xml"), 0u);
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::hostile_input,
                                 2);
}

// Issue 34: "127.0.0.1." is 127.0.0.1, for the scope and for the request
// (normalised once, in normalized_url), so a child or a redirect spelled
// with the trailing dot is the same document on the same host.
TEST(WalkFetchScope, TakesAHostWithATrailingDotAsTheSameHost) {
  http_server server;
  const std::string dotted =
      "http://127.0.0.1.:" + std::to_string(server.port());
  server.route("/s.xml",
               text_reply(200, urlset({server.url("/a")}), "application/xml"));
  server.redirect("/old.xml", dotted + "/s.xml", 301);
  server.route("/index.xml",
               text_reply(200,
                          sitemapindex({dotted + "/s.xml", server.url("/s.xml"),
                                        server.url("/old.xml")}),
                          "application/xml"));
  events seen;
  sitemap_walker(long_timeouts(), seen).walk(server.url("/index.xml"));
  ASSERT_EQ(seen.reads.size(), 2u);  // the index and s.xml, once
  EXPECT_EQ(seen.reads[1].summary.entries, 1u);
  EXPECT_EQ(server.count("/s.xml"), 2u) << "once listed, once redirected to";
  ASSERT_EQ(seen.skipped.size(), 2u);
  EXPECT_EQ(seen.skipped[0].reason, walk_skip_reason::already_read);
  EXPECT_EQ(seen.skipped[1].reason, walk_skip_reason::redirect_already_read);
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::hostile_input,
                                 2);
}

}  // namespace
}  // namespace sitemill
