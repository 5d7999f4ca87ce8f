// The S3 client against s3rver on loopback (S3's semantics, the access key
// checked; s3rver 3.7.1 does not verify Version 4 signatures), and against a
// scripted server for what s3rver never answers (503 SlowDown, a wrong
// secret) and to verify each request as it arrived the way S3 does.
#include "store/s3_client.h"

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "support/http_server.h"
#include "support/s3_server.h"
#include "support/s3_verify.h"

namespace sitemill::store {
namespace {

using sitemill::testing::http_reply;
using sitemill::testing::http_server;
using sitemill::testing::s3_server;

s3_config config_for(const std::string& endpoint, std::string key = "S3RVER",
                     std::string secret = "S3RVER") {
  s3_config c;
  c.credentials.access_key_id = std::move(key);
  c.credentials.secret_access_key = std::move(secret);
  c.endpoint = endpoint;
  c.path_style = true;
  return c;
}

retry_policy quick_retries() {
  retry_policy r;
  r.first_wait = std::chrono::milliseconds(1);
  r.sleep = [](std::chrono::milliseconds) { return true; };
  return r;
}

TEST(S3Client, PutGetHeadListDeleteOnARealServer) {
  s3_server server;
  ASSERT_TRUE(server.running());
  s3_client c(config_for(server.endpoint()), {server.bucket(), "site/"});
  std::vector<std::string> sent;
  c.after_request = [&](const s3_exchange& e) {
    sent.push_back(e.method + " " + e.key + " " + std::to_string(e.status));
  };
  const std::string xml = "<?xml version=\"1.0\"?><urlset/>\n";
  auto put =
      c.put("site/sitemap.xml", xml, {"application/xml", "max-age=300", false});
  ASSERT_TRUE(put) << put.err().message;
  EXPECT_EQ(*put, s3_put_outcome::stored);
  // A key with bytes SigV4 encodes: a space, '$', non-ASCII.
  const std::string odd = "site/a b$c\xc3\xa9.xml";
  ASSERT_TRUE(c.put(odd, "x", {"application/xml", "", false}));

  auto got = c.get("site/sitemap.xml");
  ASSERT_TRUE(got) << got.err().message;
  ASSERT_TRUE(got->has_value());
  EXPECT_EQ(**got, xml);
  auto odd_back = c.get(odd);
  ASSERT_TRUE(odd_back && odd_back->has_value());
  EXPECT_EQ(**odd_back, "x");

  auto head = c.head("site/sitemap.xml");
  ASSERT_TRUE(head) << head.err().message;
  ASSERT_TRUE(head->has_value());
  EXPECT_EQ((*head)->size, xml.size());
  EXPECT_FALSE((*head)->etag.empty());

  auto none = c.get("site/missing.xml");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->has_value());
  auto no_head = c.head("site/missing.xml");
  ASSERT_TRUE(no_head);
  EXPECT_FALSE(no_head->has_value());

  auto listed = c.list("site/");
  ASSERT_TRUE(listed) << listed.err().message;
  ASSERT_EQ(listed->size(), 2u);
  ASSERT_TRUE(c.remove("site/sitemap.xml"));
  ASSERT_TRUE(c.remove("site/sitemap.xml"));  // absent: no error
  listed = c.list("site/");
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ(listed->front().key, odd);
  EXPECT_EQ(sent.front(), "PUT site/sitemap.xml 200");
}

// s3rver's continuation tokens are DES-enciphered, which Node 20's OpenSSL 3
// refuses (a 500): the pages come from a scripted server, as S3 writes them.
TEST(S3Client, ListingFollowsContinuationTokens) {
  http_server server;
  std::vector<std::string> targets;
  std::mutex mu;
  server.route("/b", [&](const sitemill::testing::recorded_request& r) {
    {
      std::lock_guard lock(mu);
      targets.push_back(r.target);
    }
    const bool second =
        r.target.find("continuation-token=") != std::string::npos;
    std::string xml = "<ListBucketResult><Name>b</Name>";
    for (int i = second ? 3 : 0; i < (second ? 5 : 3); ++i)
      xml += "<Contents><Key>p/k" + std::to_string(i) +
             "</Key><Size>1</Size></Contents>";
    xml += second ? "<IsTruncated>false</IsTruncated>"
                  : "<IsTruncated>true</IsTruncated><NextContinuationToken>"
                    "1/tok+en=</NextContinuationToken>";
    xml += "</ListBucketResult>";
    return http_reply{200, {{"Content-Type", "application/xml"}}, xml};
  });
  s3_client c(config_for(server.url("")), {"b", ""});
  c.list_page_size = 3;
  auto listed = c.list("p/");
  ASSERT_TRUE(listed) << listed.err().message;
  ASSERT_EQ(listed->size(), 5u);
  EXPECT_EQ(listed->back().key, "p/k4");
  std::lock_guard lock(mu);
  ASSERT_EQ(targets.size(), 2u);
  EXPECT_EQ(targets[0], "/b?list-type=2&max-keys=3&prefix=p%2F");
  EXPECT_EQ(targets[1],
            "/b?continuation-token=1%2Ftok%2Ben%3D&list-type=2&max-keys=3&"
            "prefix=p%2F");
}

TEST(S3Client, BadCredentialsSayWhatWasRefusedAndNeverTheSecret) {
  s3_server server;
  ASSERT_TRUE(server.running());
  s3_client wrong_key(config_for(server.endpoint(), "NOSUCHKEY", "S3RVER"),
                      {server.bucket(), ""});
  auto r = wrong_key.put("k", "v", {"text/plain", "", false});
  ASSERT_FALSE(r);
  EXPECT_NE(r.err().message.find("PUT s3://sitemaps/k: 403"), std::string::npos)
      << r.err().message;
  EXPECT_NE(r.err().message.find("InvalidAccessKeyId"), std::string::npos)
      << r.err().message;

  // s3rver 3.7.1 does not verify Version 4 signatures (its source says so),
  // so a wrong secret is answered as AWS answers it, by a scripted server.
  http_server aws;
  aws.route("/b/k",
            http_reply{403,
                       {{"Content-Type", "application/xml"}},
                       "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error>"
                       "<Code>SignatureDoesNotMatch</Code><Message>The request "
                       "signature we calculated does not match the signature "
                       "you provided. Check your key and signing method."
                       "</Message><RequestId>4442587FB7D0A2F9</RequestId>"
                       "</Error>"});
  const std::string secret = "not-the-secret-the-server-knows";
  s3_client wrong_secret(config_for(aws.url(""), "AKID", secret), {"b", ""});
  auto s = wrong_secret.get("k");
  ASSERT_FALSE(s);
  EXPECT_NE(
      s.err().message.find("GET s3://b/k: 403 Forbidden, "
                           "SignatureDoesNotMatch: The request signature"),
      std::string::npos)
      << s.err().message;
  EXPECT_EQ(s.err().message.find(secret), std::string::npos);
}

// What a verifying server does with each request as it arrived (after
// libcurl sent it): the canonical request rebuilt from the request line and
// the signed headers, the payload hashed, the signature computed with the
// secret, compared with the one sent (support/s3_verify.h).
TEST(S3Client, SentRequestsVerifyAsAServerChecksThem) {
  http_server server;
  server.fallback([](const sitemill::testing::recorded_request&) {
    return http_reply{200, {}, "<ListBucketResult></ListBucketResult>"};
  });
  s3_config cfg = config_for(server.url(""), "AKID", "SECRET");
  cfg.credentials.session_token = "TOKEN";
  s3_client c(cfg, {"b", ""});
  ASSERT_TRUE(c.put("site/a b$c+\xc3\xa9.xml.gz", "gz bytes",
                    {"application/gzip", "max-age=60", true}));
  ASSERT_TRUE(c.list("site/a b"));
  ASSERT_TRUE(c.remove("site/x.xml"));
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  for (const auto& req : requests) {
    SCOPED_TRACE(req.method + " " + req.target);
    EXPECT_EQ(sitemill::testing::sigv4_mismatch(req, cfg.credentials), "");
    EXPECT_NE(
        req.header("Authorization").value_or("").find("x-amz-security-token"),
        std::string::npos);
  }
  EXPECT_NE(requests[0].target.find("/b/site/a%20b%24c%2B%C3%A9.xml.gz"),
            std::string::npos)
      << requests[0].target;
  EXPECT_NE(
      requests[0].header("Authorization").value_or("").find("if-none-match"),
      std::string::npos);
}

TEST(S3Client, SlowDownAndServerErrorsAreRetriedWithBackoff) {
  http_server server;
  const std::string slow_down =
      "<?xml version=\"1.0\"?><Error><Code>SlowDown</Code><Message>Please "
      "reduce your request rate.</Message></Error>";
  server.route("/b/k",
               std::vector<http_reply>{
                   {503, {{"Content-Type", "application/xml"}}, slow_down},
                   {500, {}, ""},
                   {200, {}, ""}});
  std::vector<std::chrono::milliseconds> waits;
  retry_policy retry = quick_retries();
  retry.sleep = [&](std::chrono::milliseconds d) {
    waits.push_back(d);
    return true;
  };
  s3_client c(config_for(server.url("")), {"b", ""}, {}, retry);
  auto r = c.put("k", "v", {"text/plain", "", false});
  ASSERT_TRUE(r) << r.err().message;
  EXPECT_EQ(server.count("/b/k"), 3u);
  ASSERT_EQ(waits.size(), 2u);
  EXPECT_LT(waits[0], waits[1]);  // doubled

  // Out of tries: the last refusal is told with S3's code and message.
  server.route("/b/slow", http_reply{503, {}, slow_down});
  auto gave_up = c.put("slow", "v", {"text/plain", "", false});
  ASSERT_FALSE(gave_up);
  EXPECT_NE(gave_up.err().message.find(
                "503 Service Unavailable, SlowDown: Please reduce"),
            std::string::npos)
      << gave_up.err().message;
}

TEST(S3Client, RequestsAreSignedWithTheSessionTokenAndPayloadHash) {
  http_server server;
  server.route("/b/k", http_reply{200, {}, ""});
  s3_config cfg = config_for(server.url(""), "AKID", "SECRET");
  cfg.credentials.session_token = "SESSIONTOKEN";
  s3_client c(cfg, {"b", ""});
  ASSERT_TRUE(c.put("k", "Welcome to Amazon S3.",
                    {"application/xml", "no-cache", false}));
  const auto req = server.requests().back();
  EXPECT_EQ(req.method, "PUT");
  EXPECT_EQ(req.body, "Welcome to Amazon S3.");
  EXPECT_EQ(req.header("x-amz-security-token"), "SESSIONTOKEN");
  EXPECT_EQ(req.header("x-amz-content-sha256"),
            "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
  EXPECT_EQ(req.header("Content-Type"), "application/xml");
  EXPECT_EQ(req.header("Cache-Control"), "no-cache");
  EXPECT_FALSE(req.header("Content-Encoding"));
  const std::string auth = req.header("Authorization").value_or("");
  EXPECT_NE(auth.find("Credential=AKID/"), std::string::npos) << auth;
  EXPECT_NE(auth.find("SignedHeaders=cache-control;content-type;host;"
                      "x-amz-content-sha256;x-amz-date;x-amz-security-token"),
            std::string::npos)
      << auth;
  EXPECT_EQ(auth.find("SECRET"), std::string::npos);
}

TEST(S3Client, CreateOnlyReportsAnExistingKey) {
  http_server server;
  server.route("/b/lock", http_reply{412, {}, ""});
  s3_client c(config_for(server.url("")), {"b", ""});
  auto r = c.put("lock", "me", {"application/json", "", true});
  ASSERT_TRUE(r) << r.err().message;
  EXPECT_EQ(*r, s3_put_outcome::exists);
  EXPECT_EQ(server.requests().back().header("If-None-Match"), "*");
}

TEST(S3Client, ListPagesAreReadFromTheXml) {
  const auto page = parse_list_page(
      "<ListBucketResult><Contents><Key>a&amp;b.xml</Key><Size>12</Size>"
      "<ETag>&quot;e1&quot;</ETag></Contents><Contents><Key>c</Key>"
      "<Size>0</Size></Contents><IsTruncated>true</IsTruncated>"
      "<NextContinuationToken>tok/en=</NextContinuationToken>"
      "</ListBucketResult>");
  ASSERT_EQ(page.objects.size(), 2u);
  EXPECT_EQ(page.objects[0].key, "a&b.xml");
  EXPECT_EQ(page.objects[0].size, 12u);
  EXPECT_EQ(page.objects[0].etag, "\"e1\"");
  EXPECT_EQ(page.next_token, "tok/en=");
  EXPECT_EQ(parse_list_page("<ListBucketResult><IsTruncated>false"
                            "</IsTruncated></ListBucketResult>")
                .next_token,
            "");
}

}  // namespace
}  // namespace sitemill::store
