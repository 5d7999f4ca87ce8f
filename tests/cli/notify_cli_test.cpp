// End-to-end tests of `sitemill robots`, `sitemill ping` and `sitemill
// indexnow`: exit codes, messages, --dry-run output, and robots.txt edits
// that keep every unrelated byte; the network is a loopback server.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "notify_support.h"
#include "sitemill/notify/indexnow.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using json = nlohmann::json;

// A robots.txt with everything an edit must not disturb: BOM, CRLF,
// comments, two groups, a blank line, a Sitemap line between groups, and a
// last line without a line end.
const std::string kRobots =
    "\xEF\xBB\xBF# robots.txt for www.example.com\r\n"
    "User-agent: Googlebot   # the big one\r\n"
    "Disallow: /private/\r\n"
    "\r\n"
    "sitemap: https://www.example.com/old-sitemap.xml\r\n"
    "User-agent: *\r\n"
    "Crawl-delay: 10\r\n"
    "Disallow: /tmp/";

// --- robots

TEST(RobotsCli, AppendsTheSitemapKeepingEveryOtherByte) {
  temp_dir t;
  const std::string path = t / "robots.txt";
  write_file(path, kRobots);
  const run_result r = run_sitemill({"robots", path, "--sitemap", kSitemap});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_raw(path), kRobots + "\r\n\r\nSitemap: " + kSitemap + "\r\n");
  EXPECT_THAT(r.err, HasSubstr("added Sitemap: " + std::string(kSitemap)));
  EXPECT_THAT(r.err, HasSubstr("updated"));
  EXPECT_THAT(list_all(t.path()), ElementsAre("robots.txt"));

  // A second run finds nothing to do.
  const run_result again =
      run_sitemill({"robots", path, "--sitemap", kSitemap});
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_THAT(again.err, HasSubstr("already lists"));
  EXPECT_THAT(again.err, HasSubstr("unchanged"));
}

TEST(RobotsCli, ReplaceRemovesOnlyOtherSitemapLines) {
  temp_dir t;
  const std::string path = t / "robots.txt";
  write_file(path, kRobots);
  const run_result r =
      run_sitemill({"robots", "--sitemap", kSitemap, "--replace", path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_raw(path),
            "\xEF\xBB\xBF# robots.txt for www.example.com\r\n"
            "User-agent: Googlebot   # the big one\r\n"
            "Disallow: /private/\r\n"
            "\r\n"
            "User-agent: *\r\n"
            "Crawl-delay: 10\r\n"
            "Disallow: /tmp/\r\n"
            "\r\n"
            "Sitemap: https://www.example.com/sitemap.xml\r\n");
  EXPECT_THAT(r.err, HasSubstr(":5: removed \"sitemap: "
                               "https://www.example.com/old-sitemap.xml\": "
                               "names a sitemap not asked for, and "
                               "--replace was given"));
}

TEST(RobotsCli, NamesTheReplaceFlagInItsWarnings) {
  temp_dir t;
  const std::string path = t / "robots.txt";
  write_file(path, "Sitemap: /relative.xml\n");
  const run_result r = run_sitemill({"robots", path, "--sitemap", kSitemap});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("warning: line 1: \"Sitemap: /relative.xml\" "
                               "does not hold a full http(s) URL, which "
                               "crawlers need; --replace removes it"));
}

TEST(RobotsCli, DryRunPrintsTheFileAndWritesNothing) {
  temp_dir t;
  const std::string path = t / "robots.txt";
  write_file(path, kRobots);
  const run_result r =
      run_sitemill({"robots", path, "--sitemap", kSitemap, "--sitemap",
                    "https://www.example.com/news.xml", "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, kRobots + "\r\n\r\nSitemap: " + kSitemap +
                       "\r\nSitemap: https://www.example.com/news.xml\r\n");
  EXPECT_EQ(read_raw(path), kRobots);
  EXPECT_THAT(r.err, HasSubstr("would add"));
  EXPECT_THAT(r.err, HasSubstr("would be updated"));
}

TEST(RobotsCli, CreatesAMissingFile) {
  temp_dir t;
  const std::string path = t / "robots.txt";
  const run_result r = run_sitemill(
      {"robots", path, "--sitemap", "https://www.example.com/a b/ü.xml"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(read_raw(path),
            "Sitemap: https://www.example.com/a%20b/%C3%BC.xml\n");
  EXPECT_THAT(r.err, HasSubstr("created"));
}

TEST(RobotsCli, RefusesRelativeUrlsAndUnwritablePlaces) {
  temp_dir t;
  const std::string path = t / "robots.txt";
  write_file(path, kRobots);
  const run_result relative =
      run_sitemill({"robots", path, "--sitemap", "/sitemap.xml"});
  EXPECT_EQ(relative.exit_code, 2);
  EXPECT_THAT(relative.err, HasSubstr("relative"));
  EXPECT_EQ(read_raw(path), kRobots);

  const run_result no_dir =
      run_sitemill({"robots", t / "no/robots.txt", "--sitemap", kSitemap});
  EXPECT_EQ(no_dir.exit_code, 2);
  EXPECT_THAT(no_dir.err, HasSubstr("no/robots.txt"));

  const run_result no_sitemap = run_sitemill({"robots", path});
  EXPECT_EQ(no_sitemap.exit_code, 2);
}

// --- ping

TEST(PingCli, Exits0On200AndPrintsTheRequest) {
  http_server server;
  server.route("/ping", text_reply(200, "thanks"));
  const run_result r =
      run_sitemill({"ping", "--endpoint", server.url("/ping"), kSitemap});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(server.url("/ping?sitemap=" + kEncoded) +
                               ": accepted: 200 OK"));
  ASSERT_EQ(server.count("/ping"), 1u);
  EXPECT_EQ(server.requests()[0].target, "/ping?sitemap=" + kEncoded);
}

TEST(PingCli, ReportsEachEndpointAndExits1WhenOneIsRetired) {
  http_server server;
  server.route("/ok", text_reply(200, ""));
  server.route("/google", text_reply(404, ""));
  server.route("/bing", text_reply(410, ""));
  const run_result r = run_sitemill(
      {"ping", "--endpoint", server.url("/ok"), "--endpoint",
       server.url("/google"), "--endpoint", server.url("/bing"), kSitemap});
  EXPECT_EQ(r.exit_code, 1);
  const auto lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_THAT(lines[0], HasSubstr("accepted"));
  EXPECT_THAT(lines[1],
              HasSubstr("404 Not Found: this endpoint has been retired"));
  EXPECT_THAT(lines[2], HasSubstr("410 Gone: this endpoint has been retired"));
  EXPECT_THAT(lines[2], HasSubstr("sitemill robots"));
  EXPECT_THAT(lines[2], HasSubstr("sitemill indexnow"));
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST(PingCli, RetriesAndGivesUpWithExit1) {
  http_server server;
  http_reply busy = text_reply(503, "busy");
  busy.headers.emplace_back("Retry-After", "120");
  server.route("/ping", busy);
  const run_result r =
      run_sitemill({"ping", "--endpoint", server.url("/ping"), "--retries", "2",
                    "--max-wait", "0.01", kSitemap});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("gave up after 3 tries"));
  EXPECT_EQ(server.count("/ping"), 3u);
  EXPECT_THAT(r.err, HasSubstr("waiting 0.0 s before trying again"));
}

TEST(PingCli, DryRunPrintsExactlyTheRequestsAndSendsNothing) {
  http_server server;
  const run_result r = run_sitemill({"ping", "--dry-run", "--verify",
                                     "--endpoint", server.url("/ping?x=1"),
                                     "https://www.example.com/a b/ü.xml"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "GET https://www.example.com/a%20b/%C3%BC.xml (--verify: must "
            "answer 200)\n"
            "GET " +
                server.url("/ping?x=1&sitemap=https%3A%2F%2Fwww.example.com%"
                           "2Fa%2520b%2F%25C3%25BC.xml") +
                "\n");
  EXPECT_TRUE(server.requests().empty());
}

TEST(PingCli, VerifyStopsThePingOfASitemapThatDoesNotAnswer200) {
  http_server server;
  server.route("/ping", text_reply(200, ""));
  server.route("/sitemap.xml", text_reply(404, ""));
  const run_result r =
      run_sitemill({"ping", "--verify", "--endpoint", server.url("/ping"),
                    server.url("/sitemap.xml")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("404 Not Found"));
  EXPECT_EQ(server.count("/ping"), 0u);
  EXPECT_EQ(server.count("/sitemap.xml"), 1u);
}

TEST(PingCli, TimesOutOnASlowServer) {
  http_server server;
  http_reply slow = text_reply(200, "");
  slow.delay = std::chrono::milliseconds(10'000);
  server.route("/ping", slow);
  const run_result r = run_sitemill(
      {"ping", "--timeout", "0.3", "--endpoint", server.url("/ping"), kSitemap},
      run_options{std::nullopt, std::chrono::milliseconds(8'000)});
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("unreachable: no answer"));
}

TEST(PingCli, RefusesBadUrlsAsUsage) {
  const run_result r = run_sitemill(
      {"ping", "--endpoint", "https://www.example.org/ping", "/sitemap.xml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("sitemap URL"));
  const run_result none = run_sitemill({"ping", kSitemap});
  EXPECT_EQ(none.exit_code, 2);  // there is no default endpoint
}

// --- indexnow

TEST(IndexNowCli, SubmitsArgumentsAndSummarises) {
  http_server server;
  server.route("/indexnow", text_reply(200, ""));
  const run_result r = run_sitemill(
      {"indexnow", "--key", kKey, "--endpoint", server.url("/indexnow"),
       "https://www.example.com/a", "https://www.example.com/b"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("batch 1/1: 2 URLs: accepted: 200 OK"));
  EXPECT_THAT(r.out, HasSubstr("sent 2 URLs of host www.example.com"));
  EXPECT_THAT(r.out, HasSubstr("2 accepted, 0 failed, 0 not sent"));
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  const json body = json::parse(requests[0].body);
  EXPECT_EQ(body.at("urlList"), json::array({"https://www.example.com/a",
                                             "https://www.example.com/b"}));
}

TEST(IndexNowCli, ReadsAFileStdinAndAManifest) {
  http_server server;
  server.route("/indexnow", text_reply(202, ""));
  temp_dir t;
  write_file(t / "changed.txt",
             "\xEF\xBB\xBF# changed today\r\nhttps://www.example.com/f1\r\n"
             "\r\n  https://www.example.com/f2  \r\n");
  write_file(t / "report.json",
             R"({"changes":{"added":["https://www.example.com/m1"],)"
             R"("changed":["https://www.example.com/m2"],)"
             R"("removed":["https://www.example.com/gone"]}})");
  run_options stdin_urls;
  stdin_urls.stdin_data = "https://www.example.com/s1\n";
  const run_result r = run_sitemill(
      {"indexnow", "--key", kKey, "--endpoint", server.url("/indexnow"),
       "--urls", t / "changed.txt", "--from-manifest", t / "report.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const run_result s = run_sitemill({"indexnow", "--key", kKey, "--endpoint",
                                     server.url("/indexnow"), "--urls", "-"},
                                    stdin_urls);
  EXPECT_EQ(s.exit_code, 0) << s.err;
  EXPECT_THAT(s.out, HasSubstr("pending"));
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(json::parse(requests[0].body).at("urlList"),
            json::array(
                {"https://www.example.com/f1", "https://www.example.com/f2",
                 "https://www.example.com/m1", "https://www.example.com/m2"}));
  EXPECT_EQ(json::parse(requests[1].body).at("urlList"),
            json::array({"https://www.example.com/s1"}));
}

TEST(IndexNowCli, ManifestWithoutChangesIsAUsageError) {
  temp_dir t;
  write_file(t / "report.json", R"({"entry":"sitemap.xml","files":[]})");
  const run_result r = run_sitemill({"indexnow", "--key", kKey, "--endpoint",
                                     "http://127.0.0.1:9/indexnow",
                                     "--from-manifest", t / "report.json"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("has no \"changes\""));
  EXPECT_THAT(r.err, HasSubstr("Give the URLs with --urls or as arguments"));
}

TEST(IndexNowCli, DryRunPrintsTheBodiesAndSendsNothing) {
  http_server server;
  const run_result r = run_sitemill(
      {"indexnow", "--dry-run", "--key", kKey, "--batch-size", "2",
       "--endpoint", server.url("/indexnow"), "https://www.example.com/1",
       "https://www.example.com/2", "https://www.example.com/3"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string head =
      std::string("{\"host\":\"www.example.com\",\"key\":\"") + kKey +
      "\",\"urlList\":";
  EXPECT_EQ(r.out, head +
                       "[\"https://www.example.com/1\",\"https://www.example."
                       "com/2\"]}\n" +
                       head + "[\"https://www.example.com/3\"]}\n");
  EXPECT_THAT(r.err, HasSubstr("batch 2/2: would POST 1 URL "));
  EXPECT_THAT(r.err, HasSubstr("application/json; charset=utf-8"));
  EXPECT_THAT(r.err, HasSubstr("would send 3 URLs of host www.example.com"))
      << "the summary counts what the batches would POST";
  EXPECT_TRUE(server.requests().empty());
}

TEST(IndexNowCli, RejectsOtherHostsButSendsTheRestAndExits1) {
  http_server server;
  server.route("/indexnow", text_reply(200, ""));
  const run_result r = run_sitemill(
      {"indexnow", "--key", kKey, "--endpoint", server.url("/indexnow"),
       "https://www.example.com/a", "https://evil.example.net/b"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("rejected https://evil.example.net/b"));
  EXPECT_THAT(r.out, HasSubstr("1 rejected"));
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_THAT(server.requests()[0].body, Not(HasSubstr("evil")));
}

TEST(IndexNowCli, ExplainsA403AndExits1) {
  http_server server;
  server.route("/indexnow", text_reply(403, ""));
  const run_result r =
      run_sitemill({"indexnow", "--key", kKey, "--endpoint",
                    server.url("/indexnow"), "https://www.example.com/a"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("refused: 403 Forbidden: the key was not found "
                               "at https://www.example.com/" +
                               std::string(kKey) + ".txt"));
  EXPECT_THAT(r.out,
              HasSubstr("publish it there (sitemill indexnow --key " +
                        std::string(kKey) + " --write-key DIR) and try again"));
  EXPECT_EQ(server.count("/indexnow"), 1u);
}

TEST(IndexNowCli, RefusesABadKeyAsUsage) {
  http_server server;
  const run_result r =
      run_sitemill({"indexnow", "--key", "not_valid", "--endpoint",
                    server.url("/indexnow"), "https://www.example.com/a"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("8 to 128"));
  const run_result no_key =
      run_sitemill({"indexnow", "--endpoint", server.url("/indexnow"),
                    "https://www.example.com/a"});
  EXPECT_EQ(no_key.exit_code, 2);
  EXPECT_THAT(no_key.err,
              HasSubstr("no IndexNow key; give --key (8 to 128 characters of "
                        "a-z, A-Z, 0-9 and '-'), or create one with "
                        "--write-key"));
  const run_result none = run_sitemill({"indexnow", "--key", kKey});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_TRUE(server.requests().empty());
}

TEST(IndexNowCli, WritesAKeyFileWithAGivenOrNewKey) {
  temp_dir t;
  const run_result given =
      run_sitemill({"indexnow", "--key", kKey, "--write-key", t.path()});
  EXPECT_EQ(given.exit_code, 0) << given.err;
  EXPECT_EQ(read_raw(t / (std::string(kKey) + ".txt")), kKey);
  EXPECT_THAT(given.out, IsEmpty());

  temp_dir u;
  const run_result fresh = run_sitemill({"indexnow", "--write-key", u.path()});
  EXPECT_EQ(fresh.exit_code, 0) << fresh.err;
  const auto lines = split_lines(fresh.out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(is_valid_indexnow_key(lines[0]));
  EXPECT_EQ(read_raw(u / (lines[0] + ".txt")), lines[0]);
}

TEST(IndexNowCli, NothingToSubmitIsFine) {
  temp_dir t;
  write_file(
      t / "report.json",
      R"({"changes":{"added":[],"changed":[],"removed":["https://www.example.com/x"]}})");
  const run_result r = run_sitemill({"indexnow", "--key", kKey, "--endpoint",
                                     "http://127.0.0.1:9/indexnow",
                                     "--from-manifest", t / "report.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("no URLs to submit"));
}

}  // namespace
}  // namespace sitemill::testing
