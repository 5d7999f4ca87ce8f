// IndexNow (docs/protocol.md 4.2, checklist item 45): key rules, one host per
// submission, the key location's directory, batches of at most 10,000, the
// JSON body, and what each answer means; against the loopback server.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sitemill/notify/indexnow.h"
#include "sitemill/report/generate_json.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill {
namespace {

using std::chrono::milliseconds;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::http_reply;
using testing::http_server;
using ::testing::IsEmpty;
using ::testing::Not;
using testing::text_reply;
using json = nlohmann::json;

constexpr const char* kKey = "3f6c2b1a9e8d4c7b";

std::vector<std::string> numbered_urls(
    std::size_t n, const std::string& prefix = "https://www.example.com/p/") {
  std::vector<std::string> urls;
  urls.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    urls.push_back(prefix + std::to_string(i));
  return urls;
}

indexnow_options options_for(const std::string& endpoint) {
  indexnow_options o;
  o.endpoint = endpoint;
  o.key = kKey;
  o.retry.max_attempts = 3;
  o.retry.sleep = [](milliseconds) { return true; };
  return o;
}

std::vector<std::string> url_list(const std::string& body) {
  const json parsed = json::parse(body);
  std::vector<std::string> out;
  for (const auto& u : parsed.at("urlList")) out.push_back(u);
  return out;
}

// --- the key

TEST(IndexNowKey, FollowsTheProtocolsCharacterListAndLength) {
  struct row {
    std::string key;
    bool valid;
  };
  const row rows[] = {
      {"abcdefgh", true},             // 8: the minimum
      {"abcdefg", false},             // 7
      {std::string(128, 'a'), true},  // the maximum
      {std::string(129, 'a'), false},
      {"ABCdef-12", true},  // not only hexadecimal, despite the prose
      {"--------", true},
      {"abc_defgh", false},
      {"abc defgh", false},
      {"abcdefgh.", false},
      {"abcdefg\xC3\xBC", false},
      {"", false},
  };
  for (const row& r : rows) {
    EXPECT_EQ(is_valid_indexnow_key(r.key), r.valid) << r.key;
  }
}

TEST(IndexNowKey, GeneratesFreshValidKeys) {
  const std::string a = generate_indexnow_key();
  const std::string b = generate_indexnow_key();
  EXPECT_TRUE(is_valid_indexnow_key(a));
  EXPECT_EQ(a.size(), 32u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, b);
}

TEST(IndexNowKey, WritesAKeyFileHoldingExactlyTheKey) {
  testing::temp_dir t;
  auto path = write_indexnow_key(t.path(), kKey);
  ASSERT_TRUE(path) << path.err().message;
  EXPECT_EQ(*path, t / (std::string(kKey) + ".txt"));
  EXPECT_EQ(testing::read_raw(*path), kKey);
  // Again, unchanged, with a trailing slash on the directory.
  auto again = write_indexnow_key(t.path() + "/", kKey);
  ASSERT_TRUE(again);
  EXPECT_EQ(testing::read_raw(*again), kKey);
  EXPECT_THAT(testing::list_all(t.path()),
              ElementsAre(std::string(kKey) + ".txt"));
}

TEST(IndexNowKey, WriteRefusesBadKeysAndMissingDirectories) {
  testing::temp_dir t;
  auto bad = write_indexnow_key(t.path(), "short");
  ASSERT_FALSE(bad);
  EXPECT_THAT(bad.err().message, HasSubstr("8 to 128"));
  auto traversal = write_indexnow_key(t.path(), "../../etc/passwd");
  ASSERT_FALSE(traversal);
  auto missing = write_indexnow_key(t / "nope", kKey);
  ASSERT_FALSE(missing);
  EXPECT_THAT(missing.err().message, HasSubstr("nope"));
  auto dry = write_indexnow_key(t.path(), kKey, /*dry_run=*/true);
  ASSERT_TRUE(dry);
  EXPECT_THAT(testing::list_all(t.path()), IsEmpty());
}

// --- planning

TEST(IndexNowPlan, RejectsUrlsOfOtherHostsBeforeSending) {
  const indexnow_options o = options_for("https://api.indexnow.org/indexnow");
  auto plan = plan_indexnow(
      {"https://www.example.com/a", "https://shop.example.com/b",
       "http://www.example.com/c",        // http and https of one host mix
       "https://www.example.com:8443/d",  // another port is another origin
       "HTTPS://WWW.EXAMPLE.COM/e", "not a url", "https://www.example.com/a"},
      o);
  ASSERT_TRUE(plan) << plan.err().message;
  EXPECT_EQ(plan->host, "www.example.com");
  EXPECT_EQ(plan->key_location,
            std::string("https://www.example.com/") + kKey + ".txt");
  EXPECT_EQ(plan->urls, 7u);
  EXPECT_EQ(plan->duplicates, 1u);
  ASSERT_EQ(plan->rejected.size(), 3u);
  EXPECT_EQ(plan->rejected[0].url, "https://shop.example.com/b");
  EXPECT_THAT(plan->rejected[0].reason, HasSubstr("shop.example.com"));
  EXPECT_EQ(plan->rejected[1].url, "https://www.example.com:8443/d");
  EXPECT_EQ(plan->rejected[2].url, "not a url");
  ASSERT_EQ(plan->batches.size(), 1u);
  EXPECT_THAT(
      url_list(plan->batches[0].body),
      ElementsAre("https://www.example.com/a", "http://www.example.com/c",
                  "https://www.example.com/e"));
  EXPECT_FALSE(plan->ok());  // rejections are a data problem
}

TEST(IndexNowPlan, BuildsTheBodyInTheProtocolsShape) {
  indexnow_options o = options_for("https://api.indexnow.org/indexnow");
  auto plan = plan_indexnow({"https://www.example.com/a?x=\"1\""}, o);
  ASSERT_TRUE(plan);
  ASSERT_EQ(plan->batches.size(), 1u);
  // Field order as in the documentation's example; no keyLocation when the
  // key sits at the root.
  EXPECT_EQ(plan->batches[0].body,
            std::string("{\"host\":\"www.example.com\",\"key\":\"") + kKey +
                "\",\"urlList\":[\"https://www.example.com/a?x=%221%22\"]}");

  o.key_location = "https://www.example.com/keys/k.txt";
  plan = plan_indexnow({"https://www.example.com/keys/a"}, o);
  ASSERT_TRUE(plan);
  const json body = json::parse(plan->batches.at(0).body);
  EXPECT_EQ(body.at("keyLocation"), "https://www.example.com/keys/k.txt");
  EXPECT_EQ(body.at("host"), "www.example.com");
  EXPECT_EQ(body.at("key"), kKey);
}

TEST(IndexNowPlan, KeepsUrlsInsideTheKeyLocationsDirectory) {
  indexnow_options o = options_for("https://api.indexnow.org/indexnow");
  o.key_location = "https://www.example.com/catalog/key.txt";
  struct row {
    const char* url;
    bool kept;
  };
  const row rows[] = {
      {"https://www.example.com/catalog/", true},
      {"https://www.example.com/catalog/a", true},
      {"http://www.example.com/catalog/deep/b?c=/", true},
      {"https://www.example.com/catalogue/a", false},
      {"https://www.example.com/catalog", false},
      {"https://www.example.com/a?/catalog/", false},
      {"https://www.example.com/", false},
      // The key location fixes the host, even when the first URL differs.
      {"https://other.example.com/catalog/a", false},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.url);
    auto plan = plan_indexnow({r.url}, o);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->host, "www.example.com");
    EXPECT_EQ(plan->rejected.empty(), r.kept);
    EXPECT_EQ(plan->batches.size(), r.kept ? 1u : 0u);
    if (!r.kept && !plan->rejected.empty()) {
      EXPECT_FALSE(plan->rejected[0].reason.empty());
    }
  }
}

TEST(IndexNowPlan, RefusesBadOptions) {
  struct row {
    const char* what;
    indexnow_options o;
    const char* says;
    const char* field;
  };
  std::vector<row> rows;
  indexnow_options o = options_for("https://api.indexnow.org/indexnow");
  o.key = "";
  rows.push_back({"no key", o, "no IndexNow key; give `key`", "key"});
  o.key = "bad key!";
  rows.push_back({"bad key", o, "8 to 128", "key"});
  o = options_for("api.indexnow.org/indexnow");
  rows.push_back({"relative endpoint", o, "endpoint", "endpoint"});
  o = options_for("https://api.indexnow.org/indexnow");
  o.key_location = "/key.txt";
  rows.push_back({"relative key location", o, "key location", "key_location"});
  o = options_for("https://api.indexnow.org/indexnow");
  o.batch_size = 0;
  rows.push_back({"batch 0", o, "10,000", "batch_size"});
  o.batch_size = 10'001;
  rows.push_back({"batch 10,001", o, "10,000", "batch_size"});
  for (const row& r : rows) {
    SCOPED_TRACE(r.what);
    auto plan = plan_indexnow({"https://www.example.com/"}, r.o);
    ASSERT_FALSE(plan);
    EXPECT_THAT(plan.err().message, HasSubstr(r.says));
    EXPECT_EQ(plan.err().field, r.field);
    EXPECT_THAT(plan.err().message, Not(HasSubstr("--")));
  }
}

// --- against a server

class IndexNowServer : public ::testing::Test {
 protected:
  http_server server;
  http_client client{[] {
    http_options o;
    o.connect_timeout = milliseconds(2'000);
    o.total_timeout = milliseconds(10'000);
    return o;
  }()};

  indexnow_report submit(const std::vector<std::string>& urls,
                         indexnow_options o) {
    auto r = submit_indexnow(client, urls, o);
    EXPECT_TRUE(r) << r.err().message;
    return r ? *r : indexnow_report{};
  }
  indexnow_options options() { return options_for(server.url("/indexnow")); }
};

TEST_F(IndexNowServer, Splits25001UrlsInto10000And10000And5001) {
  server.route("/indexnow", text_reply(200, ""));
  const std::vector<std::string> urls = numbered_urls(25'001);
  const indexnow_report r = submit(urls, options());
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.sent(), 25'001u);
  EXPECT_EQ(r.accepted(), 25'001u);

  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  std::vector<std::size_t> sizes;
  std::vector<std::string> all;
  for (const auto& q : requests) {
    EXPECT_EQ(q.method, "POST");
    EXPECT_EQ(q.target, "/indexnow");
    EXPECT_EQ(q.header("Content-Type"), "application/json; charset=utf-8");
    const json body = json::parse(q.body);
    EXPECT_EQ(body.at("host"), "www.example.com");
    EXPECT_EQ(body.at("key"), kKey);
    EXPECT_FALSE(body.contains("keyLocation"));
    const auto list = url_list(q.body);
    sizes.push_back(list.size());
    all.insert(all.end(), list.begin(), list.end());
  }
  EXPECT_THAT(sizes, ElementsAre(10'000u, 10'000u, 5'001u));
  EXPECT_EQ(all, urls);  // every URL once, in order
  ASSERT_EQ(r.batches.size(), 3u);
  EXPECT_EQ(r.batches[2].urls, 5'001u);
  EXPECT_EQ(r.batches[2].outcome, indexnow_outcome::accepted);
}

TEST_F(IndexNowServer, TakesASmallerBatchSize) {
  server.route("/indexnow", text_reply(202, ""));
  indexnow_options o = options();
  o.batch_size = 2;
  const indexnow_report r = submit(numbered_urls(5), o);
  EXPECT_EQ(server.count("/indexnow"), 3u);
  ASSERT_EQ(r.batches.size(), 3u);
  for (const auto& b : r.batches) {
    EXPECT_EQ(b.outcome, indexnow_outcome::pending);
    EXPECT_THAT(b.message, HasSubstr("202"));
  }
  EXPECT_TRUE(r.ok());
}

TEST_F(IndexNowServer, ExplainsPermanentRefusalsAndStopsWithoutRetrying) {
  struct row {
    int status;
    const char* explanation;
  };
  const row rows[] = {
      {400, "not in IndexNow's format"},
      {403, "publish it there (`write_indexnow_key`)"},
      {422, "do not belong to host www.example.com"},
      {405, "not an answer IndexNow defines; check that `endpoint`"},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.status);
    const std::string path = "/refuse" + std::to_string(r.status);
    server.route(path, text_reply(r.status, "{\"message\":\"nope\"}",
                                  "application/json"));
    indexnow_options o = options_for(server.url(path));
    o.batch_size = 2;
    const indexnow_report rep = submit(numbered_urls(3), o);
    EXPECT_EQ(server.count(path), 1u);  // neither retried nor continued
    ASSERT_EQ(rep.batches.size(), 2u);
    EXPECT_EQ(rep.batches[0].outcome, indexnow_outcome::refused);
    EXPECT_EQ(rep.batches[0].status, r.status);
    EXPECT_THAT(rep.batches[0].message, HasSubstr(r.explanation));
    EXPECT_THAT(rep.batches[0].message, HasSubstr("nope"));
    EXPECT_THAT(rep.batches[0].message, Not(HasSubstr("--")));
    EXPECT_EQ(rep.batches[1].outcome, indexnow_outcome::not_sent);
    EXPECT_EQ(rep.sent(), 2u);
    EXPECT_EQ(rep.accepted(), 0u);
    EXPECT_FALSE(rep.ok());
  }
}

TEST_F(IndexNowServer, NamesTheKeyFileOnA403) {
  server.route("/indexnow", text_reply(403, ""));
  indexnow_options o = options();
  o.key_location = "https://www.example.com/keys/mykey.txt";
  const indexnow_report r = submit({"https://www.example.com/keys/a"}, o);
  ASSERT_EQ(r.batches.size(), 1u);
  EXPECT_THAT(r.batches[0].message,
              HasSubstr("https://www.example.com/keys/mykey.txt"));
}

TEST_F(IndexNowServer, Retries429HonouringRetryAfter) {
  http_reply throttled = text_reply(429, "");
  throttled.headers.emplace_back("Retry-After", "5");
  server.route("/indexnow",
               std::vector<http_reply>{throttled, text_reply(200, "")});
  std::vector<milliseconds> waits;
  indexnow_options o = options();
  o.retry.sleep = [&waits](milliseconds d) {
    waits.push_back(d);
    return true;
  };
  const indexnow_report r = submit(numbered_urls(3), o);
  EXPECT_TRUE(r.ok());
  EXPECT_THAT(waits, ElementsAre(milliseconds(5'000)));
  EXPECT_EQ(server.count("/indexnow"), 2u);
  // The retry sends the same body again.
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].body, requests[1].body);
  ASSERT_EQ(r.batches.size(), 1u);
  ASSERT_EQ(r.batches[0].attempts.size(), 2u);
  EXPECT_EQ(r.batches[0].attempts[0].status, 429);
}

TEST_F(IndexNowServer, Retries500ThenAccepts) {
  server.route("/indexnow", std::vector<http_reply>{text_reply(500, ""),
                                                    text_reply(200, "")});
  const indexnow_report r = submit(numbered_urls(1), options());
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(server.count("/indexnow"), 2u);
}

TEST_F(IndexNowServer, GivesUpOnEndless429AndSendsNoFurtherBatch) {
  server.route("/indexnow", text_reply(429, "too many"));
  indexnow_options o = options();
  o.batch_size = 1;
  const indexnow_report r = submit(numbered_urls(2), o);
  EXPECT_EQ(server.count("/indexnow"), 3u);  // max_attempts of batch 1 only
  ASSERT_EQ(r.batches.size(), 2u);
  EXPECT_EQ(r.batches[0].outcome, indexnow_outcome::gave_up);
  EXPECT_THAT(r.batches[0].message, HasSubstr("after 3 tries"));
  EXPECT_EQ(r.batches[1].outcome, indexnow_outcome::not_sent);
}

TEST_F(IndexNowServer, TimesOutOnASlowServer) {
  http_reply slow = text_reply(200, "");
  slow.delay = milliseconds(10'000);
  server.route("/indexnow", slow);
  http_options ho;
  ho.total_timeout = milliseconds(300);
  http_client impatient(ho);
  const auto start = std::chrono::steady_clock::now();
  auto r = submit_indexnow(impatient, numbered_urls(2), options());
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(r);
  ASSERT_EQ(r->batches.size(), 1u);
  EXPECT_EQ(r->batches[0].outcome, indexnow_outcome::unreachable);
  EXPECT_EQ(server.count("/indexnow"), 1u);
  EXPECT_LT(took, std::chrono::seconds(5));
}

TEST_F(IndexNowServer, DryRunSendsNothing) {
  server.route("/indexnow", text_reply(200, ""));
  indexnow_options o = options();
  o.dry_run = true;
  const indexnow_report r = submit(numbered_urls(3), o);
  EXPECT_TRUE(server.requests().empty());
  ASSERT_EQ(r.batches.size(), 1u);
  EXPECT_EQ(r.batches[0].outcome, indexnow_outcome::dry_run);
  EXPECT_EQ(url_list(r.batches[0].body), numbered_urls(3));
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.sent(), 0u);
}

// --- generate manifests

TEST(IndexNowManifest, ReadsAddedAndChangedButNotRemoved) {
  testing::temp_dir t;
  const std::string path = t / "report.json";
  testing::write_file(path, R"({
    "entry": "sitemap.xml",
    "changes": {
      "added": ["https://www.example.com/new"],
      "changed": [{"loc": "https://www.example.com/edited"}],
      "removed": ["https://www.example.com/gone"]
    }
  })");
  auto urls = read_manifest_changes(path);
  ASSERT_TRUE(urls) << urls.err().message;
  EXPECT_THAT(*urls, ElementsAre("https://www.example.com/new",
                                 "https://www.example.com/edited"));
}

TEST(IndexNowManifest, SaysWhyItCannotUseAFile) {
  testing::temp_dir t;
  struct row {
    const char* name;
    const char* content;  // nullptr: no file
    const char* says;
  };
  const row rows[] = {
      {"missing.json", nullptr, "cannot be read"},
      {"text.json", "not json", "not a JSON object"},
      {"array.json", "[1,2]", "not a JSON object"},
      {"nochanges.json", R"({"entry":"sitemap.xml","files":[]})",
       "has no \"changes\""},
      {"badlist.json", R"({"changes":{"added":"x"}})", "not an array"},
      {"baditem.json", R"({"changes":{"added":[1]}})", "not a URL string"},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.name);
    const std::string path = t / r.name;
    if (r.content != nullptr) testing::write_file(path, r.content);
    auto urls = read_manifest_changes(path);
    ASSERT_FALSE(urls);
    EXPECT_THAT(urls.err().message, HasSubstr(r.says));
    EXPECT_THAT(urls.err().message, HasSubstr(r.name));
  }
}

}  // namespace
}  // namespace sitemill
