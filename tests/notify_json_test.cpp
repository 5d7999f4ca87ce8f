// The --json objects of `sitemill robots`, `ping` and `indexnow`
// (docs/report-schema.md): what each key holds in each outcome, and that the
// robots and IndexNow objects are the ones generate's "announce" carries.
#include "sitemill/report/notify_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "sitemill/report/generate_json.h"
#include "sitemill/write/sink.h"

namespace sitemill {
namespace {

using json = nlohmann::json;
using std::chrono::milliseconds;

class failing_sink final : public sink {
 public:
  status write(const char*, std::size_t) override { return error{"EPIPE"}; }
  status close() override { return {}; }
};

// Renders with `write` and parses the one line it wrote.
template <class Run, class Write>
json rendered(const Run& run, Write write) {
  std::string text;
  memory_sink out(&text);
  EXPECT_TRUE(write(out, run));
  EXPECT_EQ(text.find('\n'), text.size() - 1) << "one line, ended by \\n";
  return json::parse(text);
}

robots_announcement edited_robots() {
  robots_announcement robots;
  robots.path = "public/robots.txt";
  robots.sitemaps = {"https://www.example.com/sitemap.xml"};
  robots_update& update = robots.update.emplace();
  update.edit.text = "Sitemap: https://www.example.com/sitemap.xml\n";
  update.edit.added = robots.sitemaps;
  update.edit.changed = true;
  update.created = true;
  return robots;
}

TEST(RobotsJson, DryRunCarriesTheFileAsItWouldBeWritten) {
  const json j = rendered(robots_run{true, edited_robots()}, write_robots_json);
  EXPECT_EQ(j["dry_run"], true);
  EXPECT_EQ(j["text"], "Sitemap: https://www.example.com/sitemap.xml\n");
  EXPECT_EQ(j["robots"]["changed"], true);
  EXPECT_EQ(j["robots"]["written"], false);
  EXPECT_EQ(j["robots"]["created"], true);
}

TEST(RobotsJson, ARealRunLeavesTheTextInTheFile) {
  robots_run run{false, edited_robots()};
  run.robots.update->written = true;
  const json j = rendered(run, write_robots_json);
  EXPECT_EQ(j["dry_run"], false);
  EXPECT_FALSE(j.contains("text"));
  EXPECT_EQ(j["robots"]["written"], true);
}

TEST(RobotsJson, AFailureHasAnErrorInsteadOfTheEdit) {
  robots_run run{true, {}};
  run.robots.path = "ro/robots.txt";
  run.robots.failure = error{"ro/robots.txt: Permission denied"};
  const json j = rendered(run, write_robots_json);
  EXPECT_EQ(j["robots"],
            json::parse(R"({"path":"ro/robots.txt","sitemaps":[],)"
                        R"("error":"ro/robots.txt: Permission denied"})"));
  EXPECT_FALSE(j.contains("text"));
}

// The robots and IndexNow objects are written once for both places.
TEST(NotifyJson, CommandObjectsAreGeneratesAnnounceObjects) {
  announcement done;
  done.robots = edited_robots();
  indexnow_announcement& indexnow = done.indexnow.emplace();
  indexnow.urls = {"https://www.example.com/a"};
  indexnow_report& sent = indexnow.report.emplace();
  sent.endpoint = "https://api.indexnow.org/indexnow";
  sent.host = "www.example.com";
  indexnow_batch& batch = sent.batches.emplace_back();
  batch.urls = 1;
  batch.outcome = indexnow_outcome::gave_up;
  batch.status = 503;
  batch.attempts = {{503, "", milliseconds(10)}, {503, "", milliseconds(0)}};
  generate_report report;
  report.entry = "sitemap.xml";
  issue_spool spool;
  std::string text;
  memory_sink out(&text);
  ASSERT_TRUE(write_generate_json(out, report, spool, {&done, 1}));
  const json announce = json::parse(text)["announce"];

  const json robots =
      rendered(robots_run{false, *done.robots}, write_robots_json);
  EXPECT_EQ(robots["robots"], announce["robots"]);
  indexnow_run run;
  run.submission = done.indexnow;
  const json submitted = rendered(run, write_indexnow_json);
  EXPECT_EQ(submitted["indexnow"], announce["indexnow"]);
  EXPECT_EQ(submitted["indexnow"]["batches"][0]["attempts"][0],
            json::parse(R"({"status":503,"error":"","wait_ms":10})"));
  EXPECT_EQ(submitted["indexnow"]["sent"], 1);
  EXPECT_EQ(submitted["indexnow"]["accepted"], 0);
}

TEST(PingJson, VerifyIsNullWithoutVerifyAndUnknownInADryRun) {
  ping_run run;
  run.dry_run = true;
  pinged_sitemap& s = run.sitemaps.emplace_back();
  s.url = "https://www.example.com/sitemap.xml";
  ping_report& p = s.pings.emplace_back();
  p.endpoint = "https://www.example.org/ping";
  p.request_url = "https://www.example.org/ping?sitemap=x";
  p.outcome = ping_outcome::dry_run;
  const json plain = rendered(run, write_ping_json);
  EXPECT_EQ(plain["dry_run"], true);
  EXPECT_TRUE(plain["sitemaps"][0]["verify"].is_null());
  EXPECT_EQ(plain["sitemaps"][0]["pings"][0]["outcome"], "dry run");

  run.verify = true;
  const json verify = rendered(run, write_ping_json)["sitemaps"][0]["verify"];
  EXPECT_EQ(verify["url"], s.url);
  EXPECT_TRUE(verify["ok"].is_null()) << "nothing was fetched";
  EXPECT_EQ(verify["attempts"], json::array());
}

TEST(PingJson, CarriesAFailedVerifyAndEveryTryOfAPing) {
  ping_run run;
  run.verify = true;
  pinged_sitemap& missing = run.sitemaps.emplace_back();
  missing.url = "https://www.example.com/gone.xml";
  sitemap_check& c = missing.verified.emplace();
  c.url = missing.url;
  c.status = 404;
  c.attempts = {{404, "", milliseconds(0)}};
  c.message = "answers 404 Not Found, not 200";
  pinged_sitemap& live = run.sitemaps.emplace_back();
  live.url = "https://www.example.com/sitemap.xml";
  live.verified.emplace().ok = true;
  ping_report& p = live.pings.emplace_back();
  p.endpoint = "https://www.example.org/ping";
  p.outcome = ping_outcome::gave_up;
  p.status = 429;
  p.attempts = {{429, "", milliseconds(1'000)}, {429, "", milliseconds(0)}};
  p.message = "gave up after 2 tries";
  const json j = rendered(run, write_ping_json);
  EXPECT_EQ(j["sitemaps"][0]["verify"]["ok"], false);
  EXPECT_EQ(j["sitemaps"][0]["verify"]["status"], 404);
  EXPECT_EQ(j["sitemaps"][0]["pings"], json::array());
  EXPECT_EQ(j["sitemaps"][1]["verify"]["ok"], true);
  EXPECT_EQ(j["sitemaps"][1]["pings"][0],
            json::parse(R"({"endpoint":"https://www.example.org/ping",)"
                        R"("request_url":"","outcome":"gave up","status":429,)"
                        R"("attempts":[{"status":429,"error":"",)"
                        R"("wait_ms":1000},{"status":429,"error":"",)"
                        R"("wait_ms":0}],"message":"gave up after 2 tries"})"));
}

TEST(IndexNowJson, NamesTheKeyFileAndWhetherTheKeyIsNew) {
  indexnow_run run;
  run.key_file = indexnow_key_file{"public/abc12345.txt", "abc12345", true};
  const json generated = rendered(run, write_indexnow_json);
  EXPECT_EQ(generated["key_file"],
            json::parse(R"({"path":"public/abc12345.txt","key":"abc12345",)"
                        R"("generated":true,"written":true})"));
  EXPECT_FALSE(generated.contains("indexnow")) << "no URLs were given";

  run.dry_run = true;
  run.key_file->generated = false;
  const json given = rendered(run, write_indexnow_json);
  EXPECT_EQ(given["key_file"]["generated"], false);
  EXPECT_EQ(given["key_file"]["written"], false) << "a dry run writes nothing";
}

TEST(IndexNowJson, NothingToSendIsUrlsZeroAlone) {
  indexnow_run run;
  run.submission.emplace();
  EXPECT_EQ(rendered(run, write_indexnow_json),
            json::parse(R"({"dry_run":false,"indexnow":{"urls":0}})"));
}

TEST(NotifyJson, ASinkFailureIsReturned) {
  failing_sink out;
  EXPECT_FALSE(write_robots_json(out, robots_run{}));
  EXPECT_FALSE(write_ping_json(out, ping_run{}));
  const status s = write_indexnow_json(out, indexnow_run{});
  ASSERT_FALSE(s);
  EXPECT_EQ(s.message(), "EPIPE");
}

}  // namespace
}  // namespace sitemill
