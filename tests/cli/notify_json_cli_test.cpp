// End-to-end tests of --json on `sitemill robots`, `sitemill ping` and
// `sitemill indexnow` (docs/report-schema.md): stdout is exactly one JSON
// object in every outcome, the exit codes are those of a run without
// --json, and the people's lines move to stderr. The network is a loopback
// server.
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

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using json = nlohmann::json;

const std::string kRobots =
    "User-agent: *\r\n"
    "Disallow: /tmp/\r\n"
    "\r\n"
    "Sitemap: https://www.example.com/old.xml\r\n";

// A 503 that asks for two minutes: --max-wait 0.01 caps each wait at 10 ms.
http_reply busy() {
  http_reply r = text_reply(503, "busy");
  r.headers.emplace_back("Retry-After", "120");
  return r;
}

// The statuses of a JSON "attempts" array, in order.
std::vector<long> statuses(const json& attempts) {
  std::vector<long> out;
  for (const json& a : attempts) out.push_back(a.at("status").get<long>());
  return out;
}

// --- robots

TEST(RobotsJsonCli, SaysWhatWasAddedAndKeepsTheLinesOnStderr) {
  temp_dir t;
  const std::string path = t / "robots.txt";
  write_file(path, kRobots);
  const run_result r =
      run_sitemill({"robots", "--json", path, "--sitemap", kSitemap});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json j = parse_report(r);
  EXPECT_EQ(j["dry_run"], false);
  EXPECT_FALSE(j.contains("text"));
  const json& robots = j["robots"];
  EXPECT_EQ(robots["path"], path);
  EXPECT_EQ(robots["sitemaps"], json::array({kSitemap}));
  EXPECT_EQ(robots["added"], json::array({kSitemap}));
  EXPECT_EQ(robots["present"], json::array());
  EXPECT_EQ(robots["removed"], json::array());
  EXPECT_EQ(robots["created"], false);
  EXPECT_EQ(robots["changed"], true);
  EXPECT_EQ(robots["written"], true);
  EXPECT_EQ(read_raw(path), kRobots + "Sitemap: " + kSitemap + "\r\n");
  EXPECT_THAT(r.err, HasSubstr("added Sitemap: " + std::string(kSitemap)));

  const run_result again =
      run_sitemill({"robots", "--json", path, "--sitemap", kSitemap});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  const json k = parse_report(again);
  EXPECT_EQ(k["robots"]["present"], json::array({kSitemap}));
  EXPECT_EQ(k["robots"]["added"], json::array());
  EXPECT_EQ(k["robots"]["changed"], false);
  EXPECT_EQ(k["robots"]["written"], false);
}

TEST(RobotsJsonCli, DryRunCarriesTheFileInsteadOfPrintingIt) {
  temp_dir t;
  const std::string path = t / "robots.txt";
  write_file(path, kRobots);
  const run_result r = run_sitemill({"robots", "--json", "--dry-run",
                                     "--replace", path, "--sitemap", kSitemap});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json j = parse_report(r);
  EXPECT_EQ(j["dry_run"], true);
  EXPECT_EQ(j["text"], "User-agent: *\r\nDisallow: /tmp/\r\n\r\nSitemap: " +
                           std::string(kSitemap) + "\r\n");
  const json& robots = j["robots"];
  EXPECT_EQ(robots["changed"], true);
  EXPECT_EQ(robots["written"], false);
  ASSERT_EQ(robots["removed"].size(), 1u);
  EXPECT_EQ(robots["removed"][0]["line"], 4);
  EXPECT_EQ(robots["removed"][0]["text"],
            "Sitemap: https://www.example.com/old.xml");
  EXPECT_THAT(robots["removed"][0]["reason"].get<std::string>(),
              HasSubstr("--replace was given"))
      << "the reason in the CLI's words, as on stderr";
  EXPECT_EQ(read_raw(path), kRobots);
}

TEST(RobotsJsonCli, AFileThatCannotBeWrittenIsAnErrorObjectWithExit2) {
  temp_dir t;
  const std::string path = t / "no/robots.txt";
  const run_result r =
      run_sitemill({"robots", "--json", path, "--sitemap", kSitemap});
  EXPECT_EQ(r.exit_code, 2);
  const json j = parse_report(r);
  EXPECT_EQ(j["robots"]["path"], path);
  EXPECT_EQ(j["robots"]["sitemaps"], json::array({kSitemap}));
  EXPECT_THAT(j["robots"]["error"].get<std::string>(),
              HasSubstr("no/robots.txt"));
  EXPECT_FALSE(j["robots"].contains("added"));
}

TEST(RobotsJsonCli, ABadSitemapIsAUsageErrorWithNothingOnStdout) {
  temp_dir t;
  const run_result r = run_sitemill(
      {"robots", "--json", t / "robots.txt", "--sitemap", "/sitemap.xml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, IsEmpty());
  EXPECT_THAT(r.err, HasSubstr("relative"));
}

// --- ping

TEST(PingJsonCli, ReportsEachPingWithItsStatusAndTries) {
  http_server server;
  server.route("/ping", text_reply(200, "thanks"));
  server.route("/google", text_reply(404, ""));
  const run_result r =
      run_sitemill({"ping", "--json", "--endpoint", server.url("/ping"),
                    "--endpoint", server.url("/google"), kSitemap});
  EXPECT_EQ(r.exit_code, 1) << "a retired endpoint fails the run, as without "
                               "--json";
  const json j = parse_report(r);
  EXPECT_EQ(j["dry_run"], false);
  ASSERT_EQ(j["sitemaps"].size(), 1u);
  const json& s = j["sitemaps"][0];
  EXPECT_EQ(s["url"], kSitemap);
  EXPECT_TRUE(s["verify"].is_null());
  ASSERT_EQ(s["pings"].size(), 2u);
  const json& ok = s["pings"][0];
  EXPECT_EQ(ok["endpoint"], server.url("/ping"));
  EXPECT_EQ(ok["request_url"], server.url("/ping?sitemap=" + kEncoded));
  EXPECT_EQ(ok["outcome"], "accepted");
  EXPECT_EQ(ok["status"], 200);
  EXPECT_EQ(statuses(ok["attempts"]), std::vector<long>{200});
  EXPECT_THAT(ok["message"].get<std::string>(), HasSubstr("200 OK"));
  EXPECT_EQ(s["pings"][1]["outcome"], "retired");
  EXPECT_EQ(s["pings"][1]["status"], 404);
  EXPECT_THAT(r.err, HasSubstr(": accepted: 200 OK"))
      << "the lines go to stderr";
}

TEST(PingJsonCli, AllAcceptedExits0) {
  http_server server;
  server.route("/ping", text_reply(200, ""));
  const run_result r = run_sitemill(
      {"ping", "--json", "-q", "--endpoint", server.url("/ping"), kSitemap});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(parse_report(r)["sitemaps"][0]["pings"][0]["outcome"], "accepted");
  EXPECT_THAT(r.err, IsEmpty()) << "--quiet leaves the results to the JSON";
}

TEST(PingJsonCli, RetriesAreListedAndGivingUpExits1) {
  http_server server;
  server.route("/ping", busy());
  const run_result r =
      run_sitemill({"ping", "--json", "--endpoint", server.url("/ping"),
                    "--retries", "2", "--max-wait", "0.01", kSitemap});
  EXPECT_EQ(r.exit_code, 1);
  const json p = parse_report(r)["sitemaps"][0]["pings"][0];
  EXPECT_EQ(p["outcome"], "gave up");
  EXPECT_EQ(p["status"], 503);
  EXPECT_EQ(statuses(p["attempts"]), (std::vector<long>{503, 503, 503}));
  EXPECT_EQ(p["attempts"][0]["wait_ms"], 10) << "Retry-After capped";
  EXPECT_EQ(p["attempts"][2]["wait_ms"], 0) << "no wait after the last";
  EXPECT_EQ(p["attempts"][0]["error"], "");
  EXPECT_THAT(p["message"].get<std::string>(), HasSubstr("after 3 tries"));
  EXPECT_EQ(server.count("/ping"), 3u);
}

TEST(PingJsonCli, AnUnreachableEndpointHasTheTransferError) {
  http_server server;
  http_reply cut;
  cut.close_without_answer = true;
  server.route("/ping", cut);
  const run_result r =
      run_sitemill({"ping", "--json", "--retries", "0", "--endpoint",
                    server.url("/ping"), kSitemap});
  EXPECT_EQ(r.exit_code, 1);
  const json p = parse_report(r)["sitemaps"][0]["pings"][0];
  EXPECT_EQ(p["outcome"], "unreachable");
  EXPECT_EQ(p["status"], 0);
  ASSERT_EQ(p["attempts"].size(), 1u);
  EXPECT_EQ(p["attempts"][0]["status"], 0);
  EXPECT_THAT(p["attempts"][0]["error"].get<std::string>(), Not(IsEmpty()));
}

TEST(PingJsonCli, AFailedVerifyIsInTheObjectAndNothingIsPinged) {
  http_server server;
  server.route("/ping", text_reply(200, ""));
  server.route("/sitemap.xml", text_reply(404, ""));
  const run_result r =
      run_sitemill({"ping", "--json", "--verify", "--endpoint",
                    server.url("/ping"), server.url("/sitemap.xml")});
  EXPECT_EQ(r.exit_code, 1);
  const json s = parse_report(r)["sitemaps"][0];
  EXPECT_EQ(s["verify"]["url"], server.url("/sitemap.xml"));
  EXPECT_EQ(s["verify"]["ok"], false);
  EXPECT_EQ(s["verify"]["status"], 404);
  EXPECT_EQ(statuses(s["verify"]["attempts"]), std::vector<long>{404});
  EXPECT_EQ(s["pings"], json::array());
  EXPECT_EQ(server.count("/ping"), 0u);
}

TEST(PingJsonCli, DryRunListsTheRequestsAndSendsNothing) {
  http_server server;
  const run_result r =
      run_sitemill({"ping", "--json", "--dry-run", "--verify", "--endpoint",
                    server.url("/ping"), kSitemap});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json j = parse_report(r);
  EXPECT_EQ(j["dry_run"], true);
  const json& s = j["sitemaps"][0];
  EXPECT_TRUE(s["verify"]["ok"].is_null()) << "a dry run fetches nothing";
  const json& p = s["pings"][0];
  EXPECT_EQ(p["outcome"], "dry run");
  EXPECT_EQ(p["request_url"], server.url("/ping?sitemap=" + kEncoded));
  EXPECT_EQ(p["status"], 0);
  EXPECT_EQ(p["attempts"], json::array());
  EXPECT_THAT(r.err, HasSubstr("GET " + server.url("/ping?sitemap=")));
  EXPECT_TRUE(server.requests().empty());
}

TEST(PingJsonCli, ABadUrlIsAUsageErrorWithNothingOnStdout) {
  const run_result r =
      run_sitemill({"ping", "--json", "--endpoint",
                    "https://www.example.org/ping", "/sitemap.xml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, IsEmpty());
}

// --- indexnow

TEST(IndexNowJsonCli, ReportsTheSubmissionWithoutTheKey) {
  http_server server;
  server.route("/indexnow", text_reply(200, ""));
  const run_result r =
      run_sitemill({"indexnow", "--json", "--key", kKey, "--endpoint",
                    server.url("/indexnow"), "https://www.example.com/a",
                    "https://www.example.com/b", "https://www.example.com/a"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json j = parse_report(r);
  EXPECT_EQ(j["dry_run"], false);
  EXPECT_FALSE(j.contains("key_file"));
  const json& n = j["indexnow"];
  EXPECT_EQ(n["urls"], 3);
  EXPECT_EQ(n["endpoint"], server.url("/indexnow"));
  EXPECT_EQ(n["host"], "www.example.com");
  EXPECT_EQ(n["key_location"],
            "https://www.example.com/" + std::string(kKey) + ".txt");
  EXPECT_EQ(n["sent"], 2);
  EXPECT_EQ(n["accepted"], 2);
  EXPECT_EQ(n["duplicates"], 1);
  EXPECT_EQ(n["rejected"], json::array());
  ASSERT_EQ(n["batches"].size(), 1u);
  EXPECT_EQ(n["batches"][0]["urls"], 2);
  EXPECT_EQ(n["batches"][0]["outcome"], "accepted");
  EXPECT_EQ(n["batches"][0]["status"], 200);
  EXPECT_EQ(statuses(n["batches"][0]["attempts"]), std::vector<long>{200});
  EXPECT_THAT(r.err, HasSubstr("batch 1/1: 2 URLs: accepted"));
  EXPECT_EQ(server.count("/indexnow"), 1u);
}

TEST(IndexNowJsonCli, A429ThenA200IsAcceptedOnTheSecondTry) {
  http_server server;
  server.route("/indexnow", std::vector<http_reply>{text_reply(429, ""),
                                                    text_reply(202, "")});
  const run_result r =
      run_sitemill({"indexnow", "--json", "--key", kKey, "--endpoint",
                    server.url("/indexnow"), "--max-wait", "0.01",
                    "https://www.example.com/a"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json b = parse_report(r)["indexnow"]["batches"][0];
  EXPECT_EQ(b["outcome"], "pending");
  EXPECT_EQ(b["status"], 202);
  EXPECT_EQ(statuses(b["attempts"]), (std::vector<long>{429, 202}));
}

TEST(IndexNowJsonCli, GivingUpStopsTheRunAndExits1) {
  http_server server;
  server.route("/indexnow", busy());
  const run_result r =
      run_sitemill({"indexnow", "--json", "--key", kKey, "--endpoint",
                    server.url("/indexnow"), "--retries", "1", "--max-wait",
                    "0.01", "--batch-size", "1", "https://www.example.com/a",
                    "https://www.example.com/b"});
  EXPECT_EQ(r.exit_code, 1);
  const json n = parse_report(r)["indexnow"];
  ASSERT_EQ(n["batches"].size(), 2u);
  EXPECT_EQ(n["batches"][0]["outcome"], "gave up");
  EXPECT_EQ(n["batches"][0]["status"], 503);
  EXPECT_EQ(statuses(n["batches"][0]["attempts"]),
            (std::vector<long>{503, 503}));
  EXPECT_EQ(n["batches"][1]["outcome"], "not sent");
  EXPECT_EQ(n["batches"][1]["attempts"], json::array());
  EXPECT_EQ(n["sent"], 1);
  EXPECT_EQ(n["accepted"], 0);
  EXPECT_EQ(server.count("/indexnow"), 2u);
}

TEST(IndexNowJsonCli, RejectedUrlsAreListedAndExit1) {
  http_server server;
  server.route("/indexnow", text_reply(200, ""));
  const run_result r =
      run_sitemill({"indexnow", "--json", "--key", kKey, "--endpoint",
                    server.url("/indexnow"), "https://www.example.com/a",
                    "https://evil.example.net/b"});
  EXPECT_EQ(r.exit_code, 1);
  const json n = parse_report(r)["indexnow"];
  ASSERT_EQ(n["rejected"].size(), 1u);
  EXPECT_EQ(n["rejected"][0]["url"], "https://evil.example.net/b");
  EXPECT_THAT(n["rejected"][0]["reason"].get<std::string>(), Not(IsEmpty()));
  EXPECT_EQ(n["accepted"], 1);
}

TEST(IndexNowJsonCli, DryRunPlansTheBatchesAndSendsNothing) {
  http_server server;
  const run_result r = run_sitemill(
      {"indexnow", "--json", "--dry-run", "--key", kKey, "--batch-size", "2",
       "--endpoint", server.url("/indexnow"), "https://www.example.com/1",
       "https://www.example.com/2", "https://www.example.com/3"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json j = parse_report(r);
  EXPECT_EQ(j["dry_run"], true);
  const json& n = j["indexnow"];
  ASSERT_EQ(n["batches"].size(), 2u);
  EXPECT_EQ(n["batches"][0]["urls"], 2);
  EXPECT_EQ(n["batches"][0]["outcome"], "dry run");
  EXPECT_EQ(n["batches"][1]["urls"], 1);
  EXPECT_EQ(n["sent"], 0);
  EXPECT_THAT(r.out, Not(HasSubstr("urlList"))) << "no bodies with --json";
  EXPECT_THAT(r.err, HasSubstr("batch 2/2: would POST 1 URL "));
  EXPECT_TRUE(server.requests().empty());
}

TEST(IndexNowJsonCli, NothingToSendIsUrlsZero) {
  temp_dir t;
  write_file(t / "report.json",
             R"({"changes":{"added":[],"changed":[],"removed":[]}})");
  const run_result r = run_sitemill(
      {"indexnow", "--json", "--key", kKey, "--endpoint",
       "http://127.0.0.1:9/indexnow", "--from-manifest", t / "report.json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(parse_report(r),
            json::parse(R"({"dry_run":false,"indexnow":{"urls":0}})"));
}

TEST(IndexNowJsonCli, WriteKeyNamesTheFileAndItsKey) {
  temp_dir t;
  const run_result r =
      run_sitemill({"indexnow", "--json", "--write-key", t.path()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json j = parse_report(r);
  const std::string key = j["key_file"]["key"].get<std::string>();
  EXPECT_TRUE(is_valid_indexnow_key(key));
  EXPECT_EQ(j["key_file"]["generated"], true);
  EXPECT_EQ(j["key_file"]["path"], t / (key + ".txt"));
  EXPECT_EQ(j["key_file"]["written"], true);
  EXPECT_EQ(read_raw(t / (key + ".txt")), key);
  EXPECT_FALSE(j.contains("indexnow"));
}

TEST(IndexNowJsonCli, ARefusedKeyIsAnErrorObjectAndMissingInputPrintsNone) {
  const run_result bad_key = run_sitemill(
      {"indexnow", "--json", "--key", "not_valid", "--endpoint",
       "http://127.0.0.1:9/indexnow", "https://www.example.com/a"});
  EXPECT_EQ(bad_key.exit_code, 2);
  const json n = parse_report(bad_key)["indexnow"];
  EXPECT_EQ(n["urls"], 1);
  EXPECT_THAT(n["error"].get<std::string>(), HasSubstr("8 to 128"));
  EXPECT_FALSE(n.contains("batches"));

  const run_result none = run_sitemill({"indexnow", "--json", "--key", kKey});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_THAT(none.out, IsEmpty());
}

// --- help

TEST(NotifyJsonCli, EachCommandsHelpNamesJsonWithAnExample) {
  for (const char* command : {"robots", "ping", "indexnow"}) {
    SCOPED_TRACE(command);
    const run_result r = run_sitemill({command, "--help"});
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_THAT(r.out, HasSubstr("--json"));
    EXPECT_THAT(r.out,
                HasSubstr("sitemill " + std::string(command) + " --json"));
  }
}

}  // namespace
}  // namespace sitemill::testing
