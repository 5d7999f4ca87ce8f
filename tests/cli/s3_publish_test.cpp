// End-to-end tests of publishing to a bucket (--out s3://BUCKET/PREFIX/,
// docs/publishing.md "Buckets") against s3rver on loopback (a real S3
// implementation; it checks the access key, not V4 signatures, which
// tests/s3_client_test.cpp verifies as S3 does): a publish, a republish killed
// at each request (the live index never names a missing child, and the old set
// stays whole), bad credentials (nothing changes, the refusal is told), an
// unchanged rerun (no object uploaded), the lock, --keep-old, a merge,
// refusals.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <ctime>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "sitemill/publish/bookkeeping.h"
#include "store/s3_client.h"
#include "support/campaign.h"
#include "support/run.h"
#include "support/s3_server.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using objects = std::map<std::string, std::string>;  // key -> bytes

constexpr const char* base = "https://www.example.com/";
constexpr const char* prefix = "site/";

std::string urls(const std::string& stem, int from, int to) {
  std::string text;
  for (int i = from; i < to; ++i)
    text += std::string(base) + stem + "/" + std::to_string(i) + "\n";
  return text;
}

store::s3_client client_of(const s3_server& server) {
  store::s3_config c;
  c.credentials = {"S3RVER", "S3RVER", ""};
  c.endpoint = server.endpoint();
  c.path_style = true;
  return store::s3_client(c, {server.bucket(), ""});
}

// Every object of the bucket with its bytes.
objects bucket_snapshot(const s3_server& server) {
  auto c = client_of(server);
  objects all;
  auto listed = c.list("");
  EXPECT_TRUE(listed) << listed.err().message;
  if (!listed) return all;
  for (const auto& o : *listed) {
    auto got = c.get(o.key);
    EXPECT_TRUE(got && got->has_value()) << o.key;
    if (got && got->has_value()) all[o.key] = **got;
  }
  return all;
}

// The objects under the set's prefix.
objects set_objects(const objects& all) {
  objects out;
  for (const auto& [k, v] : all)
    if (k.starts_with(prefix)) out[k] = v;
  return out;
}

run_result sitemill_s3(const s3_server& server,
                       const std::vector<std::string>& args,
                       std::vector<std::string> env = {},
                       const std::string& key = "S3RVER",
                       const std::string& secret = "S3RVER",
                       const std::string& cwd = {}) {
  std::vector<std::string> all = server.environment(key, secret);
  all.insert(all.end(), env.begin(), env.end());
  all.push_back(SITEMILL_BINARY);
  all.insert(all.end(), args.begin(), args.end());
  run_options options;
  options.cwd = cwd;
  return run_program("/usr/bin/env", all, options);
}

std::vector<std::string> generate_args(const std::string& input,
                                       std::vector<std::string> more = {}) {
  std::vector<std::string> a = {"generate",   input,   "--base-url",
                                base,         "--out", "s3://sitemaps/site/",
                                "--max-urls", "50", "--layout", "sequential"};
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

// The set the bucket serves, checked whole: the entry is an index whose
// every child is there, gzipped, valid, under the base; returns the URLs.
std::vector<std::string> expect_whole_set(const objects& all,
                                          const std::string& what) {
  std::vector<std::string> locs;
  auto entry = all.find(std::string(prefix) + "sitemap.xml");
  EXPECT_NE(entry, all.end()) << what << ": no entry";
  if (entry == all.end()) return locs;
  EXPECT_EQ(validate_xml(entry->second, "sitemapindex"), "") << what;
  for (const xml_entry& child : parse_entries(entry->second)) {
    const std::string loc = child.at("loc");
    EXPECT_TRUE(loc.starts_with(base)) << what << ": " << loc;
    const std::string name = loc.substr(std::string(base).size());
    auto it = all.find(prefix + name);
    EXPECT_NE(it, all.end())
        << what << ": the index names " << name << ", which is missing";
    if (it == all.end()) continue;
    auto xml = gunzip(it->second);
    EXPECT_TRUE(xml) << what << ": " << name << " is not gzip";
    if (!xml) continue;
    EXPECT_EQ(validate_xml(*xml, "urlset"), "") << what << ": " << name;
    for (const xml_entry& u : parse_entries(*xml)) locs.push_back(u.at("loc"));
  }
  return locs;
}

std::size_t count_lines_with(const std::string& text,
                             const std::string& needle) {
  std::size_t n = 0;
  for (const std::string& line : split_lines(text))
    if (line.find(needle) != std::string::npos) ++n;
  return n;
}

TEST(S3Publish, PublishesTheSetWithItsTypesAndBookkeepingBesideIt) {
  s3_server server;
  ASSERT_TRUE(server.running());
  temp_dir t;
  write_file(t / "urls.txt", urls("p", 0, 120));
  auto r = sitemill_s3(server, generate_args(t / "urls.txt", {"--cache-control",
                                                              "max-age=300"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const objects all = bucket_snapshot(server);
  EXPECT_EQ(expect_whole_set(all, "published").size(), 120u);
  // The entry and three children, nothing else under the prefix; the
  // manifest beside it; no lock or journal left.
  EXPECT_EQ(set_objects(all).size(), 4u);
  EXPECT_TRUE(all.count(".sitemill/site/manifest-sitemap.json"));
  EXPECT_FALSE(all.count(".sitemill/site/lock"));
  EXPECT_FALSE(all.count(".sitemill/site/journal-sitemap.json"));

  auto c = client_of(server);
  auto entry = c.head("site/sitemap.xml");
  ASSERT_TRUE(entry && entry->has_value());
  EXPECT_EQ((*entry)->content_type, "application/xml");
  for (const auto& [key, bytes] : set_objects(all)) {
    if (!key.ends_with(".gz")) continue;
    auto child = c.head(key);
    ASSERT_TRUE(child && child->has_value());
    EXPECT_EQ((*child)->content_type, "application/gzip") << key;
  }
  EXPECT_THAT(r.err, Not(HasSubstr("S3RVER")));
}

TEST(S3Publish, AnUnchangedRerunUploadsNothing) {
  s3_server server;
  ASSERT_TRUE(server.running());
  temp_dir t;
  write_file(t / "urls.txt", urls("p", 0, 120));
  ASSERT_EQ(sitemill_s3(server, generate_args(t / "urls.txt")).exit_code, 0);
  const objects before = bucket_snapshot(server);
  auto again = sitemill_s3(server, generate_args(t / "urls.txt", {"-v"}));
  ASSERT_EQ(again.exit_code, 0) << again.err;
  // Requests are traced with -v: the lock's PUT, no object of the set.
  EXPECT_EQ(count_lines_with(again.err,
                             "PUT " + server.endpoint() + "/sitemaps/site/"),
            0u)
      << again.err;
  EXPECT_GE(count_lines_with(again.err, "PUT " + server.endpoint() +
                                            "/sitemaps/.sitemill/site/lock"),
            1u)
      << again.err;
  EXPECT_EQ(bucket_snapshot(server), before);

  // One more URL: only the changed child and the index go up.
  write_file(t / "urls.txt", urls("p", 0, 121));
  auto changed = sitemill_s3(server, generate_args(t / "urls.txt", {"-v"}));
  ASSERT_EQ(changed.exit_code, 0) << changed.err;
  EXPECT_EQ(count_lines_with(changed.err,
                             "PUT " + server.endpoint() + "/sitemaps/site/"),
            2u)
      << changed.err;
  EXPECT_EQ(expect_whole_set(bucket_snapshot(server), "changed").size(), 121u);
}

// A republish killed after each of its requests in turn: at every one the
// bucket serves a whole set (the old until the entry's PUT, the new after),
// and the next run leaves exactly the new set.
TEST(S3Publish, ARunKilledAtEachRequestLeavesAWholeSet) {
  s3_server server;
  ASSERT_TRUE(server.running());
  temp_dir t;
  write_file(t / "old.txt", urls("p", 0, 120));
  write_file(t / "new.txt", urls("p", 60, 200));
  int kills = 0;
  for (int nth = 1;; ++nth) {
    SCOPED_TRACE("killed at request " + std::to_string(nth));
    ASSERT_LT(nth, 100) << "the run never finished";
    // The old set, published afresh by a run that is not killed.
    ASSERT_EQ(sitemill_s3(server, generate_args(t / "old.txt")).exit_code, 0);
    const objects old_all = bucket_snapshot(server);
    const auto old_locs = expect_whole_set(old_all, "old");
    ASSERT_EQ(old_locs.size(), 120u);

    auto r = sitemill_s3(
        server, generate_args(t / "new.txt"),
        {"SITEMILL_TEST_KILL_AT=bucket_request:" + std::to_string(nth)});
    const objects after = bucket_snapshot(server);
    const auto locs = expect_whole_set(after, "after the kill");
    if (r.exit_code == 0) {
      EXPECT_EQ(locs.size(), 140u);
      break;
    }
    ASSERT_EQ(r.term_signal, SIGKILL) << r.err;
    ++kills;
    EXPECT_TRUE(locs.size() == 120u || locs.size() == 140u) << locs.size();

    // The next run finishes or undoes the killed one: the new set alone.
    auto next = sitemill_s3(server, generate_args(t / "new.txt"));
    ASSERT_EQ(next.exit_code, 0) << next.err;
    const objects done = bucket_snapshot(server);
    EXPECT_EQ(expect_whole_set(done, "next run").size(), 140u);
    const auto index = parse_entries(done.at("site/sitemap.xml"));
    EXPECT_EQ(set_objects(done).size(), index.size() + 1)
        << "a child no index names was left";
    EXPECT_FALSE(done.count(".sitemill/site/journal-sitemap.json"));
    // Back to the old set for the next kill point (and its stale children
    // removed, which the run proves by its manifest).
    ASSERT_EQ(sitemill_s3(server, generate_args(t / "old.txt")).exit_code, 0);
  }
  EXPECT_GT(kills, 5);
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::crash_point,
                                 static_cast<std::uint64_t>(kills));
}

TEST(S3Publish, BadCredentialsChangeNothingAndSayWhatWasRefused) {
  s3_server server;
  ASSERT_TRUE(server.running());
  temp_dir t;
  write_file(t / "urls.txt", urls("p", 0, 120));
  ASSERT_EQ(sitemill_s3(server, generate_args(t / "urls.txt")).exit_code, 0);
  const objects before = bucket_snapshot(server);
  write_file(t / "urls.txt", urls("q", 0, 80));

  auto bad_key = sitemill_s3(server, generate_args(t / "urls.txt"), {},
                             "AKIANOSUCHKEY", "S3RVER");
  EXPECT_NE(bad_key.exit_code, 0);
  EXPECT_THAT(bad_key.err, HasSubstr("s3://sitemaps/site/"));
  EXPECT_THAT(bad_key.err, HasSubstr("403 Forbidden, InvalidAccessKeyId"));
  EXPECT_THAT(bad_key.err, Not(HasSubstr("S3RVER")));
  EXPECT_EQ(bucket_snapshot(server), before);
}

TEST(S3Publish, ALiveRunsLockKeepsASecondRunOutAndAStaleOneIsTakenOver) {
  s3_server server;
  ASSERT_TRUE(server.running());
  temp_dir t;
  write_file(t / "urls.txt", urls("p", 0, 120));
  auto c = client_of(server);
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const long long later = time(nullptr) + 600;
  // This test's own process: alive, on this machine.
  const std::string live =
      "{\"sitemill_lock\":1,\"token\":\"other\",\"host\":\"" +
      std::string(host) + "\",\"pid\":" + std::to_string(::getpid()) +
      ",\"expires\":" + std::to_string(later) + "}";
  ASSERT_TRUE(
      c.put(".sitemill/site/lock", live, {"application/json", "", false}));
  auto refused = sitemill_s3(server, generate_args(t / "urls.txt"));
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_THAT(refused.err, HasSubstr("another sitemill run holds its lock"));
  EXPECT_FALSE(bucket_snapshot(server).count("site/sitemap.xml"));

  // Expired: taken over.
  const std::string expired =
      "{\"sitemill_lock\":1,\"token\":\"old\",\"host\":\"elsewhere\","
      "\"pid\":1,\"expires\":1}";
  ASSERT_TRUE(
      c.put(".sitemill/site/lock", expired, {"application/json", "", false}));
  auto r = sitemill_s3(server, generate_args(t / "urls.txt"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(bucket_snapshot(server).count(".sitemill/site/lock"));
}

TEST(S3Publish, KeepOldLeavesRetiredChildrenForTheirTimeThenDeletesThem) {
  s3_server server;
  ASSERT_TRUE(server.running());
  temp_dir t;
  write_file(t / "a.txt", urls("a", 0, 60));
  write_file(t / "b.txt", urls("b", 0, 60));
  ASSERT_EQ(sitemill_s3(server, generate_args(t / "a.txt")).exit_code, 0);
  const objects a = set_objects(bucket_snapshot(server));
  auto kept =
      sitemill_s3(server, generate_args(t / "b.txt", {"--keep-old", "1s"}));
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  const objects b = set_objects(bucket_snapshot(server));
  for (const auto& [key, bytes] : a) {
    if (key != "site/sitemap.xml") {
      EXPECT_TRUE(b.count(key)) << key;
    }
  }
  EXPECT_EQ(b.size(), 2 * a.size() - 1);
  // Past their second, the next publish deletes them.
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  write_file(t / "b.txt", urls("b", 0, 61));
  ASSERT_EQ(sitemill_s3(server, generate_args(t / "b.txt")).exit_code, 0);
  const objects all = bucket_snapshot(server);
  for (const auto& [key, bytes] : a) {
    if (key != "site/sitemap.xml") {
      EXPECT_FALSE(all.count(key)) << key;
    }
  }
  EXPECT_EQ(expect_whole_set(all, "after keep-old").size(), 61u);
}

TEST(S3Publish, AForeignObjectUnderAChildsNameIsNeverReplaced) {
  s3_server server;
  ASSERT_TRUE(server.running());
  temp_dir t;
  write_file(t / "urls.txt", urls("p", 0, 20));
  // Learn the child's name from a dry run, then put another file there.
  auto dry =
      run_sitemill({"generate", t / "urls.txt", "--base-url", base, "--out",
                    "s3://sitemaps/site/", "--dry-run", "--json", "--max-urls",
                    "50", "--layout", "sequential"});
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  const auto report = parse_report(dry);
  std::string child;
  for (const auto& f : report["files"])
    if (f["path"].get<std::string>() != "sitemap.xml")
      child = f["path"].get<std::string>();
  ASSERT_FALSE(child.empty()) << report.dump();
  auto c = client_of(server);
  ASSERT_TRUE(c.put(std::string(prefix) + child, "mine",
                    {"application/gzip", "", false}));
  auto r = sitemill_s3(server, generate_args(t / "urls.txt"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("sitemill did not write it"));
  auto still = c.get(std::string(prefix) + child);
  ASSERT_TRUE(still && still->has_value());
  EXPECT_EQ(**still, "mine");
  EXPECT_FALSE(bucket_snapshot(server).count("site/sitemap.xml"));
}

// Shards of a bucket's set wait in --manifest-dir; the merge publishes them
// to the bucket as one run would.
TEST(S3Publish, MergePublishesShardsToTheBucket) {
  s3_server server;
  ASSERT_TRUE(server.running());
  temp_dir t;
  write_file(t / "urls.txt", urls("p", 0, 130));
  for (const char* shard : {"0/2", "1/2"}) {
    auto r = sitemill_s3(
        server, generate_args(t / "urls.txt", {"--shard", shard,
                                               "--manifest-dir", t / "book"}));
    ASSERT_EQ(r.exit_code, 0) << shard << ": " << r.err;
  }
  // Nothing reaches the bucket before the merge.
  EXPECT_TRUE(set_objects(bucket_snapshot(server)).empty());
  auto merged = sitemill_s3(
      server, {"merge", "--out", "s3://sitemaps/site/", "--manifest-dir",
               t / "book", "--cache-control", "max-age=60"});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  const auto locs = expect_whole_set(bucket_snapshot(server), "merged");
  EXPECT_EQ(locs.size(), 130u);
  auto without_book =
      sitemill_s3(server, {"merge", "--out", "s3://sitemaps/site/"});
  EXPECT_EQ(without_book.exit_code, 2);
  EXPECT_THAT(without_book.err, HasSubstr("--manifest-dir"));
}

// A bucket is no folder of the site, even from the site's own directory:
// the index names its children under the base URL.
TEST(S3Publish, FromTheSitesDirectoryTheBucketIsNotTakenForAFolder) {
  s3_server server;
  ASSERT_TRUE(server.running());
  temp_dir t;
  std::filesystem::create_directories(t / "site/blog");
  write_file(t / "site/index.html",
             "<!doctype html><title>Home</title><p>Home</p>");
  write_file(t / "site/blog/post.html",
             "<!doctype html><title>Post</title><p>A post</p>");
  auto r = sitemill_s3(server,
                       {"generate", "--from-dir", ".", "--base-url", base,
                        "--out", "s3://sitemaps/site/"},
                       {}, "S3RVER", "S3RVER", t / "site");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("s3:/sitemaps")));
  const auto locs = expect_whole_set(bucket_snapshot(server), "from-dir");
  EXPECT_EQ(locs.size(), 2u);
  EXPECT_FALSE(std::filesystem::exists(t / "site/s3:"));
}

TEST(S3Publish, OutUrlsThatAreNotABucketAndBucketFlagsAloneAreRefused) {
  temp_dir t;
  write_file(t / "urls.txt", urls("p", 0, 5));
  struct refusal {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<refusal> cases = {
      {{"--out", "gs://bucket/p/"}, "s3://BUCKET/PREFIX/"},
      {{"--out", "s3://Bad_Bucket/"}, "bucket name"},
      {{"--out", "s3://bucket/a//b/"}, "segment"},
      {{"--out", t / "out", "--cache-control", "max-age=60"},
       "--cache-control"},
      {{"--out", t / "out", "--keep-old", "1h"}, "--keep-old"},
      {{"--out", "s3://bucket/p/", "--manifest-dir", t / "book"},
       "--manifest-dir"},
      {{"--out", "s3://bucket/p/", "--shard", "0/2"}, "--shard"},
  };
  for (const refusal& c : cases) {
    std::vector<std::string> args = {"generate", t / "urls.txt", "--base-url",
                                     base};
    args.insert(args.end(), c.args.begin(), c.args.end());
    auto r = run_sitemill(args);
    EXPECT_EQ(r.exit_code, 2) << c.args[1] << ": " << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.says)) << c.args[1];
  }
  // Nothing named like the URL was made in the working directory.
  EXPECT_FALSE(std::filesystem::exists("s3:"));
  EXPECT_FALSE(std::filesystem::exists("gs:"));
}

}  // namespace
}  // namespace sitemill::testing
