// check's network hardening (issue 34): a cancel reaches a request that
// waits for an answer, --audit keeps to the checked documents' hosts, an
// index child that cannot be fetched is reported, a host's trailing dot is
// the same host, and a local index cannot point --fetch-children at a
// private address.
//
// Each run given a signal has ten seconds to end after it. That is a bound
// on a hang, not a timing: before the fix these runs waited for --timeout.
#include <signal.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/campaign.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using ::testing::Not;

void tally_hostile(std::uint64_t n = 1) {
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::hostile_input,
                                 n);
}

// A server that accepts, reads the request and answers nothing for longer
// than the run's --timeout; `args` must fetch `path` from it. The run is
// sent `sig` once the server has the request, and must end with 130.
void expect_cancelled_while_silent(const std::vector<std::string>& args,
                                   http_server& server, const char* path,
                                   int sig) {
  http_reply silent;
  silent.delay = 120s;
  server.route(path, silent);
  background_process run(args);
  ASSERT_TRUE(eventually([&] { return server.count(path) > 0; }, 20s))
      << "the run never asked the server";
  ASSERT_FALSE(run.finished()) << "the run ended before the signal";
  ::kill(run.pid(), sig);
  const auto until = std::chrono::steady_clock::now() + 10s;
  while (!run.finished() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(run.finished())
      << "still running ten seconds after the signal (--timeout is 60 s)";
  const run_result r = run.wait();
  EXPECT_EQ(r.exit_code, 130) << "signal " << r.term_signal;
  tally_hostile();
}

TEST(CheckNetHardening, SigtermEndsCheckWhileAServerSaysNothing) {
  http_server server;
  expect_cancelled_while_silent(
      {"check", "--timeout", "60", server.url("/sitemap.xml")}, server,
      "/sitemap.xml", SIGTERM);
}

TEST(CheckNetHardening, SigintEndsCheckOfASiteWhileRobotsTxtSaysNothing) {
  http_server server;
  expect_cancelled_while_silent({"check", "--timeout", "60", server.url("/")},
                                server, "/robots.txt", SIGINT);
}

TEST(CheckNetHardening, SigtermEndsStatsWhileAServerSaysNothing) {
  http_server server;
  expect_cancelled_while_silent(
      {"stats", "--timeout", "60", server.url("/sitemap.xml")}, server,
      "/sitemap.xml", SIGTERM);
}

TEST(CheckNetHardening, SigtermEndsReportWhileAServerSaysNothing) {
  http_server server;
  temp_dir dir;
  expect_cancelled_while_silent({"report", "--timeout", "60", "-o",
                                 dir / "r.html", server.url("/sitemap.xml")},
                                server, "/sitemap.xml", SIGTERM);
}

TEST(CheckNetHardening, SigtermEndsAnAuditWhileAListedPageSaysNothing) {
  http_server server;
  server.route("/sitemap.xml",
               text_reply(200, urlset({server.url("/slow")}),
                          "application/xml"));
  expect_cancelled_while_silent({"check", "--audit", "--timeout", "60",
                                 server.url("/sitemap.xml")},
                                server, "/slow", SIGTERM);
}

// --- item 4: --audit keeps to the sitemap's host and port --------------------

const char* xml = "application/xml";

TEST(CheckNetHardening, AuditFetchesNoListedUrlOnAnotherPort) {
  http_server site, other;
  other.route("/secret", text_reply(200, "<html>secret</html>", "text/html"));
  site.route("/a", text_reply(200, "<html>a</html>", "text/html"));
  site.route(
      "/sitemap.xml",
      text_reply(200, urlset({site.url("/a"), other.url("/secret")}), xml));
  run_result r = run_sitemill({"check", "--audit", site.url("/sitemap.xml")});
  tally_hostile();
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;  // outside-location
  EXPECT_TRUE(other.requests().empty())
      << "the audit asked " << other.requests().front().target;
  EXPECT_EQ(site.count("/a"), 1u) << "the sitemap's own URL is audited";
  EXPECT_THAT(r.out, HasSubstr("[audit-off-site]"));
  EXPECT_THAT(r.out, HasSubstr(other.url("/secret")));
  EXPECT_THAT(r.out,
              HasSubstr("is not on 127.0.0.1:" + std::to_string(site.port())));
}

// A redirected sitemap is held to where it answered from, as the walker
// holds its children.
TEST(CheckNetHardening, AuditHoldsARedirectedSitemapToWhereItAnswered) {
  http_server site;
  site.route("/new/a", text_reply(200, "<html>a</html>", "text/html"));
  site.route("/new/sitemap.xml",
             text_reply(200, urlset({site.url("/new/a")}), xml));
  site.redirect("/sitemap.xml", site.url("/new/sitemap.xml"));
  run_result r = run_sitemill({"check", "--audit", site.url("/sitemap.xml")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(site.count("/new/a"), 1u);
  EXPECT_THAT(r.out, Not(HasSubstr("audit-off-site")));
}

// The existing opt-in for another host: a site's robots.txt names a sitemap
// kept on another server (a cross-submit), whose URLs are the site's, and
// are audited there; one on the sitemap's own server is not.
TEST(CheckNetHardening, AuditFollowsACrossSubmitToTheSiteThatNamesIt) {
  http_server site, store;
  site.route("/robots.txt",
             text_reply(200, "Sitemap: " + store.url("/s.xml") + "\n"));
  site.route("/page", text_reply(200, "<html>p</html>", "text/html"));
  store.route("/own", text_reply(200, "<html>o</html>", "text/html"));
  store.route(
      "/s.xml",
      text_reply(200, urlset({site.url("/page"), store.url("/own")}), xml));
  run_result r = run_sitemill({"check", "--audit", site.url("/")});
  tally_hostile();
  EXPECT_EQ(site.count("/page"), 1u) << r.out << r.err;
  EXPECT_EQ(store.count("/own"), 0u) << r.out;
  EXPECT_THAT(r.out, HasSubstr("[audit-off-site]"));
}

// A local sitemap whose URL is not known is the user's own list: its URLs
// are audited wherever they are (private addresses aside, as before).
TEST(CheckNetHardening, AuditReadsALocalSitemapWithNoKnownUrlEverywhere) {
  http_server one, two;
  one.route("/p", text_reply(200, "<html>1</html>", "text/html"));
  two.route("/q", text_reply(200, "<html>2</html>", "text/html"));
  temp_dir dir;
  write_file(dir / "sitemap.xml", urlset({one.url("/p"), two.url("/q")}));
  run_result r = run_sitemill(
      {"check", "--audit", "--allow-private", dir / "sitemap.xml"});
  EXPECT_EQ(one.count("/p"), 1u) << r.out << r.err;
  EXPECT_EQ(two.count("/q"), 1u) << r.out << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("audit-off-site")));
}

// --- item 7: a child that cannot be fetched is reported ---------------------

TEST(CheckNetHardening, ReportsAFetchedIndexsChildsUrlThatCannotBeFetched) {
  http_server server;
  const std::string port = std::to_string(server.port());
  const std::string with_user = "http://user@127.0.0.1:" + port + "/u.xml";
  const std::string bad_port = "http://127.0.0.1:83617/x.xml";
  server.route("/ok.xml", text_reply(200, urlset({server.url("/a")}), xml));
  server.route(
      "/index.xml",
      text_reply(200,
                 sitemapindex({with_user, bad_port, server.url("/ok.xml")}),
                 xml));
  run_result r = run_sitemill({"check", server.url("/index.xml")});
  tally_hostile(2);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("0 errors")));
  EXPECT_THAT(r.out, HasSubstr("sitemap \"" + with_user + "\": not checked"));
  EXPECT_THAT(r.out, HasSubstr("sitemap \"" + bad_port + "\": not checked"));
  EXPECT_EQ(server.count("/u.xml"), 0u);
  EXPECT_EQ(server.count("/ok.xml"), 1u);
  run_result j = run_sitemill({"check", "--json", server.url("/index.xml")});
  const nlohmann::json report = parse_report(j);
  int bad = 0;
  for (const auto& doc : report["documents"])
    for (const auto& d : doc["diagnostics"]) bad += d["code"] == "bad-target";
  EXPECT_EQ(bad, 2) << j.out;
}

TEST(CheckNetHardening, ReportsALocalIndexsChildUrlThatCannotBeFetched) {
  temp_dir dir;
  write_file(dir / "sitemap-1.xml", urlset({"https://www.example.com/a"}));
  write_file(dir / "sitemap.xml",
             sitemapindex({"https://user:pw@www.example.com/secret.xml",
                           "https://www.example.com:99999/x.xml",
                           "https://www.example.com/sitemap-1.xml"}));
  for (const bool fetch : {false, true}) {
    std::vector<std::string> args = {"check", dir / "sitemap.xml"};
    if (fetch) args.push_back("--fetch-children");
    run_result r = run_sitemill(args);
    tally_hostile(2);
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("[bad-target]"));
    EXPECT_THAT(r.out, HasSubstr("user name or password"));
    EXPECT_THAT(r.out, HasSubstr("port"));
    EXPECT_THAT(r.out, HasSubstr("sitemap-1.xml"));
  }
}

// --- item 8: a trailing dot is the same host --------------------------------

TEST(CheckNetHardening, ReadsAChildWithATrailingDotFromTheSameHostOnce) {
  http_server server;
  const std::string dotted =
      "http://127.0.0.1.:" + std::to_string(server.port()) + "/s.xml";
  server.route("/s.xml", text_reply(200, urlset({server.url("/a")}), xml));
  server.route(
      "/index.xml",
      text_reply(200, sitemapindex({dotted, server.url("/s.xml")}), xml));
  run_result r = run_sitemill({"check", server.url("/index.xml")});
  tally_hostile();
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(server.count("/s.xml"), 1u) << "one document, read once";
  EXPECT_THAT(r.out, HasSubstr("already checked"));
}

// --- item 9: a local index names no private address -------------------------

TEST(CheckNetHardening, FetchChildrenRefusesAPrivateAddressALocalIndexNames) {
  http_server server;  // 127.0.0.1 stands for 169.254.169.254 here
  server.route("/latest/s.xml",
               text_reply(200, urlset({server.url("/latest/a")}), xml));
  temp_dir dir;
  write_file(dir / "sitemap.xml", sitemapindex({server.url("/latest/s.xml")}));
  run_result r =
      run_sitemill({"check", "--fetch-children", dir / "sitemap.xml"});
  tally_hostile();
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(server.requests().empty());
  EXPECT_THAT(r.out, HasSubstr("not connected to 127.0.0.1"));
  EXPECT_THAT(r.out, HasSubstr("[fetch-failed]"));

  run_result allowed = run_sitemill(
      {"check", "--fetch-children", "--allow-private", dir / "sitemap.xml"});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.out << allowed.err;
  EXPECT_EQ(server.count("/latest/s.xml"), 1u);

  // A target that names the address allows it, as for a fetched index.
  run_result named =
      run_sitemill({"check", "--fetch-children", "--sitemap-url",
                    server.url("/sitemap.xml"), dir / "sitemap.xml"});
  EXPECT_EQ(named.exit_code, 0) << named.out << named.err;
  EXPECT_EQ(server.count("/latest/s.xml"), 2u);
}

}  // namespace
}  // namespace sitemill::testing
