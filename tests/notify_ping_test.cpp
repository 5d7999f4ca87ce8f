// The legacy ping (docs/protocol.md 1.9 and 4.1, checklist item 44) and the
// retry policy, against the scripted loopback server.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "sitemill/notify/ping.h"
#include "support/http_server.h"

namespace sitemill {
namespace {

using std::chrono::milliseconds;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::http_reply;
using testing::http_server;
using testing::text_reply;

http_options fast_http() {
  http_options o;
  o.connect_timeout = milliseconds(2'000);
  o.total_timeout = milliseconds(5'000);
  return o;
}

// A policy that records each wait instead of sleeping.
struct recorded_waits {
  std::vector<milliseconds> waits;
  retry_policy policy(int attempts = 4) {
    retry_policy p;
    p.max_attempts = attempts;
    p.sleep = [this](milliseconds d) {
      waits.push_back(d);
      return true;
    };
    return p;
  }
};

http_reply with_retry_after(int status, std::string value) {
  http_reply r = text_reply(status, "slow down");
  r.headers.emplace_back("Retry-After", std::move(value));
  return r;
}

// --- the request URL

TEST(PingUrl, NormalisesTheSitemapThenEncodesItAsAQueryValue) {
  struct row {
    const char* endpoint;
    const char* sitemap;
    const char* expected;
  };
  const row rows[] = {
      {"https://www.example.org/ping", "https://www.example.com/sitemap.xml",
       "https://www.example.org/ping?sitemap="
       "https%3A%2F%2Fwww.example.com%2Fsitemap.xml"},
      // Normalised first (space -> %20, ü -> %C3%BC), then '%' -> %25.
      {"https://www.example.org/ping", "https://www.example.com/a b/ü.xml",
       "https://www.example.org/ping?sitemap="
       "https%3A%2F%2Fwww.example.com%2Fa%2520b%2F%25C3%25BC.xml"},
      // An encoded space is not encoded twice by normalisation.
      {"https://www.example.org/ping", "https://www.example.com/a%20b.xml",
       "https://www.example.org/ping?sitemap="
       "https%3A%2F%2Fwww.example.com%2Fa%2520b.xml"},
      {"https://www.example.org/ping?engine=x",
       "https://www.example.com/sitemap.xml",
       "https://www.example.org/ping?engine=x&sitemap="
       "https%3A%2F%2Fwww.example.com%2Fsitemap.xml"},
      {"https://www.example.org/ping?", "https://www.example.com/s.xml",
       "https://www.example.org/ping?sitemap="
       "https%3A%2F%2Fwww.example.com%2Fs.xml"},
      {"https://www.example.org/ping?a=1&", "https://www.example.com/s.xml",
       "https://www.example.org/ping?a=1&sitemap="
       "https%3A%2F%2Fwww.example.com%2Fs.xml"},
      // The sitemap's own query is a value, not parameters of the ping.
      {"https://www.example.org/ping", "https://www.example.com/s?a=1&b=2",
       "https://www.example.org/ping?sitemap="
       "https%3A%2F%2Fwww.example.com%2Fs%3Fa%3D1%26b%3D2"},
      {"https://www.example.org/ping", "HTTPS://WWW.Example.COM:443/S.xml#top",
       "https://www.example.org/ping?sitemap="
       "https%3A%2F%2Fwww.example.com%2FS.xml"},
      {"HTTP://Engine.Example.ORG/ping", "http://www.example.com:8080/s.xml",
       "http://engine.example.org/ping?sitemap="
       "http%3A%2F%2Fwww.example.com%3A8080%2Fs.xml"},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.sitemap);
    auto url = ping_request_url(r.endpoint, r.sitemap);
    ASSERT_TRUE(url) << url.err().message;
    EXPECT_EQ(*url, r.expected);
  }
}

TEST(PingUrl, RefusesUnusableUrlsNamingWhich) {
  struct row {
    const char* endpoint;
    const char* sitemap;
    const char* says;
  };
  const row rows[] = {
      {"https://www.example.org/ping", "/sitemap.xml", "sitemap URL"},
      {"https://www.example.org/ping", "ftp://www.example.com/s.xml",
       "sitemap URL"},
      {"www.example.org/ping", "https://www.example.com/s.xml", "endpoint"},
      {"ftp://www.example.org/ping", "https://www.example.com/s.xml",
       "endpoint"},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.says);
    auto url = ping_request_url(r.endpoint, r.sitemap);
    ASSERT_FALSE(url);
    EXPECT_THAT(url.err().message, HasSubstr(r.says));
  }
}

TEST(QueryEncoding, KeepsOnlyUnreservedCharacters) {
  struct row {
    std::string in;
    const char* out;
  };
  const row rows[] = {
      {"AZaz09-._~", "AZaz09-._~"},
      {":/?#[]@", "%3A%2F%3F%23%5B%5D%40"},
      {"!$&'()*+,;=", "%21%24%26%27%28%29%2A%2B%2C%3B%3D"},
      {"% ", "%25%20"},
      {"\xC3\xBC", "%C3%BC"},
      {std::string("\0\xFF", 2), "%00%FF"},
      {"", ""},
  };
  for (const row& r : rows) EXPECT_EQ(encode_query_value(r.in), r.out);
}

// --- Retry-After

TEST(RetryAfter, ReadsSecondsAndHttpDates) {
  // Fri, 01 Mar 2024 12:00:00 GMT.
  const auto now =
      std::chrono::sys_days{std::chrono::year{2024} / std::chrono::March / 1} +
      std::chrono::hours{12};
  struct row {
    const char* value;
    std::optional<milliseconds> wait;
  };
  const row rows[] = {
      {"120", milliseconds(120'000)},
      {" 7 ", milliseconds(7'000)},
      {"0", milliseconds(0)},
      {"Fri, 01 Mar 2024 12:00:30 GMT", milliseconds(30'000)},
      {"Sat, 02 Mar 2024 12:00:00 GMT", milliseconds(86'400'000)},
      {"Thu, 29 Feb 2024 12:00:00 GMT", milliseconds(0)},  // in the past
      {"-1", std::nullopt},
      {"1.5", std::nullopt},
      {"soon", std::nullopt},
      {"", std::nullopt},
      {"Fri, 01 Mar 2024 12:00:30 UTC", std::nullopt},
      {"Fri, 31 Feb 2024 12:00:30 GMT", std::nullopt},
      {"Fri, 01 Foo 2024 12:00:30 GMT", std::nullopt},
      // RFC 9110 5.6.7: the two obsolete forms are read too.
      {"Friday, 01-Mar-24 12:00:30 GMT", milliseconds(30'000)},
      {"Fri Mar  1 12:00:30 2024", milliseconds(30'000)},
      // A leap second is read as :59; a wrong weekday gives way to the date;
      // an unknown one is refused.
      {"Fri, 01 Mar 2024 12:00:60 GMT", milliseconds(59'000)},
      {"Sat, 01 Mar 2024 12:00:30 GMT", milliseconds(30'000)},
      {"Xyz, 01 Mar 2024 12:00:30 GMT", std::nullopt},
      // Beyond system_clock's range: capped, not overflowed.
      {"Fri, 31 Dec 9999 23:59:59 GMT", milliseconds(100'000'000'000)},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.value);
    EXPECT_EQ(parse_retry_after(r.value, now), r.wait);
  }
  // An absurd delay is still a (long) wait, for max_wait to cap.
  const auto huge = parse_retry_after("99999999999999999999999", now);
  ASSERT_TRUE(huge);
  EXPECT_GT(*huge, milliseconds(3'600'000));
}

// --- against a server

class PingServer : public ::testing::Test {
 protected:
  http_server server;
  http_client client{fast_http()};
  recorded_waits waits;
  const std::string sitemap = "https://www.example.com/sitemap.xml";
  const std::string encoded = "https%3A%2F%2Fwww.example.com%2Fsitemap.xml";

  ping_report ping(const std::string& path, ping_options o = {}) {
    if (!o.retry.sleep) o.retry = waits.policy();
    auto r = ping_sitemap(client, server.url(path), sitemap, o);
    EXPECT_TRUE(r) << r.err().message;
    return r ? *r : ping_report{};
  }
};

TEST_F(PingServer, SendsOneGetWithTheEncodedUrlAndAccepts200) {
  server.route("/ping", text_reply(200, "Sitemap notification received"));
  const ping_report r = ping("/ping");
  EXPECT_EQ(r.outcome, ping_outcome::accepted);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.request_url, server.url("/ping?sitemap=" + encoded));
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, "/ping?sitemap=" + encoded);
  EXPECT_THAT(requests[0].header("User-Agent").value_or(""),
              HasSubstr("sitemill/"));
}

TEST_F(PingServer, PutsTheParameterAfterAnExistingQuery) {
  server.route("/ping", text_reply(200, "ok"));
  const ping_report r = ping("/ping?engine=test");
  EXPECT_TRUE(r.ok());
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].target, "/ping?engine=test&sitemap=" + encoded);
}

TEST_F(PingServer, Reports404And410AsRetiredWithoutRetrying) {
  for (const int status : {404, 410}) {
    SCOPED_TRACE(status);
    const std::string path = "/retired" + std::to_string(status);
    server.route(path, text_reply(status, "<html>gone</html>", "text/html"));
    const ping_report r = ping(path);
    EXPECT_EQ(r.outcome, ping_outcome::retired);
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.status, status);
    EXPECT_THAT(r.message, HasSubstr("this endpoint has been retired"));
    EXPECT_THAT(r.message, HasSubstr("robots.txt"));
    EXPECT_THAT(r.message, HasSubstr("IndexNow"));
    EXPECT_EQ(server.count(path), 1u);
  }
  EXPECT_TRUE(waits.waits.empty());
}

TEST_F(PingServer, Retries500ThenSucceeds) {
  server.route("/ping", std::vector<http_reply>{text_reply(500, "oops"),
                                                text_reply(200, "ok")});
  const ping_report r = ping("/ping");
  EXPECT_EQ(r.outcome, ping_outcome::accepted);
  ASSERT_EQ(r.attempts.size(), 2u);
  EXPECT_EQ(r.attempts[0].status, 500);
  EXPECT_EQ(r.attempts[1].status, 200);
  EXPECT_EQ(server.count("/ping"), 2u);
  // The first wait of the default policy.
  EXPECT_THAT(waits.waits, ElementsAre(milliseconds(1'000)));
}

TEST_F(PingServer, Honours429RetryAfterUpToTheCap) {
  server.route("/ping", std::vector<http_reply>{with_retry_after(429, "7"),
                                                text_reply(200, "ok")});
  ping_report r = ping("/ping");
  EXPECT_EQ(r.outcome, ping_outcome::accepted);
  EXPECT_THAT(waits.waits, ElementsAre(milliseconds(7'000)));
  ASSERT_EQ(r.attempts.size(), 2u);
  EXPECT_EQ(r.attempts[0].wait, milliseconds(7'000));

  // A server asking for an hour gets max_wait.
  server.route("/capped", std::vector<http_reply>{with_retry_after(429, "3600"),
                                                  text_reply(200, "ok")});
  waits.waits.clear();
  ping_options o;
  o.retry = waits.policy();
  o.retry.max_wait = milliseconds(50);
  r = ping("/capped", o);
  EXPECT_EQ(r.outcome, ping_outcome::accepted);
  EXPECT_THAT(waits.waits, ElementsAre(milliseconds(50)));
}

TEST_F(PingServer, BacksOffExponentiallyThenGivesUp) {
  server.route("/ping", text_reply(503, "maintenance"));
  const ping_report r = ping("/ping");
  EXPECT_EQ(r.outcome, ping_outcome::gave_up);
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(server.count("/ping"), 4u);
  EXPECT_THAT(waits.waits, ElementsAre(milliseconds(1'000), milliseconds(2'000),
                                       milliseconds(4'000)));
  EXPECT_THAT(r.message, HasSubstr("after 4 tries"));
  EXPECT_THAT(r.message, HasSubstr("503"));
  EXPECT_THAT(r.message, HasSubstr("maintenance"));
}

TEST_F(PingServer, ReallySleepsWithoutAnInjectedSleep) {
  server.route("/ping", std::vector<http_reply>{with_retry_after(503, "0"),
                                                text_reply(200, "ok")});
  ping_options o;
  o.retry.first_wait = milliseconds(1);
  auto r = ping_sitemap(client, server.url("/ping"), sitemap, o);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->outcome, ping_outcome::accepted);
  EXPECT_EQ(server.count("/ping"), 2u);
}

TEST_F(PingServer, RefusesOtherStatusesWithoutRetrying) {
  server.route("/ping", text_reply(400, "missing sitemap parameter"));
  const ping_report r = ping("/ping");
  EXPECT_EQ(r.outcome, ping_outcome::refused);
  EXPECT_THAT(r.message, HasSubstr("400 Bad Request"));
  EXPECT_THAT(r.message, HasSubstr("missing sitemap parameter"));
  EXPECT_EQ(server.count("/ping"), 1u);
}

TEST_F(PingServer, StopsWhenTheSleepIsInterrupted) {
  server.route("/ping", text_reply(503, "busy"));
  ping_options o;
  o.retry.sleep = [](milliseconds) { return false; };
  const ping_report r = ping("/ping", o);
  EXPECT_EQ(r.outcome, ping_outcome::cancelled);
  EXPECT_EQ(server.count("/ping"), 1u);
}

TEST_F(PingServer, TimesOutOnASlowServer) {
  http_reply slow = text_reply(200, "late");
  slow.delay = milliseconds(10'000);
  server.route("/ping", slow);
  http_options o = fast_http();
  o.total_timeout = milliseconds(300);
  http_client impatient(o);
  const auto start = std::chrono::steady_clock::now();
  ping_options po;
  po.retry = waits.policy();
  auto r = ping_sitemap(impatient, server.url("/ping"), sitemap, po);
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(r);
  EXPECT_EQ(r->outcome, ping_outcome::unreachable);
  EXPECT_EQ(r->status, 0);
  EXPECT_THAT(r->message, HasSubstr("no answer"));
  EXPECT_EQ(server.count("/ping"), 1u);
  // Generous: only proves the timeout fired long before the server answered.
  EXPECT_LT(took, std::chrono::seconds(5));
}

TEST_F(PingServer, DryRunSendsNothing) {
  server.route("/ping", text_reply(200, "ok"));
  ping_options o;
  o.dry_run = true;
  const ping_report r = ping("/ping", o);
  EXPECT_EQ(r.outcome, ping_outcome::dry_run);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.request_url, server.url("/ping?sitemap=" + encoded));
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(PingServer, VerifiesThatTheSitemapAnswers200) {
  server.route("/sitemap.xml", text_reply(200, "<urlset/>", "application/xml"));
  server.route("/missing.xml", text_reply(404, "no"));
  server.route("/flaky.xml", std::vector<http_reply>{text_reply(502, ""),
                                                     text_reply(200, "ok")});
  const sitemap_check good =
      verify_sitemap(client, server.url("/sitemap.xml"), waits.policy());
  EXPECT_TRUE(good.ok);
  EXPECT_EQ(good.status, 200);
  const sitemap_check bad =
      verify_sitemap(client, server.url("/missing.xml"), waits.policy());
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.status, 404);
  EXPECT_THAT(bad.message, HasSubstr("404 Not Found"));
  const sitemap_check flaky =
      verify_sitemap(client, server.url("/flaky.xml"), waits.policy());
  EXPECT_TRUE(flaky.ok);
  EXPECT_EQ(server.count("/flaky.xml"), 2u);
  const sitemap_check relative = verify_sitemap(client, "/sitemap.xml");
  EXPECT_FALSE(relative.ok);
  EXPECT_EQ(relative.status, 0);
}

}  // namespace
}  // namespace sitemill
