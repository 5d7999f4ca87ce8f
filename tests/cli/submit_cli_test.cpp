// End-to-end tests of `sitemill submit` and `generate --submit`: the built
// binary against loopback stand-ins of Search Console and Bing Webmaster
// Tools (submit_support.h), its exit codes, lines, --json, and that no
// secret is ever printed, -v included.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "submit_support.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Pair;

void expect_no_secret(const run_result& r) {
  testing::expect_no_secret(r.out);
  testing::expect_no_secret(r.err);
}

// A key file for the stand-in and a Bing key file, in `t`.
struct keys {
  explicit keys(const temp_dir& t, const engines_stand_in& engines)
      : google(t / "sa.json"), bing(t / "bing.key") {
    write_file(google, key_file_json(engines.token_uri()));
    write_file(bing, std::string(kBingKey) + "\n");
  }
  std::string google, bing;
};

std::vector<std::string> submit_args(const engines_stand_in& engines,
                                     const keys& k,
                                     std::vector<std::string> more) {
  std::vector<std::string> args = {
      "submit",          "--google-key",   k.google,
      "--bing-key-file", k.bing,           "--google-api-url",
      engines.api_url(), "--bing-api-url", engines.api_url()};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(SubmitCli, IsListedInTheHelpOnOneLine) {
  const run_result r = run_sitemill({"--help"});
  EXPECT_THAT(r.out, HasSubstr("  submit                      Submit sitemaps "
                               "to Google Search Console and Bing Webmaster "
                               "Tools.\n"));
}

TEST(SubmitCli, SubmitsToBothEnginesAndSaysSoWithoutASecret) {
  temp_dir t;
  engines_stand_in engines;
  const keys k(t, engines);
  const run_result r = run_sitemill(submit_args(
      engines, k, {"-v", "--site", "sc-domain:example.com", kSitemap}));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(engines.problems(), IsEmpty());
  EXPECT_THAT(engines.google_puts(),
              ElementsAre(Pair("sc-domain:example.com", kSitemap)));
  EXPECT_THAT(engines.bing_feeds(),
              ElementsAre(Pair("https://www.example.com/", kSitemap)));
  const std::vector<std::string> lines = split_lines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_THAT(lines[0], HasSubstr(std::string("google: ") + kSitemap +
                                  ": submitted: 204 No Content"));
  EXPECT_THAT(lines[1],
              HasSubstr(std::string("bing: ") + kSitemap + ": submitted: 200"));
  EXPECT_EQ(lines[2], "submitted 2 of 2 requests");
  // -v traced every request, Bing's URL with its key hidden.
  EXPECT_THAT(r.err, HasSubstr("POST " + engines.token_uri() + ": 200"));
  EXPECT_THAT(r.err, HasSubstr("SubmitFeed?apikey=[hidden]: 200"));
  expect_no_secret(r);
}

TEST(SubmitCli, JsonCarriesTheTokenAndEachRequest) {
  temp_dir t;
  engines_stand_in engines;
  const keys k(t, engines);
  const run_result r =
      run_sitemill(submit_args(engines, k, {"--json", kSitemap}));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = parse_report(r);
  EXPECT_EQ(j["dry_run"], false);
  const nlohmann::json& s = j["submit"];
  EXPECT_EQ(s["sitemaps"], nlohmann::json::array({kSitemap}));
  EXPECT_EQ(s["token"]["outcome"], "submitted");
  EXPECT_EQ(s["token"]["client_email"], kAccount);
  EXPECT_EQ(s["token"]["url"], engines.token_uri());
  EXPECT_EQ(s["submitted"], 2);
  ASSERT_EQ(s["requests"].size(), 2u);
  EXPECT_EQ(s["requests"][0]["engine"], "google");
  EXPECT_EQ(s["requests"][0]["site"], "https://www.example.com/");
  EXPECT_EQ(s["requests"][0]["status"], 204);
  EXPECT_EQ(s["requests"][1]["engine"], "bing");
  EXPECT_EQ(
      s["requests"][1]["url"],
      engines.api_url() + "/webmaster/api.svc/json/SubmitFeed?apikey=[hidden]");
  EXPECT_EQ(s["requests"][1]["attempts"].size(), 1u);
  expect_no_secret(r);
}

TEST(SubmitCli, ARefusalExits1WithTheEnginesReason) {
  temp_dir t;
  engines_stand_in engines;
  const keys k(t, engines);
  engines.google_replies = {text_reply(
      403,
      R"({"error":{"code":403,"message":"User does not have sufficient )"
      R"(permission for site 'https://www.example.com/'.","status":)"
      R"("PERMISSION_DENIED"}})",
      "application/json")};
  const run_result r =
      run_sitemill({"submit", "--to", "google", "--google-key", k.google,
                    "--google-api-url", engines.api_url(), kSitemap});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("google: " + std::string(kSitemap) +
                               ": refused: 403 Forbidden: PERMISSION_DENIED: "
                               "User does not have sufficient permission"));
  EXPECT_THAT(r.out, HasSubstr("(--site: a URL prefix with its final '/'"));
  EXPECT_THAT(r.out, HasSubstr("submitted 0 of 1 request"));
  EXPECT_EQ(engines.bing_feeds().size(), 0u);  // --to google only
  expect_no_secret(r);
}

TEST(SubmitCli, BingsKeyComesFromTheEnvironment) {
  engines_stand_in engines;
  ::setenv("SITEMILL_BING_API_KEY", kBingKey, 1);
  const run_result r = run_sitemill(
      {"submit", "--bing-api-url", engines.api_url(), "--json", kSitemap});
  ::unsetenv("SITEMILL_BING_API_KEY");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(engines.problems(), IsEmpty());
  EXPECT_THAT(engines.bing_feeds(),
              ElementsAre(Pair("https://www.example.com/", kSitemap)));
  EXPECT_THAT(r.err,
              HasSubstr("bing: " + std::string(kSitemap) + ": submitted"));
  expect_no_secret(r);
}

TEST(SubmitCli, RefusesUnusableKeysAndOptionsBeforeSending) {
  temp_dir t;
  engines_stand_in engines;
  const keys k(t, engines);
  write_file(t / "broken.json", "{\n  \"type\": \"service_account\",\n  x\n}");
  struct row {
    std::vector<std::string> args;
    std::string says;
  };
  const row rows[] = {
      {{"submit", kSitemap}, "no engine to submit to"},
      {{"submit", "--google-key", t / "missing.json", kSitemap},
       "--google-key " + (t / "missing.json") + ": cannot be read"},
      {{"submit", "--google-key", t / "broken.json", kSitemap},
       "--google-key " + (t / "broken.json") + ":3: not valid JSON"},
      {{"submit", "--to", "bing", kSitemap},
       "Bing needs its API key: give --bing-key-file FILE"},
      {{"submit", "--bing-key-file", t / "nokey", kSitemap},
       "--bing-key-file " + (t / "nokey") + ": cannot be read"},
      {{"submit", "--bing-key-file", k.bing, "--site", "www.example.com",
        kSitemap},
       "--site \"www.example.com\": a property is a URL prefix"},
      {{"submit", "--bing-key-file", k.bing, "/sitemap.xml"},
       "sitemap \"/sitemap.xml\""},
  };
  for (const row& x : rows) {
    const run_result r = run_sitemill(x.args);
    EXPECT_EQ(r.exit_code, 2) << x.says << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(x.says));
    expect_no_secret(r);
  }
  EXPECT_TRUE(engines.server.requests().empty());
}

TEST(SubmitCli, DryRunSendsNothingAndPrintsEachRequest) {
  temp_dir t;
  engines_stand_in engines;
  const keys k(t, engines);
  const run_result r =
      run_sitemill(submit_args(engines, k, {"--dry-run", kSitemap}));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(engines.server.requests().empty());
  EXPECT_THAT(r.err, HasSubstr("google token: dry run: signed a JWT for " +
                               std::string(kAccount)));
  EXPECT_THAT(r.err, HasSubstr("would PUT " + engines.api_url() +
                               "/webmasters/v3/sites/"));
  EXPECT_THAT(r.err, HasSubstr("would POST " + engines.api_url() +
                               "/webmaster/api.svc/json/"
                               "SubmitFeed?apikey=[hidden]"));
  expect_no_secret(r);
}

// generate --submit: after the publish, the set's entry goes to each
// engine; a key that cannot be read publishes nothing.
TEST(SubmitCli, GenerateSubmitsThePublishedEntry) {
  temp_dir t;
  engines_stand_in engines;
  const keys k(t, engines);
  write_file(t / "urls.txt",
             "https://www.example.com/a\nhttps://www.example.com/b\n");
  const std::vector<std::string> common = {
      "generate",         "--base-url",      "https://www.example.com/",
      "--submit",         "google,bing",     "--google-key",
      k.google,           "--bing-key-file", k.bing,
      "--google-api-url", engines.api_url(), "--bing-api-url",
      engines.api_url()};
  std::vector<std::string> args = common;
  args.insert(args.end(), {"--json", "--out", t / "out", t / "urls.txt"});
  const run_result r = run_sitemill(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(engines.problems(), IsEmpty());
  const nlohmann::json j = parse_report(r);
  const nlohmann::json& s = j["announce"]["submit"];
  EXPECT_EQ(s["sitemaps"], nlohmann::json::array({kSitemap}));
  EXPECT_EQ(s["submitted"], 2);
  EXPECT_THAT(engines.google_puts(),
              ElementsAre(Pair("https://www.example.com/", kSitemap)));
  EXPECT_THAT(engines.bing_feeds(),
              ElementsAre(Pair("https://www.example.com/", kSitemap)));
  expect_no_secret(r);

  write_file(t / "broken.json", "{}");
  std::vector<std::string> bad = common;
  bad[6] = t / "broken.json";
  bad.insert(bad.end(), {"--out", t / "out2", t / "urls.txt"});
  const run_result refused = run_sitemill(bad);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_THAT(refused.err, HasSubstr("broken.json: no \"client_email\""));
  EXPECT_THAT(list_all(t.path()), Not(::testing::Contains("out2")));
  expect_no_secret(refused);
}

}  // namespace
}  // namespace sitemill::testing
