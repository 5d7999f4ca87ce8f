// Reading sets back from a bucket (walker.h, "Buckets"; set_input.h): an
// object "s3://BUCKET/KEY" read with a signed GET, an index's children
// mapped to the objects beside it, a prefix resolved through the manifest
// kept beside it. Against a private bucket on loopback that serves only
// requests whose SigV4 signature verifies as S3 verifies it
// (tests/support/s3_verify.h), and scripted servers for what a hostile one
// answers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sitemill/inspect/set_input.h"
#include "sitemill/inspect/stats.h"
#include "sitemill/walk/walker.h"
#include "store/s3_client.h"
#include "support/http_server.h"
#include "support/run.h"
#include "support/s3_verify.h"

namespace sitemill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::http_reply;
using testing::http_server;
using ::testing::Not;
using testing::private_bucket;
using testing::sitemapindex;
using testing::urlset;

// The AWS_* environment a bucket's reader takes its configuration from,
// set for one test and put back after it.
class aws_environment {
 public:
  aws_environment(const std::string& endpoint, const std::string& key,
                  const std::string& secret) {
    set("AWS_ACCESS_KEY_ID", key);
    set("AWS_SECRET_ACCESS_KEY", secret);
    set("AWS_ENDPOINT_URL_S3", endpoint);
    set("AWS_REGION", "us-east-1");
    for (const char* name : {"AWS_SESSION_TOKEN", "AWS_PROFILE",
                             "AWS_ENDPOINT_URL", "AWS_DEFAULT_REGION"})
      set(name, "");
    set("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials");
    set("AWS_CONFIG_FILE", "/nonexistent/config");
  }
  explicit aws_environment(const private_bucket& b)
      : aws_environment(b.endpoint(), b.credentials().access_key_id,
                        b.credentials().secret_access_key) {}
  ~aws_environment() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->second)
        ::setenv(it->first.c_str(), it->second->c_str(), 1);
      else
        ::unsetenv(it->first.c_str());
    }
  }
  aws_environment(const aws_environment&) = delete;
  aws_environment& operator=(const aws_environment&) = delete;

 private:
  void set(const char* name, const std::string& value) {
    const char* old = std::getenv(name);
    saved_.emplace_back(name, old ? std::optional<std::string>(old)
                                  : std::optional<std::string>());
    if (value.empty())
      ::unsetenv(name);
    else
      ::setenv(name, value.c_str(), 1);
  }
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

// Every event of a walk as a line, every entry's loc.
struct recorder final : walk_observer, parse_handler {
  std::vector<std::string> events;
  std::vector<std::string> locs;
  std::vector<walk_skip> skips;
  std::vector<walk_read> reads;
  std::vector<walk_document> opened;

  parse_handler& on_open(const walk_document& doc) override {
    opened.push_back(doc);
    return *this;
  }
  void on_read(const walk_document& doc, const walk_read& r) override {
    events.push_back("read " + doc.source + " " +
                     std::string(to_string(r.summary.kind)));
    reads.push_back(r);
  }
  void on_failed(const walk_document& doc, const walk_skip& why) override {
    events.push_back("failed " + doc.source + ": " + describe(why));
    skips.push_back(why);
  }
  void on_skip(const walk_document& doc, const walk_skip& why) override {
    events.push_back("skip " + doc.source + ": " + describe(why));
    skips.push_back(why);
  }
  void on_entry(const parsed_entry& e) override {
    locs.emplace_back(e.loc.text);
  }
};

walk_options quick() {
  walk_options o;
  o.http.connect_timeout = std::chrono::milliseconds(5'000);
  o.http.total_timeout = std::chrono::milliseconds(20'000);
  return o;
}

recorder walk_one(const std::string& target, std::string_view served_at = {},
                  walk_options o = quick()) {
  recorder r;
  sitemap_walker w(std::move(o), r);
  w.walk(target, served_at);
  return r;
}

// The keys the bucket was asked for (GET and HEAD), in order.
std::vector<std::string> asked(const private_bucket& b) {
  std::vector<std::string> keys;
  for (const auto& r : b.requests())
    keys.push_back(r.method + " " + testing::percent_decoded(r.target));
  return keys;
}

constexpr const char* site = "https://www.example.com/";

TEST(WalkBucket, ReadsAnIndexAndItsChildrenFromAPrivateBucket) {
  private_bucket b;
  const std::string gz = testing::gzip(urlset({"https://www.example.com/a"}));
  b.put("site/sitemap.xml",
        sitemapindex({std::string(site) + "sitemap-1-aaaaaaaaaaaa.xml.gz",
                      std::string(site) + "sitemap-2-bbbbbbbbbbbb.xml"}));
  b.put("site/sitemap-1-aaaaaaaaaaaa.xml.gz", gz);
  b.put("site/sitemap-2-bbbbbbbbbbbb.xml",
        urlset({"https://www.example.com/b", "https://www.example.com/c"}));
  aws_environment env(b);
  const recorder r = walk_one("s3://private-maps/site/sitemap.xml");
  EXPECT_THAT(
      r.events,
      ElementsAre(
          "read s3://private-maps/site/sitemap.xml sitemapindex",
          "read s3://private-maps/site/sitemap-1-aaaaaaaaaaaa.xml.gz urlset",
          "read s3://private-maps/site/sitemap-2-bbbbbbbbbbbb.xml urlset"));
  EXPECT_THAT(r.locs, ::testing::Contains("https://www.example.com/c"));
  EXPECT_EQ(b.refused(), 0u) << "every request verifies as S3's would";
  ASSERT_EQ(r.reads.size(), 3u);
  // The object's bytes as stored, the gzip file's own size.
  EXPECT_EQ(r.reads[1].stored_bytes, gz.size());
  EXPECT_TRUE(r.reads[1].summary.gzipped);
  EXPECT_EQ(r.reads[1].content_type, "application/gzip");
  // A child is known at the URL the index lists it at.
  ASSERT_EQ(r.opened.size(), 3u);
  EXPECT_EQ(r.opened[1].url,
            std::string(site) + "sitemap-1-aaaaaaaaaaaa.xml.gz");
  EXPECT_FALSE(r.opened[1].fetched);
}

TEST(WalkBucket, AChildIsReadOnlyBesideItsIndexNeverOutsideIt) {
  private_bucket b;
  const std::string served = std::string(site) + "maps/sitemap.xml";
  b.put("site/sitemap.xml",
        sitemapindex({
            std::string(site) + "maps/in.xml",
            std::string(site) + "other/out.xml",     // another dir
            "https://elsewhere.example/maps/x.xml",  // another host
            std::string(site) + "maps/a%2F..%2F..%2Fsecret.xml",  // "..", coded
            std::string(site) + "maps/sub/",                      // a directory
        }));
  b.put("site/in.xml", urlset({"https://www.example.com/maps/1"}));
  b.put("secret.xml", urlset({"https://www.example.com/secret"}));
  b.put("site/other/out.xml", urlset({"https://www.example.com/no"}));
  aws_environment env(b);
  const recorder r = walk_one("s3://private-maps/site/sitemap.xml", served);
  EXPECT_EQ(r.events.size(), 6u) << ::testing::PrintToString(r.events);
  EXPECT_THAT(r.events,
              ::testing::Contains("read s3://private-maps/site/in.xml urlset"));
  for (const auto& e : r.events) {
    if (!e.starts_with("read ")) {
      EXPECT_THAT(e, HasSubstr("no file beside the index")) << e;
    }
  }
  EXPECT_THAT(asked(b), ElementsAre("GET /private-maps/site/sitemap.xml",
                                    "GET /private-maps/site/in.xml"))
      << "no object outside the index's prefix is asked for";
  EXPECT_THAT(r.locs,
              Not(::testing::Contains("https://www.example.com/secret")));
}

TEST(WalkBucket, AnIndexWhoseURLIsNotKnownIsPlacedByItsChildren) {
  private_bucket b;
  b.put("deep/dir/sitemap.xml",
        sitemapindex({std::string(site) + "x/one.xml",
                      std::string(site) + "x/two.xml"}));
  b.put("deep/dir/one.xml", urlset({"https://www.example.com/x/1"}));
  b.put("deep/dir/two.xml", urlset({"https://www.example.com/x/2"}));
  aws_environment env(b);
  const recorder r = walk_one("s3://private-maps/deep/dir/sitemap.xml");
  EXPECT_THAT(r.locs, ElementsAre(std::string(site) + "x/one.xml",
                                  std::string(site) + "x/two.xml",
                                  "https://www.example.com/x/1",
                                  "https://www.example.com/x/2"));
}

TEST(WalkBucket, RefusalsNameTheObjectAndWhatS3Said) {
  private_bucket b;
  b.put("site/sitemap.xml", sitemapindex({std::string(site) + "gone.xml"}));
  {
    aws_environment env(b);
    const recorder missing = walk_one("s3://private-maps/site/nothing.xml");
    ASSERT_EQ(missing.skips.size(), 1u);
    EXPECT_EQ(missing.skips[0].reason, walk_skip_reason::read_failed);
    EXPECT_EQ(missing.skips[0].message,
              "GET s3://private-maps/site/nothing.xml: 404 Not Found, "
              "NoSuchKey: The specified key does not exist.");

    const recorder child = walk_one("s3://private-maps/site/sitemap.xml");
    EXPECT_THAT(child.events,
                ElementsAre("read s3://private-maps/site/sitemap.xml "
                            "sitemapindex",
                            "failed s3://private-maps/site/gone.xml: cannot be "
                            "read: GET s3://private-maps/site/gone.xml: 404 "
                            "Not Found, NoSuchKey: The specified key does not "
                            "exist."));

    const recorder bucket = walk_one("s3://no-such-bucket/sitemap.xml");
    ASSERT_EQ(bucket.skips.size(), 1u);
    EXPECT_THAT(bucket.skips[0].message,
                HasSubstr("404 Not Found, NoSuchBucket"));
  }
  {
    aws_environment env(b.endpoint(), "AKIDPRIVATE", "a-wrong-secret");
    const recorder wrong = walk_one("s3://private-maps/site/sitemap.xml");
    ASSERT_EQ(wrong.skips.size(), 1u);
    EXPECT_EQ(wrong.skips[0].reason, walk_skip_reason::read_failed);
    EXPECT_THAT(wrong.skips[0].message,
                HasSubstr("GET s3://private-maps/site/sitemap.xml: 403 "
                          "Forbidden, SignatureDoesNotMatch"));
    EXPECT_THAT(wrong.skips[0].message, Not(HasSubstr("a-wrong-secret")));
  }
  {
    aws_environment env(b.endpoint(), "", "");
    const recorder none = walk_one("s3://private-maps/site/sitemap.xml");
    ASSERT_EQ(none.skips.size(), 1u);
    EXPECT_THAT(none.skips[0].message,
                HasSubstr("s3://private-maps/site/sitemap.xml: no S3 "
                          "credentials"));
  }
}

TEST(WalkBucket, AMalformedLocationIsABadURL) {
  const recorder r = walk_one("s3://UPPER/key.xml");
  ASSERT_EQ(r.skips.size(), 1u);
  EXPECT_EQ(r.skips[0].reason, walk_skip_reason::bad_url);
  EXPECT_THAT(r.skips[0].message, HasSubstr("the bucket name must be"));
  const recorder dots = walk_one("s3://maps/a/../b.xml");
  ASSERT_EQ(dots.skips.size(), 1u);
  EXPECT_EQ(dots.skips[0].reason, walk_skip_reason::bad_url);
}

// A hostile server's error answers: huge, malformed, with entities and
// control characters. The message stays short, printable, and says the
// status.
TEST(WalkBucket, AHostileErrorAnswerGivesAShortClearError) {
  http_server server;
  http_reply huge{403, {{"Content-Type", "application/xml"}}, "<Error><Code>"};
  huge.padding = 20ull * 1024 * 1024;  // never closes <Code>
  server.route("/bbb/huge.xml", huge);
  server.route("/bbb/malformed.xml",
               http_reply{403, {}, "<Error><Code>Internal<Message>oops"});
  server.route(
      "/bbb/entities.xml",
      http_reply{403,
                 {},
                 "<!DOCTYPE e [<!ENTITY x \"&#x26;x;&#x26;x;\">]><Error><Code>"
                 "Access&x;\x1b[31m" +
                     std::string(5000, 'D') +
                     "</Code><Message>&x;&lt;b&gt;\x07</Message></Error>"});
  aws_environment env(server.url(""), "AKID", "SECRET");
  auto message_of = [](const std::string& location) {
    const recorder r = walk_one(location);
    EXPECT_EQ(r.skips.size(), 1u);
    EXPECT_TRUE(r.reads.empty());
    return r.skips.empty() ? std::string() : r.skips[0].message;
  };
  EXPECT_EQ(message_of("s3://bbb/huge.xml"),
            "GET s3://bbb/huge.xml: 403 Forbidden");
  EXPECT_EQ(message_of("s3://bbb/malformed.xml"),
            "GET s3://bbb/malformed.xml: 403 Forbidden");
  const std::string e = message_of("s3://bbb/entities.xml");
  EXPECT_THAT(e, HasSubstr("GET s3://bbb/entities.xml: 403 Forbidden, "
                           "Access&x;"));
  EXPECT_LT(e.size(), 500u) << e;
  for (const char ch : e)
    EXPECT_FALSE(static_cast<unsigned char>(ch) < 0x20) << e;
}

TEST(WalkBucket, ARedirectAwayFromTheEndpointIsNotFollowed) {
  http_server server, elsewhere;
  elsewhere.route("/b/k.xml",
                  http_reply{200, {}, urlset({"https://a.example/"})});
  server.redirect(
      "/bbb/k.xml",
      "http://localhost:" + std::to_string(elsewhere.port()) + "/b/k.xml", 307);
  aws_environment env(server.url(""), "AKID", "SECRET");
  const recorder r = walk_one("s3://bbb/k.xml");
  ASSERT_EQ(r.skips.size(), 1u);
  EXPECT_EQ(r.skips[0].reason, walk_skip_reason::read_failed);
  EXPECT_THAT(r.skips[0].message, HasSubstr("outside the fetch scope"));
  EXPECT_EQ(elsewhere.requests().size(), 0u)
      << "the signed request never goes to another host";
}

TEST(WalkBucket, AListingThatNeverEndsIsCapped) {
  http_server server;
  int page = 0;
  std::mutex mu;
  server.route("/maps", [&](const testing::recorded_request&) {
    std::lock_guard lock(mu);
    ++page;
    return http_reply{200,
                      {{"Content-Type", "application/xml"}},
                      "<ListBucketResult><IsTruncated>true</IsTruncated>"
                      "<NextContinuationToken>t" +
                          std::to_string(page) +
                          "</NextContinuationToken></ListBucketResult>"};
  });
  aws_environment env(server.url(""), "AKID", "SECRET");
  auto in = resolve_set_input("s3://maps/site/");
  ASSERT_FALSE(in);
  EXPECT_THAT(in.err().message,
              HasSubstr("s3://maps/site/: cannot list its manifests: GET "
                        "s3://maps/?list-type=2&prefix=.sitemill/site/"
                        "manifest-: the listing goes on past 11 pages"));

  http_server same;
  same.route("/maps",
             http_reply{200,
                        {},
                        "<ListBucketResult><IsTruncated>true</"
                        "IsTruncated><NextContinuationToken>again"
                        "</NextContinuationToken></ListBucketResult>"});
  aws_environment env2(same.url(""), "AKID", "SECRET");
  auto again = resolve_set_input("s3://maps/site/");
  ASSERT_FALSE(again);
  EXPECT_THAT(again.err().message,
              HasSubstr("repeated its continuation token"));
  EXPECT_EQ(same.requests().size(), 2u);
}

// A set's manifest, as the bucket publisher writes it.
std::string manifest(const std::string& entry,
                     const std::string& file = "sitemap.xml") {
  return "{\"sitemill_manifest\":1,\"entry\":\"" + entry +
         "\",\"files\":[{\"path\":\"" + file +
         "\",\"type\":\"urlset\",\"urls\":1,\"bytes\":10,\"digest\":"
         "\"0123456789abcdef\"}]}";
}

TEST(ResolveBucketSet, APrefixNamesItsManifestsEntry) {
  private_bucket b;
  b.put("a/.sitemill/site/manifest-sitemap.json", manifest("sitemap.xml"));
  b.put("a/site/sitemap.xml", urlset({"https://www.example.com/"}));
  aws_environment env(b);
  auto in = resolve_set_input("s3://private-maps/a/site/");
  ASSERT_TRUE(in) << in.err().message;
  EXPECT_EQ(in->target, "s3://private-maps/a/site/sitemap.xml");
  EXPECT_EQ(in->directory, "s3://private-maps/a/site/");
  ASSERT_TRUE(in->manifest);
  EXPECT_EQ(in->manifest->files.size(), 1u);
  EXPECT_EQ(b.refused(), 0u);

  // Several sets: "sitemap" unless one is named; a name with no manifest.
  b.put("a/.sitemill/site/manifest-blog.json",
        manifest("blog.xml", "blog.xml"));
  auto chosen = resolve_set_input("s3://private-maps/a/site/");
  ASSERT_TRUE(chosen);
  EXPECT_EQ(chosen->target, "s3://private-maps/a/site/sitemap.xml");
  auto blog = resolve_set_input("s3://private-maps/a/site/", "blog");
  ASSERT_TRUE(blog);
  EXPECT_EQ(blog->target, "s3://private-maps/a/site/blog.xml");
  auto none = resolve_set_input("s3://private-maps/a/site/", "shop");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.err().message,
            "s3://private-maps/a/site/ has no set named shop (no "
            "manifest-shop.json in s3://private-maps/a/.sitemill/site/)");
  EXPECT_EQ(none.err().field, "set_name");
}

TEST(ResolveBucketSet, WithoutAManifestTheEntryIsSitemapXml) {
  private_bucket b;
  b.put("sitemap.xml.gz", testing::gzip(urlset({"https://www.example.com/"})));
  aws_environment env(b);
  auto in = resolve_set_input("s3://private-maps");
  ASSERT_TRUE(in) << in.err().message;
  EXPECT_EQ(in->target, "s3://private-maps/sitemap.xml.gz");
  EXPECT_FALSE(in->manifest);
  auto empty = resolve_set_input("s3://private-maps/nothing/");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.err().message,
            "s3://private-maps/nothing/ holds no published set: no manifest in "
            "s3://private-maps/.sitemill/nothing/, no sitemap.xml or "
            "sitemap.xml.gz");
  // An object is an object: resolved without a request.
  const std::size_t before = b.requests().size();
  auto object = resolve_set_input("s3://private-maps/any/key.xml");
  ASSERT_TRUE(object);
  EXPECT_EQ(object->target, "s3://private-maps/any/key.xml");
  EXPECT_EQ(b.requests().size(), before);
}

TEST(ResolveBucketSet, AHostileManifestCannotNameAnEntryElsewhere) {
  private_bucket b;
  b.put(".sitemill/site/manifest-sitemap.json", manifest("../other.xml"));
  aws_environment env(b);
  auto in = resolve_set_input("s3://private-maps/site/");
  ASSERT_FALSE(in);
  EXPECT_THAT(in.err().message,
              HasSubstr("s3://private-maps/.sitemill/site/"
                        "manifest-sitemap.json names no entry object"));
  b.put(".sitemill/site/manifest-sitemap.json", "{\"not\": \"a manifest\"}");
  auto bad = resolve_set_input("s3://private-maps/site/");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.err().message,
            "s3://private-maps/.sitemill/site/manifest-sitemap.json is not a "
            "sitemill manifest");
}

TEST(ResolveBucketSet, RefusalsSayWhatS3Said) {
  private_bucket b;
  {
    aws_environment env(b.endpoint(), "NOSUCHKEY", "x");
    auto in = resolve_set_input("s3://private-maps/site/");
    ASSERT_FALSE(in);
    EXPECT_THAT(in.err().message,
                HasSubstr("s3://private-maps/site/: cannot list its "
                          "manifests: GET s3://private-maps/?list-type=2&"
                          "prefix=.sitemill/site/manifest-: 403 Forbidden, "
                          "InvalidAccessKeyId"));
  }
  aws_environment env(b);
  auto in = resolve_set_input("s3://other-bucket/site/");
  ASSERT_FALSE(in);
  EXPECT_THAT(in.err().message, HasSubstr("404 Not Found, NoSuchBucket"));
}

TEST(StatsOfABucket, CountTheObjectsStoredSizes) {
  private_bucket b;
  const std::string gz = testing::gzip(
      urlset({"https://www.example.com/a", "https://www.example.com/b"}));
  b.put("sitemap.xml",
        sitemapindex({std::string(site) + "sitemap-1-aaaaaaaaaaaa.xml.gz"}));
  b.put("sitemap-1-aaaaaaaaaaaa.xml.gz", gz);
  aws_environment env(b);
  auto in = resolve_set_input("s3://private-maps/");
  ASSERT_TRUE(in) << in.err().message;
  auto s = compute_stats(*in, inspect_options{});
  ASSERT_TRUE(s) << s.err().message;
  EXPECT_EQ(s->urls, 2u);
  EXPECT_EQ(s->files, 1u);
  EXPECT_EQ(s->indexes, 1u);
  ASSERT_EQ(s->documents.size(), 2u);
  EXPECT_EQ(s->documents[1].bytes_on_disk, gz.size());
  EXPECT_EQ(s->gzipped_documents, 1u);
}

// A location to read: a set (a prefix with its '/', or the bucket alone) or
// one object, judged by the rules the publisher's --out follows.
TEST(S3Locations, ObjectsAndPrefixesAreToldApart) {
  struct row {
    const char* location;
    bool prefix;
    const char* object_error;  // "" when it is an object
  };
  const row rows[] = {
      {"s3://maps", true, "names a prefix, not an object"},
      {"s3://maps/", true, "names a prefix, not an object"},
      {"s3://maps/site/", true, "names a prefix, not an object"},
      {"S3://maps/site/sitemap.xml", false, ""},
      {"s3://maps/site/sitemap.xml.gz", false, ""},
      {"s3://maps/a//b.xml", false, "the key may not hold an empty"},
      {"s3://maps/../b.xml", false, "the key may not hold an empty"},
      {"s3://Maps/b.xml", false, "the bucket name must be"},
      {"s3://maps/a\x01.xml", false, "control characters"},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.location);
    EXPECT_EQ(store::names_s3_prefix(r.location), r.prefix);
    auto o = store::parse_s3_object(r.location);
    if (std::string_view(r.object_error).empty()) {
      ASSERT_TRUE(o) << o.err().message;
      EXPECT_EQ(o->bucket, "maps");
    } else {
      ASSERT_FALSE(o);
      EXPECT_THAT(o.err().message, HasSubstr(r.object_error));
      EXPECT_THAT(o.err().message, HasSubstr(r.location));
    }
  }
  auto prefix = store::parse_s3_prefix("s3://maps/a/b");
  ASSERT_TRUE(prefix);
  EXPECT_EQ(prefix->prefix, "a/b/");
  auto bad = store::parse_s3_prefix("s3://maps/a/../b/");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.err().message,
            "s3://maps/a/../b/: the prefix may not hold an empty, \".\" or "
            "\"..\" segment");
  EXPECT_EQ(bad.err().field, "");
}

}  // namespace
}  // namespace sitemill
