// sitemill::submit_sitemaps() against loopback stand-ins of Search Console
// (token exchange, sitemaps.submit) and Bing Webmaster Tools (SubmitFeed):
// what each request carries, how each answer is explained, and that no
// secret reaches a report.
#include "sitemill/notify/submit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "notify/submit_jwt.h"
#include "sitemill/notify/announce.h"
#include "sitemill/report/notify_json.h"
#include "sitemill/write/sink.h"
#include "submit_support.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Pair;

google_service_account account_for(const engines_stand_in& engines) {
  auto key = parse_google_key(key_file_json(engines.token_uri()), "sa.json");
  EXPECT_TRUE(key) << key.err().message;
  return key ? *key : google_service_account{};
}

submit_options options_for(const engines_stand_in& engines, bool google,
                           bool bing) {
  submit_options o;
  if (google) o.google = account_for(engines);
  if (bing) o.bing_api_key = kBingKey;
  o.google_api_url = engines.api_url();
  o.bing_api_url = engines.api_url();
  o.retry.sleep = [](std::chrono::milliseconds) { return true; };
  return o;
}

// Everything a report says, as submit --json writes it.
std::string json_of(const submit_report& report, bool dry_run = false) {
  submit_run run;
  run.dry_run = dry_run;
  run.submission.sitemaps = report.sitemaps;
  run.submission.report = report;
  std::string text;
  memory_sink out(&text);
  EXPECT_TRUE(write_submit_json(out, run));
  return text;
}

// --- the key file

TEST(SubmitGoogleKey, ReadsTheFieldsOfAServiceAccountsKeyFile) {
  temp_dir t;
  write_file(t / "sa.json",
             key_file_json("https://oauth2.googleapis.com/token"));
  auto key = read_google_key(t / "sa.json");
  ASSERT_TRUE(key) << key.err().message;
  EXPECT_EQ(key->client_email, kAccount);
  EXPECT_EQ(key->private_key_id, kKeyId);
  EXPECT_EQ(key->token_uri, "https://oauth2.googleapis.com/token");
  EXPECT_EQ(key->private_key, test_rsa_key().private_pem);
}

TEST(SubmitGoogleKey, RefusesWhatIsNotAUsableKeyNamingFileAndLine) {
  const std::string good = key_file_json("https://oauth2.googleapis.com/token");
  auto without = [&](const std::string& field) {
    auto j = nlohmann::ordered_json::parse(good);
    j.erase(field);
    return j.dump(2);
  };
  auto with = [&](const std::string& field, const std::string& value) {
    auto j = nlohmann::ordered_json::parse(good);
    j[field] = value;
    return j.dump(2);
  };
  struct row {
    std::string text, says;
  };
  const row rows[] = {
      {"", "sa.json: not a service account's key file"},
      {"[1]", "sa.json: not a service account's key file"},
      {"{\n  \"type\": \"service_account\",\n  \"client_email\": x\n}",
       "sa.json:3: not valid JSON"},
      {good + "x", "not valid JSON: unexpected text after the value"},
      {without("client_email"), "no \"client_email\" string"},
      {without("private_key"), "no \"private_key\" string"},
      {without("private_key_id"), "no \"private_key_id\" string"},
      {without("token_uri"), "no \"token_uri\" string"},
      {with("type", "authorized_user"),
       "\"type\" is \"authorized_user\", not \"service_account\""},
      {with("token_uri", "/token"), "\"token_uri\" \"/token\" is not an"},
      {with("private_key",
            "-----BEGIN PRIVATE KEY-----\nnot base64\n"
            "-----END PRIVATE KEY-----\n"),
       "\"private_key\" is not a PEM RSA private key"},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.says);
    auto key = parse_google_key(r.text, "sa.json");
    ASSERT_FALSE(key);
    EXPECT_THAT(key.err().message, HasSubstr(r.says));
    EXPECT_THAT(key.err().message, Not(HasSubstr("PRIVATE KEY-----\nMII")));
    EXPECT_EQ(key.err().field, "google");
  }
  auto missing = read_google_key("/nonexistent/sa.json");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.err().message,
            "/nonexistent/sa.json: cannot be read: No such file or directory");
}

// RFC 7515 / 7518 3.3: the JWT verifies under the key's public half, and
// carries the claims Google's token endpoint checks (RFC 7523 3).
TEST(SubmitJwt, IsSignedRs256WithTheClaimsGoogleChecks) {
  auto key = parse_google_key(
      key_file_json("https://oauth2.googleapis.com/token"), "sa.json");
  ASSERT_TRUE(key);
  auto jwt = detail::google_jwt(*key, 1'790'000'000);
  ASSERT_TRUE(jwt) << jwt.err().message;
  std::int64_t iat = 0;
  EXPECT_EQ(check_jwt(*jwt, "https://oauth2.googleapis.com/token", &iat), "");
  EXPECT_EQ(iat, 1'790'000'000);
  // No padding, and only the base64url alphabet.
  EXPECT_EQ(jwt->find_first_of("=+/"), std::string::npos);
  // One byte changed in the claims and the signature no longer holds.
  std::string forged = *jwt;
  forged[forged.find('.') + 5] ^= 1;
  EXPECT_NE(check_jwt(forged, "https://oauth2.googleapis.com/token", &iat), "");
}

// --- Search Console

TEST(SubmitGoogle, ExchangesTheJwtThenPutsEachSitemapWithTheBearerToken) {
  engines_stand_in engines;
  const submit_options o = options_for(engines, true, false);
  http_client client;
  auto done = submit_sitemaps(
      client,
      {kSitemap, "https://www.example.com/news/sitemap-news.xml?lang=de&x=1",
       kSitemap},
      o);
  ASSERT_TRUE(done) << done.err().message;
  EXPECT_THAT(engines.problems(), IsEmpty());
  ASSERT_TRUE(done->token);
  EXPECT_EQ(done->token->outcome, submit_outcome::submitted)
      << done->token->message;
  EXPECT_EQ(done->token->client_email, kAccount);
  EXPECT_EQ(engines.server.count("/token"), 1u);  // one token for the run
  EXPECT_THAT(
      engines.google_puts(),
      ElementsAre(
          Pair("https://www.example.com/", kSitemap),
          Pair("https://www.example.com/",
               "https://www.example.com/news/sitemap-news.xml?lang=de&x=1")));
  // Every reserved character of both segments is encoded.
  EXPECT_THAT(
      engines.raw_google_targets(),
      ElementsAre("/webmasters/v3/sites/https%3A%2F%2Fwww.example.com%2F"
                  "/sitemaps/https%3A%2F%2Fwww.example.com%2Fsitemap.xml",
                  "/webmasters/v3/sites/https%3A%2F%2Fwww.example.com%2F"
                  "/sitemaps/https%3A%2F%2Fwww.example.com%2Fnews%2F"
                  "sitemap-news.xml%3Flang%3Dde%26x%3D1"));
  ASSERT_EQ(done->requests.size(), 2u);
  for (const submit_request& q : done->requests) {
    EXPECT_EQ(q.outcome, submit_outcome::submitted) << q.message;
    EXPECT_EQ(q.status, 204);
    EXPECT_EQ(q.method, "PUT");
    EXPECT_THAT(q.message, HasSubstr("Search Console took the sitemap"));
  }
  EXPECT_TRUE(done->ok());
  EXPECT_EQ(done->submitted(), 2u);
  expect_no_secret(json_of(*done));
}

TEST(SubmitGoogle, NamesTheDomainOrPrefixPropertyGivenAsSite) {
  struct row {
    std::string site, property, encoded;
  };
  const row rows[] = {
      {"sc-domain:Example.COM", "sc-domain:example.com",
       "sc-domain%3Aexample.com"},
      {"https://www.example.com", "https://www.example.com/",
       "https%3A%2F%2Fwww.example.com%2F"},
      {"https://www.example.com/shop", "https://www.example.com/shop/",
       "https%3A%2F%2Fwww.example.com%2Fshop%2F"},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.site);
    engines_stand_in engines;
    submit_options o = options_for(engines, true, false);
    o.site = r.site;
    http_client client;
    auto done = submit_sitemaps(client, {kSitemap}, o);
    ASSERT_TRUE(done) << done.err().message;
    EXPECT_THAT(engines.problems(), IsEmpty());
    EXPECT_THAT(engines.google_puts(), ElementsAre(Pair(r.property, kSitemap)));
    ASSERT_EQ(engines.raw_google_targets().size(), 1u);
    EXPECT_THAT(engines.raw_google_targets()[0],
                HasSubstr("/sites/" + r.encoded + "/sitemaps/"));
  }
}

TEST(SubmitGoogle, ExplainsGooglesErrorBodyWithWhatToDo) {
  engines_stand_in engines;
  engines.google_replies = {text_reply(
      403,
      R"({"error":{"code":403,"message":"User does not have sufficient )"
      R"(permission for site 'https://www.example.com/'. See also: )"
      R"(https://support.google.com/webmasters/answer/2451999.","errors":)"
      R"([{"message":"x","domain":"global","reason":"forbidden"}],)"
      R"("status":"PERMISSION_DENIED"}})",
      "application/json; charset=UTF-8")};
  http_client client;
  auto done =
      submit_sitemaps(client, {kSitemap}, options_for(engines, true, false));
  ASSERT_TRUE(done);
  ASSERT_EQ(done->requests.size(), 1u);
  const submit_request& q = done->requests[0];
  EXPECT_EQ(q.outcome, submit_outcome::refused);
  EXPECT_EQ(q.status, 403);
  EXPECT_THAT(q.message,
              HasSubstr("403 Forbidden: PERMISSION_DENIED: User does not have "
                        "sufficient permission for site "
                        "'https://www.example.com/'"));
  EXPECT_THAT(q.message, HasSubstr(std::string("add ") + kAccount +
                                   " as an Owner of the property "
                                   "https://www.example.com/"));
  EXPECT_FALSE(done->ok());
}

TEST(SubmitGoogle, ARefusedTokenSendsNoPutAndSaysWhy) {
  engines_stand_in engines;
  engines.token_replies = {
      text_reply(400,
                 R"({"error":"invalid_grant","error_description":"Invalid )"
                 R"(JWT Signature."})",
                 "application/json")};
  http_client client;
  auto done =
      submit_sitemaps(client, {kSitemap}, options_for(engines, true, true));
  ASSERT_TRUE(done);
  ASSERT_TRUE(done->token);
  EXPECT_EQ(done->token->outcome, submit_outcome::refused);
  EXPECT_THAT(done->token->message,
              HasSubstr("400 Bad Request: the token endpoint refused the "
                        "service account " +
                        std::string(kAccount) +
                        ": invalid_grant: Invalid JWT Signature."));
  EXPECT_THAT(done->token->message, HasSubstr("clock"));
  EXPECT_THAT(engines.google_puts(), IsEmpty());
  ASSERT_EQ(done->requests.size(), 2u);
  EXPECT_EQ(done->requests[0].outcome, submit_outcome::not_sent);
  EXPECT_THAT(done->requests[0].message, HasSubstr("no access token"));
  // Bing stands alone.
  EXPECT_EQ(done->requests[1].outcome, submit_outcome::submitted);
  EXPECT_FALSE(done->ok());
}

TEST(SubmitGoogle, ATokenAnswerWithoutATokenIsRefused) {
  engines_stand_in engines;
  engines.token_replies = {text_reply(200, R"({"id_token":"x"})")};
  http_client client;
  auto done =
      submit_sitemaps(client, {kSitemap}, options_for(engines, true, false));
  ASSERT_TRUE(done);
  EXPECT_EQ(done->token->outcome, submit_outcome::refused);
  EXPECT_THAT(done->token->message, HasSubstr("no Bearer \"access_token\""));
  EXPECT_EQ(done->requests[0].outcome, submit_outcome::not_sent);
}

TEST(SubmitGoogle, Retries5xxAndThrottlingThenSucceeds) {
  engines_stand_in engines;
  engines.google_replies = {text_reply(503, ""), text_reply(429, "")};
  submit_options o = options_for(engines, true, false);
  std::vector<std::chrono::milliseconds> waits;
  o.retry.sleep = [&](std::chrono::milliseconds d) {
    waits.push_back(d);
    return true;
  };
  http_client client;
  auto done = submit_sitemaps(client, {kSitemap}, o);
  ASSERT_TRUE(done);
  const submit_request& q = done->requests[0];
  EXPECT_EQ(q.outcome, submit_outcome::submitted) << q.message;
  ASSERT_EQ(q.attempts.size(), 3u);
  EXPECT_EQ(q.attempts[0].status, 503);
  EXPECT_EQ(q.attempts[1].status, 429);
  EXPECT_EQ(waits.size(), 2u);
}

// --- Bing

TEST(SubmitBing, PostsSiteAndFeedWithTheKeyInTheQueryOnly) {
  engines_stand_in engines;
  http_client client;
  auto done = submit_sitemaps(
      client, {kSitemap, "https://shop.example.com/sitemap.xml"},
      options_for(engines, false, true));
  ASSERT_TRUE(done) << done.err().message;
  EXPECT_THAT(engines.problems(), IsEmpty());
  EXPECT_FALSE(done->token);
  EXPECT_THAT(engines.bing_feeds(),
              ElementsAre(Pair("https://www.example.com/", kSitemap),
                          Pair("https://shop.example.com/",
                               "https://shop.example.com/sitemap.xml")));
  for (const submit_request& q : done->requests) {
    EXPECT_EQ(q.outcome, submit_outcome::submitted) << q.message;
    EXPECT_EQ(q.url, engines.api_url() +
                         "/webmaster/api.svc/json/SubmitFeed?apikey=[hidden]");
  }
  expect_no_secret(json_of(*done));
}

TEST(SubmitBing, ADomainPropertyLeavesBingTheSitemapsOrigin) {
  engines_stand_in engines;
  submit_options o = options_for(engines, false, true);
  o.site = "sc-domain:example.com";
  http_client client;
  auto done = submit_sitemaps(client, {kSitemap}, o);
  ASSERT_TRUE(done);
  EXPECT_THAT(engines.bing_feeds(),
              ElementsAre(Pair("https://www.example.com/", kSitemap)));
}

TEST(SubmitBing, ExplainsErrorCodeAndMessage) {
  engines_stand_in engines;
  engines.bing_replies = {
      text_reply(400, R"({"ErrorCode":3,"Message":"ERROR!!! Invalid API key"})",
                 "application/json; charset=utf-8"),
      text_reply(400,
                 R"({"ErrorCode":14,"Message":"ERROR!!! NotAuthorized"})")};
  http_client client;
  auto done =
      submit_sitemaps(client, {kSitemap}, options_for(engines, false, true));
  ASSERT_TRUE(done);
  const submit_request& q = done->requests[0];
  EXPECT_EQ(q.outcome, submit_outcome::refused);
  EXPECT_THAT(q.message, HasSubstr("400 Bad Request: InvalidApiKey (3): "
                                   "ERROR!!! Invalid API key; check "
                                   "`bing_api_key`"));
  auto again =
      submit_sitemaps(client, {kSitemap}, options_for(engines, false, true));
  ASSERT_TRUE(again);
  EXPECT_THAT(again->requests[0].message,
              HasSubstr("NotAuthorized (14): ERROR!!! NotAuthorized; the site "
                        "https://www.example.com/ must be verified"));
}

// A transport error names the URL it failed on, which holds Bing's key.
TEST(SubmitBing, AnUnreachableEndpointsErrorHidesTheKey) {
  submit_options o;
  o.bing_api_key = kBingKey;
  o.bing_api_url = "http://127.0.0.1:9";
  http_client client;
  auto done = submit_sitemaps(client, {kSitemap}, o);
  ASSERT_TRUE(done);
  const submit_request& q = done->requests[0];
  EXPECT_EQ(q.outcome, submit_outcome::unreachable);
  EXPECT_THAT(q.message, HasSubstr("apikey=[hidden]"));
  expect_no_secret(json_of(*done));
}

// --- options, dry run, announcing

TEST(SubmitOptions, RefusesWhatCannotSubmitNamingTheOption) {
  engines_stand_in engines;
  struct row {
    std::function<void(submit_options&)> change;
    std::string field, says;
  };
  const row rows[] = {
      {[](submit_options& o) { o = {}; }, "google", "no engine to submit to"},
      {[](submit_options& o) { o.site = "example.com"; }, "site",
       "a property is a URL prefix"},
      {[](submit_options& o) { o.site = "sc-domain:"; }, "site",
       "a Domain property is sc-domain: and a host name"},
      {[](submit_options& o) { o.site = "sc-domain:a/b"; }, "site",
       "a Domain property"},
      {[](submit_options& o) { o.google_api_url = "ftp://x"; },
       "google_api_url", "`google_api_url`"},
      {[](submit_options& o) { o.bing_api_url = "/relative"; }, "bing_api_url",
       "`bing_api_url`"},
      {[](submit_options& o) { o.bing_api_key = "two words"; }, "bing_api_key",
       "one word"},
      {[](submit_options& o) { o.google->private_key = "x"; }, "google",
       "not a PEM RSA private key"},
  };
  for (const row& r : rows) {
    submit_options o = options_for(engines, true, true);
    r.change(o);
    const status s = check_submit_options(o);
    ASSERT_FALSE(s) << r.says;
    EXPECT_EQ(s.field(), r.field);
    EXPECT_THAT(s.message(), HasSubstr(r.says));
    auto planned = plan_submit({kSitemap}, o);
    EXPECT_FALSE(planned);
  }
  auto bad = plan_submit({"/sitemap.xml"}, options_for(engines, false, true));
  ASSERT_FALSE(bad);
  EXPECT_THAT(bad.err().message, HasSubstr("sitemap \"/sitemap.xml\""));
  EXPECT_TRUE(engines.server.requests().empty());
}

TEST(SubmitOptions, ADryRunSignsButSendsNothing) {
  engines_stand_in engines;
  submit_options o = options_for(engines, true, true);
  o.dry_run = true;
  http_client client;
  auto done = submit_sitemaps(client, {kSitemap}, o);
  ASSERT_TRUE(done);
  EXPECT_TRUE(engines.server.requests().empty());
  EXPECT_EQ(done->token->outcome, submit_outcome::dry_run);
  EXPECT_THAT(done->token->message, HasSubstr("signed a JWT for"));
  ASSERT_EQ(done->requests.size(), 2u);
  EXPECT_EQ(done->requests[0].message,
            "would PUT " + engines.api_url() +
                "/webmasters/v3/sites/https%3A%2F%2Fwww.example.com%2F/"
                "sitemaps/https%3A%2F%2Fwww.example.com%2Fsitemap.xml");
  EXPECT_TRUE(done->ok());
  expect_no_secret(json_of(*done, true));
}

TEST(SubmitOptions, HideSecretsHidesBingsKeyAsGivenAndEncoded) {
  submit_options o;
  o.bing_api_key = "k+y/1";
  EXPECT_EQ(hide_secrets("a k+y/1 b k%2By%2F1 c", o),
            "a [hidden] b [hidden] c");
  EXPECT_EQ(hide_secrets("nothing", submit_options{}), "nothing");
}

TEST(SubmitAnnounce, SubmitsAPublishedSetsEntryAndIndexes) {
  engines_stand_in engines;
  set_report set;
  set.base_url = "https://www.example.com/";
  set.sitemaps_url = "https://www.example.com/";
  set.entry = "sitemap.xml";
  set.files.push_back({"sitemap.xml", document_type::sitemapindex});
  set.files.push_back({"sitemap-1.xml.gz", document_type::urlset});
  announce_options a;
  a.base_url = set.base_url;
  a.submit = options_for(engines, true, true);
  const std::vector<std::string> bases{set.base_url};
  EXPECT_TRUE(check_announce_options(a, bases, false));
  http_client client;
  const announcement done = announce_set(client, set, std::nullopt, a);
  ASSERT_TRUE(done.submit);
  EXPECT_THAT(done.submit->sitemaps, ElementsAre(kSitemap));
  ASSERT_TRUE(done.submit->report);
  EXPECT_TRUE(done.ok());
  EXPECT_THAT(engines.google_puts(),
              ElementsAre(Pair("https://www.example.com/", kSitemap)));
  EXPECT_THAT(engines.bing_feeds(),
              ElementsAre(Pair("https://www.example.com/", kSitemap)));

  a.submit.site = "not a property";
  const status refused = check_announce_options(a, bases, false);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.field(), "site");
}

}  // namespace
}  // namespace sitemill::testing
