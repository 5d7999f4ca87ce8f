// What the newest commands read from servers, made hostile: the token
// endpoint's and the APIs' answers to `submit` (huge, not JSON, nested
// without end, missing fields, an error object in a 200, a body that never
// comes) and IndexNow's answers. Each ends as a clear outcome naming the
// URL or saying what the server said, bounded in size, with no crash or
// hang (the client's own total timeout ends a stalled answer).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "sitemill/notify/indexnow.h"
#include "sitemill/notify/submit.h"
#include "submit_support.h"
#include "support/campaign.h"

namespace sitemill::testing {
namespace {

using std::chrono::milliseconds;
using ::testing::HasSubstr;
using ::testing::Not;

submit_options google_options(const engines_stand_in& engines) {
  submit_options o;
  auto key = parse_google_key(key_file_json(engines.token_uri()), "sa.json");
  EXPECT_TRUE(key) << key.err().message;
  if (key) o.google = *key;
  o.google_api_url = engines.api_url();
  o.bing_api_url = engines.api_url();
  o.retry.max_attempts = 2;
  o.retry.sleep = [](milliseconds) { return true; };
  return o;
}

// A client whose total timeout ends an answer that stalls: the one bound a
// slow drip meets (the test waits for it, it does not time it).
http_options short_timeout() {
  http_options h;
  h.total_timeout = milliseconds(1500);
  return h;
}

// `depth` arrays open inside `{"access_token": ...}`, never closed: JSON a
// recursive reader would run out of stack on.
std::string deep_json(std::size_t depth) {
  return R"({"token_type":"Bearer","x":)" + std::string(depth, '[');
}

struct token_case {
  const char* what;
  http_reply reply;
  const char* says;  // in the token step's message
};

TEST(HostileTokenAnswers, EachIsARefusalNamingTheEndpointWithNoSecret) {
  http_reply huge = text_reply(200, R"({"access_token":")");
  huge.padding = 80u << 20;  // more than the client's body cap
  http_reply drip = text_reply(200, R"({"access_token":"late"})");
  drip.stall_after_head = milliseconds(30'000);
  http_reply error_in_200 =
      text_reply(200,
                 R"({"error":"invalid_grant","error_description":)"
                 R"("Invalid JWT Signature."})",
                 "application/json");
  http_reply binary =
      text_reply(200, std::string("\x89PNG\r\n\x1a\n\0\0\0", 11), "image/png");
  const token_case cases[] = {
      {"huge", huge,
       "it is not a JSON object (the server said: {\"access_token\":\"...."},
      {"slow drip", drip, "no answer"},
      {"html",
       text_reply(200, "<html><body>Sign in</body></html>", "text/html"),
       "it is not a JSON object"},
      {"text", text_reply(200, "access_token=abc&token_type=bearer"),
       "it is not a JSON object (the server said: access_token=abc"},
      {"binary", binary, "it is not a JSON object (the server said: \\x89PNG"},
      {"deep arrays", text_reply(200, deep_json(100'000), "application/json"),
       "it is not a JSON object"},
      {"deep objects",
       text_reply(200,
                  [] {
                    std::string s;
                    for (int i = 0; i < 5'000; ++i) s += R"({"a":)";
                    return s;
                  }()),
       "it is not a JSON object"},
      {"no token", text_reply(200, R"({"token_type":"Bearer"})"),
       "holds no Bearer \"access_token\"; is the key's token_uri"},
      {"empty token", text_reply(200, R"({"access_token":""})"),
       "holds no Bearer \"access_token\""},
      {"not Bearer",
       text_reply(200, R"({"access_token":"x","token_type":"MAC"})"),
       "holds no Bearer \"access_token\""},
      {"token of the wrong type", text_reply(200, R"({"access_token":["x"]})"),
       "holds no Bearer \"access_token\""},
      {"error in a 200", error_in_200,
       "(the server said: invalid_grant: Invalid JWT Signature.)"},
  };
  for (const token_case& c : cases) {
    SCOPED_TRACE(c.what);
    engines_stand_in engines;
    engines.token_replies = {c.reply};
    http_client client(short_timeout());
    auto done = submit_sitemaps(client, {kSitemap}, google_options(engines));
    test::campaign_tally(test::campaign_kind::hostile_input, 1);
    ASSERT_TRUE(done) << done.err().message;
    ASSERT_TRUE(done->token);
    const google_token_step& t = *done->token;
    EXPECT_FALSE(t.ok());
    EXPECT_THAT(t.message, HasSubstr(c.says));
    if (t.outcome == submit_outcome::refused) {
      EXPECT_THAT(t.message, HasSubstr(engines.token_uri()));
    }
    EXPECT_LT(t.message.size(), 1000u) << t.message;
    expect_no_secret(t.message);
    // No PUT goes without a token.
    ASSERT_EQ(done->requests.size(), 1u);
    EXPECT_EQ(done->requests[0].outcome, submit_outcome::not_sent);
    EXPECT_TRUE(engines.google_puts().empty());
    EXPECT_FALSE(done->ok());
  }
}

struct api_case {
  const char* what;
  http_reply reply;
  submit_outcome outcome;
  const char* says;
};

TEST(HostileApiAnswers, GoogleAndBingAnswersAreJudgedNotTrusted) {
  http_reply huge_ok = text_reply(200, "");
  huge_ok.padding = 80u << 20;
  http_reply huge_refusal = text_reply(403, "");
  huge_refusal.padding = 80u << 20;
  http_reply drip = text_reply(200, "{}");
  drip.stall_after_head = milliseconds(30'000);
  http_reply chunked_error =
      text_reply(200,
                 R"({"error":{"code":403,"message":"User does not have )"
                 R"(sufficient permission","status":"PERMISSION_DENIED"}})",
                 "application/json");
  chunked_error.chunked = true;
  chunked_error.chunk_size = 7;
  const api_case google_cases[] = {
      {"huge 200", huge_ok, submit_outcome::submitted,
       "Search Console took the sitemap"},
      {"huge 403", huge_refusal, submit_outcome::refused, "403 Forbidden"},
      {"slow drip", drip, submit_outcome::unreachable, "no answer"},
      {"error object in a chunked 200", chunked_error, submit_outcome::refused,
       "200 OK, but the answer is an error: PERMISSION_DENIED: User does not "
       "have sufficient permission"},
      {"deep 403", text_reply(403, deep_json(100'000), "application/json"),
       submit_outcome::refused, "403 Forbidden (the server said: {"},
      {"binary 400", text_reply(400, std::string("\0\1\2\3gz", 6)),
       submit_outcome::refused, "(the server said: \\x00\\x01\\x02\\x03gz)"},
      {"empty 204", text_reply(204, ""), submit_outcome::submitted,
       "Search Console took the sitemap"},
  };
  for (const api_case& c : google_cases) {
    SCOPED_TRACE(std::string("google: ") + c.what);
    engines_stand_in engines;
    engines.google_replies = {c.reply, c.reply};
    http_client client(short_timeout());
    auto done = submit_sitemaps(client, {kSitemap}, google_options(engines));
    test::campaign_tally(test::campaign_kind::hostile_input, 1);
    ASSERT_TRUE(done) << done.err().message;
    ASSERT_TRUE(done->token && done->token->ok()) << done->token->message;
    const submit_request& q = done->requests.at(0);
    EXPECT_EQ(q.outcome, c.outcome) << q.message;
    EXPECT_THAT(q.message, HasSubstr(c.says));
    EXPECT_LT(q.message.size(), 1000u) << q.message;
    expect_no_secret(q.message);
  }

  const api_case bing_cases[] = {
      {"error object in a 200",
       text_reply(200,
                  R"({"ErrorCode":3,"Message":"ERROR!!! Invalid API key"})",
                  "application/json"),
       submit_outcome::refused,
       "200 OK, but the answer is an error: InvalidApiKey (3): ERROR!!! "
       "Invalid API key"},
      {"slow drip", drip, submit_outcome::unreachable, "no answer"},
      {"not JSON", text_reply(200, "OK"), submit_outcome::submitted,
       "Bing Webmaster Tools took the sitemap"},
      {"deep 400", text_reply(400, deep_json(50'000)), submit_outcome::refused,
       "400 Bad Request"},
  };
  for (const api_case& c : bing_cases) {
    SCOPED_TRACE(std::string("bing: ") + c.what);
    engines_stand_in engines;
    engines.bing_replies = {c.reply, c.reply};
    submit_options o = google_options(engines);
    o.google.reset();
    o.bing_api_key = kBingKey;
    http_client client(short_timeout());
    auto done = submit_sitemaps(client, {kSitemap}, o);
    test::campaign_tally(test::campaign_kind::hostile_input, 1);
    ASSERT_TRUE(done) << done.err().message;
    const submit_request& q = done->requests.at(0);
    EXPECT_EQ(q.outcome, c.outcome) << q.message;
    EXPECT_THAT(q.message, HasSubstr(c.says));
    EXPECT_LT(q.message.size(), 1000u) << q.message;
    expect_no_secret(q.message);
  }
}

TEST(HostileIndexNowAnswers, EachEndsInAnOutcomeWithABoundedMessage) {
  http_reply huge_refusal = text_reply(422, "");
  huge_refusal.padding = 80u << 20;
  http_reply drip = text_reply(200, "{}");
  drip.stall_after_head = milliseconds(30'000);
  struct row {
    const char* what;
    http_reply reply;
    indexnow_outcome outcome;
    const char* says;
  };
  const row rows[] = {
      {"huge 422", huge_refusal, indexnow_outcome::refused, "422"},
      {"slow drip", drip, indexnow_outcome::unreachable, ""},
      {"binary 403", text_reply(403, std::string("\0\xff\xfe<x>", 6)),
       indexnow_outcome::refused, "\\x00\\xFF\\xFE<x>"},
      {"deep 400", text_reply(400, deep_json(100'000), "application/json"),
       indexnow_outcome::refused, "400"},
      {"html 200", text_reply(200, "<html>thanks</html>", "text/html"),
       indexnow_outcome::accepted, ""},
  };
  for (const row& c : rows) {
    SCOPED_TRACE(c.what);
    http_server server;
    server.route("/indexnow", std::vector<http_reply>{c.reply, c.reply});
    indexnow_options o;
    o.endpoint = server.url("/indexnow");
    o.key = "3f6c2b1a9e8d4c7b";
    o.retry.max_attempts = 2;
    o.retry.sleep = [](milliseconds) { return true; };
    http_client client(short_timeout());
    auto r = submit_indexnow(client, {"https://www.example.com/a"}, o);
    test::campaign_tally(test::campaign_kind::hostile_input, 1);
    ASSERT_TRUE(r) << r.err().message;
    ASSERT_EQ(r->batches.size(), 1u);
    const indexnow_batch& b = r->batches[0];
    EXPECT_EQ(b.outcome, c.outcome) << b.message;
    EXPECT_THAT(b.message, HasSubstr(c.says));
    EXPECT_LT(b.message.size(), 1000u) << b.message;
  }
}

}  // namespace
}  // namespace sitemill::testing
