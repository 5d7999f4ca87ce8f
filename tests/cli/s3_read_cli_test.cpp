// Reading a set back from a bucket (docs/publishing.md, "Reading a published
// set back"): `generate --out s3://` publishes to s3rver on loopback, and
// check, stats, diff and report read it from s3://BUCKET/PREFIX/ and agree
// with the same commands on the same set published to a directory; a
// missing key, a missing child, bad credentials and a missing bucket are
// told with what S3 said and the exit codes of a missing file.
// (s3rver checks the access key, not SigV4 signatures: walk_bucket_test.cpp
// reads a private bucket that verifies them.)
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store/s3_client.h"
#include "support/run.h"
#include "support/s3_server.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using json = nlohmann::json;

constexpr const char* base = "https://www.example.com/";

std::string urls(const std::string& stem, int from, int to) {
  std::string text;
  for (int i = from; i < to; ++i)
    text += std::string(base) + stem + "/" + std::to_string(i) + "\t2026-11-" +
            std::to_string(10 + i % 10) + "\n";
  return text;
}

run_result sitemill_s3(const s3_server& server,
                       const std::vector<std::string>& args,
                       const std::string& key = "S3RVER") {
  std::vector<std::string> all = server.environment(key, "S3RVER");
  all.push_back(SITEMILL_BINARY);
  all.insert(all.end(), args.begin(), args.end());
  return run_program("/usr/bin/env", all);
}

// Publishes `list` (a TSV of URL and lastmod) to `out`, a directory or a
// bucket's prefix, in sets of 50 URLs per file.
void publish(const s3_server& server, const std::string& list,
             const std::string& out) {
  auto r = sitemill_s3(
      server, {"generate", list, "--columns", "loc,lastmod", "--base-url", base,
               "--out", out, "--max-urls", "50"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

json parsed(const run_result& r) {
  json j = json::parse(r.out, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << r.out << r.err;
  return j;
}

// A stats object without what names the input (paths, keys).
json stats_numbers(json j) {
  j.erase("input");
  j.erase("entry");
  for (auto& d : j["documents"]) {
    const std::string source = d["source"];
    d["source"] = source.substr(source.rfind('/') + 1);
  }
  return j;
}

// A check object's verdicts: per document its type, URLs, bytes and codes.
json check_verdicts(const json& j) {
  json out = {{"errors", j["errors"]}, {"warnings", j["warnings"]}};
  for (const auto& d : j["documents"]) {
    std::vector<std::string> codes;
    for (const auto& g : d["diagnostics"]) codes.push_back(g["code"]);
    out["documents"].push_back({{"type", d["type"]},
                                {"urls", d["urls"]},
                                {"bytes", d["bytes"]},
                                {"codes", codes}});
  }
  return out;
}

TEST(S3Read, CheckStatsDiffAndReportAgreeWithTheSameSetInADirectory) {
  s3_server server;
  ASSERT_TRUE(server.running());
  temp_dir t;
  write_file(t / "urls.tsv", urls("p", 0, 120));
  publish(server, t / "urls.tsv", t / "public");
  publish(server, t / "urls.tsv", "s3://sitemaps/site/");

  auto check_dir = sitemill_s3(server, {"check", "--json", t / "public"});
  auto check_s3 =
      sitemill_s3(server, {"check", "--json", "s3://sitemaps/site/"});
  ASSERT_EQ(check_dir.exit_code, 0) << check_dir.out << check_dir.err;
  ASSERT_EQ(check_s3.exit_code, 0) << check_s3.out << check_s3.err;
  const json verdicts = check_verdicts(parsed(check_s3));
  EXPECT_EQ(verdicts, check_verdicts(parsed(check_dir)));
  // The index and each child the directory holds (how many, the layout
  // decides: 120 URLs at 50 a file).
  std::size_t children = 0;
  for (const auto& f : std::filesystem::directory_iterator(t / "public"))
    children += f.path().filename().string() != "sitemap.xml";
  ASSERT_GE(children, 3u);
  EXPECT_EQ(verdicts["documents"].size(), 1 + children)
      << "the index and its children";
  EXPECT_EQ(parsed(check_s3)["documents"][1]["source"].get<std::string>().rfind(
                "s3://sitemaps/site/sitemap-", 0),
            0u);

  auto stats_dir = sitemill_s3(server, {"stats", "--json", t / "public"});
  auto stats_s3 =
      sitemill_s3(server, {"stats", "--json", "s3://sitemaps/site/"});
  ASSERT_EQ(stats_dir.exit_code, 0) << stats_dir.err;
  ASSERT_EQ(stats_s3.exit_code, 0) << stats_s3.err;
  const json numbers = stats_numbers(parsed(stats_s3));
  EXPECT_EQ(numbers, stats_numbers(parsed(stats_dir)));
  EXPECT_EQ(numbers["urls"], 120);
  EXPECT_GT(numbers["bytes_on_disk"].get<std::uint64_t>(), 0u)
      << "the objects' stored sizes, as the files' on disk";
  EXPECT_EQ(parsed(stats_s3)["entry"], "s3://sitemaps/site/sitemap.xml");

  // The same set: no URL and no file differs, whichever side is the bucket.
  auto same =
      sitemill_s3(server, {"diff", t / "public", "s3://sitemaps/site/"});
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  auto same_json = sitemill_s3(
      server, {"diff", "--json", "s3://sitemaps/site/", t / "public"});
  EXPECT_EQ(same_json.exit_code, 0) << same_json.out << same_json.err;
  const json summary = parsed(same_json)["summary"];
  EXPECT_EQ(summary["old_manifest_files"], 1 + children)
      << "both manifests were read";

  auto report = sitemill_s3(
      server, {"report", "s3://sitemaps/site/", "-o", t / "report.html"});
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_THAT(read_file(t / "report.html"), HasSubstr("120"));
}

TEST(S3Read, ADiffOfADirectoryAgainstABucketIsTheDiffOfTheTwoDirectories) {
  s3_server server;
  ASSERT_TRUE(server.running());
  temp_dir t;
  write_file(t / "old.tsv", urls("p", 0, 120));
  write_file(t / "new.tsv", urls("p", 30, 140));
  publish(server, t / "old.tsv", t / "old");
  publish(server, t / "new.tsv", t / "new");
  publish(server, t / "new.tsv", "s3://sitemaps/");

  auto dirs = sitemill_s3(server, {"diff", "--json", t / "old", t / "new"});
  auto mixed =
      sitemill_s3(server, {"diff", "--json", t / "old", "s3://sitemaps"});
  ASSERT_EQ(dirs.exit_code, 1) << dirs.err;
  ASSERT_EQ(mixed.exit_code, 1) << mixed.err;
  json a = parsed(dirs), b = parsed(mixed);
  EXPECT_EQ(a["summary"], b["summary"]);
  EXPECT_EQ(a["urls"], b["urls"]);
  EXPECT_EQ(a["files"], b["files"]);
  EXPECT_EQ(b["summary"]["counts"]["added"], 20) << b["summary"].dump();
  EXPECT_EQ(b["summary"]["counts"]["removed"], 30) << b["summary"].dump();
}

TEST(S3Read, AMissingKeyOrChildSaysNoSuchKey) {
  s3_server server;
  ASSERT_TRUE(server.running());
  temp_dir t;
  write_file(t / "urls.tsv", urls("p", 0, 120));
  publish(server, t / "urls.tsv", "s3://sitemaps/site/");

  // A target that is not there: exit 2, as a missing file.
  auto missing = sitemill_s3(server, {"check", "s3://sitemaps/site/nope.xml"});
  EXPECT_EQ(missing.exit_code, 2) << missing.out << missing.err;
  EXPECT_THAT(missing.out,
              HasSubstr("GET s3://sitemaps/site/nope.xml: 404 Not Found, "
                        "NoSuchKey"));
  auto stats = sitemill_s3(server, {"stats", "s3://sitemaps/site/nope.xml"});
  EXPECT_EQ(stats.exit_code, 2);
  EXPECT_THAT(stats.err, HasSubstr("NoSuchKey"));
  auto empty = sitemill_s3(server, {"stats", "s3://sitemaps/elsewhere/"});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_THAT(empty.err,
              HasSubstr("s3://sitemaps/elsewhere/ holds no published set: no "
                        "manifest in s3://sitemaps/.sitemill/elsewhere/"));

  // A child the index names is gone: an error of the index (exit 1), a
  // document not read for stats, a diff that stops (exit 2).
  store::s3_config c;
  c.credentials = {"S3RVER", "S3RVER", ""};
  c.endpoint = server.endpoint();
  c.path_style = true;
  store::s3_client client(c, {"sitemaps", ""});
  auto listed = client.list("site/sitemap-");
  ASSERT_TRUE(listed && !listed->empty());
  const std::string gone = listed->front().key;
  ASSERT_TRUE(client.remove(gone));
  auto child = sitemill_s3(server, {"check", "s3://sitemaps/site/"});
  EXPECT_EQ(child.exit_code, 1) << child.out << child.err;
  EXPECT_THAT(child.out, HasSubstr("[read-failed]"));
  EXPECT_THAT(child.out, HasSubstr("GET s3://sitemaps/" + gone +
                                   ": 404 Not Found, NoSuchKey"));
  auto counted = sitemill_s3(server, {"stats", "s3://sitemaps/site/"});
  EXPECT_EQ(counted.exit_code, 0) << counted.err;
  EXPECT_THAT(counted.out,
              HasSubstr("documents not read (or not to their end): 1"));
  auto diff = sitemill_s3(server, {"diff", "s3://sitemaps/site/",
                                   "s3://sitemaps/site/sitemap.xml"});
  EXPECT_EQ(diff.exit_code, 2) << diff.out << diff.err;
  EXPECT_THAT(diff.err, HasSubstr("NoSuchKey"));
}

TEST(S3Read,
     BadCredentialsAndAMissingBucketAreRefusedAsS3SaysAndChangeNothing) {
  s3_server server;
  ASSERT_TRUE(server.running());
  temp_dir t;
  write_file(t / "urls.tsv", urls("p", 0, 60));
  publish(server, t / "urls.tsv", "s3://sitemaps/site/");

  for (const char* command : {"check", "stats", "report"}) {
    SCOPED_TRACE(command);
    std::vector<std::string> args = {command, "s3://sitemaps/site/"};
    if (std::string(command) == "report")
      args.insert(args.end(), {"-o", t / "r.html"});
    auto r = sitemill_s3(server, args, "NOT-THE-KEY");
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_THAT(r.err,
                HasSubstr("s3://sitemaps/site/: cannot list its manifests: GET "
                          "s3://sitemaps/?list-type=2&prefix=.sitemill/site/"
                          "manifest-: 403 Forbidden, InvalidAccessKeyId"));
    EXPECT_THAT(r.err, Not(HasSubstr("S3RVER")));
  }
  // One object with bad credentials: the object is named with S3's code.
  auto object = sitemill_s3(server, {"check", "s3://sitemaps/site/sitemap.xml"},
                            "NOT-THE-KEY");
  EXPECT_EQ(object.exit_code, 2);
  EXPECT_THAT(object.out, HasSubstr("GET s3://sitemaps/site/sitemap.xml: 403 "
                                    "Forbidden, InvalidAccessKeyId"));
  auto diff = sitemill_s3(
      server, {"diff", t / "urls.tsv", "s3://no-such-bucket/site/"});
  EXPECT_EQ(diff.exit_code, 2);
  EXPECT_THAT(diff.err, HasSubstr("404 Not Found, NoSuchBucket"));
  // The set is as it was: a check with the right key passes.
  EXPECT_EQ(sitemill_s3(server, {"check", "s3://sitemaps/site/"}).exit_code, 0);
}

// generate --from-sitemap reads a published set back from a bucket through
// the same walker: the index object (its children read beside it) and the
// set's prefix, as check takes them; and a set's directory likewise.
TEST(S3Read, GenerateFromASitemapInABucket) {
  s3_server server;
  ASSERT_TRUE(server.running());
  temp_dir t;
  write_file(t / "urls.tsv", urls("p", 0, 120));
  publish(server, t / "urls.tsv", "s3://sitemaps/site/");
  publish(server, t / "urls.tsv", t / "public");

  for (const std::string& from : {std::string("s3://sitemaps/site/sitemap.xml"),
                                 std::string("s3://sitemaps/site/"),
                                 std::string(t / "public")}) {
    const std::string out = t / ("again-" + std::to_string(from.size()));
    SCOPED_TRACE(from);
    auto r = sitemill_s3(server, {"generate", "--json", "--from-sitemap", from,
                                  "--base-url", base, "--out", out});
    ASSERT_EQ(r.exit_code, 0) << from << ": " << r.err;
    const json report = parsed(r);
    EXPECT_EQ(report["written"], 120) << from << ": " << r.out;
    auto stats = sitemill_s3(server, {"stats", "--json", out});
    EXPECT_EQ(parsed(stats)["urls"], 120) << from;
  }
}

}  // namespace
}  // namespace sitemill::testing
