// The bucket publisher when a request fails (a refusal after the retries,
// at each PUT or DELETE of a republish in turn), against an in-memory S3
// stand-in: the bucket always serves a whole set, the old one until the
// entry's PUT, and what a failure before it brought in is taken back.
#include <gtest/gtest.h>
#include <xxhash.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "publish/bucket_publisher.h"
#include "support/campaign.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill::detail {
namespace {

using sitemill::testing::http_reply;
using sitemill::testing::http_server;
using sitemill::testing::recorded_request;
using sitemill::testing::temp_dir;
using sitemill::testing::write_file;

std::string decoded(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      out.push_back(static_cast<char>(
          std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// Objects in memory; the Nth mutating request (PUT or DELETE) answers 500.
struct fake_s3 {
  std::mutex mu;
  std::map<std::string, std::string> objects;
  int mutations = 0;
  int fail_at = 0;  // 0: never

  http_reply answer(const recorded_request& r) {
    std::lock_guard lock(mu);
    const std::string path(r.path());
    if (r.method == "GET" && path == "/bkt") {
      const std::size_t at = r.target.find("prefix=");
      std::string prefix;
      if (at != std::string::npos) {
        const std::size_t end = r.target.find('&', at);
        prefix = decoded(r.target.substr(at + 7, end == std::string::npos
                                                     ? std::string::npos
                                                     : end - at - 7));
      }
      std::string xml = "<ListBucketResult>";
      for (const auto& [k, v] : objects)
        if (k.starts_with(prefix))
          xml += "<Contents><Key>" + k + "</Key><Size>" +
                 std::to_string(v.size()) + "</Size></Contents>";
      xml += "<IsTruncated>false</IsTruncated></ListBucketResult>";
      return {200, {{"Content-Type", "application/xml"}}, xml};
    }
    const std::string key = decoded(path.substr(5));  // "/bkt/"
    if (r.method == "PUT" || r.method == "DELETE") {
      if (++mutations == fail_at)
        return {500,
                {{"Content-Type", "application/xml"}},
                "<Error><Code>InternalError</Code><Message>injected</Message>"
                "</Error>"};
      if (r.method == "PUT") {
        objects[key] = r.body;
        return {200, {}, ""};
      }
      objects.erase(key);
      return {204, {}, ""};
    }
    auto it = objects.find(key);
    if (it == objects.end())
      return {404, {}, "<Error><Code>NoSuchKey</Code></Error>"};
    return {200, {}, r.method == "HEAD" ? "" : it->second};
  }
};

struct staged_set {
  temp_dir dir;
  std::vector<staged_file> files;
  std::string entry = "sitemap.xml";
  std::map<std::string, std::string> bytes;  // name -> bytes
};

// An index and its children, each child's name after its bytes.
void make_set(staged_set& s, const std::vector<std::string>& children) {
  std::string index = "<sitemapindex>";
  for (const std::string& body : children) {
    const std::uint64_t d = XXH3_64bits(body.data(), body.size());
    const std::string name = "sitemap-" + std::to_string(d % 100000) + ".xml";
    index +=
        "<sitemap><loc>https://www.example.com/" + name + "</loc></sitemap>";
    s.bytes[name] = body;
  }
  index += "</sitemapindex>";
  s.bytes[s.entry] = index;
  int n = 0;
  for (const auto& [name, body] : s.bytes) {
    const std::string temp = s.dir / std::to_string(n++);
    write_file(temp, body);
    staged_file f;
    f.temp_path = temp;
    f.file.path = name;
    f.file.type =
        name == s.entry ? document_type::sitemapindex : document_type::urlset;
    f.file.bytes = body.size();
    f.file.digest = XXH3_64bits(body.data(), body.size());
    s.files.push_back(std::move(f));
  }
}

store::env_reader env_for(const http_server& server) {
  const std::string endpoint = server.url("");
  return [endpoint](const char* name) -> std::optional<std::string> {
    const std::string n = name;
    if (n == "AWS_ACCESS_KEY_ID") return "AKID";
    if (n == "AWS_SECRET_ACCESS_KEY") return "SECRET";
    if (n == "AWS_ENDPOINT_URL_S3") return endpoint;
    return std::nullopt;
  };
}

// The set the bucket serves: the entry, each child it names there.
bool whole(fake_s3& s3, const staged_set& set) {
  std::lock_guard lock(s3.mu);
  for (const auto& [name, body] : set.bytes) {
    auto it = s3.objects.find("site/" + name);
    if (it == s3.objects.end() || it->second != body) return false;
  }
  return true;
}

TEST(BucketFaults, AFailedRequestAtEachStepLeavesAWholeSet) {
  http_server server;
  fake_s3 s3;
  server.fallback([&s3](const recorded_request& r) { return s3.answer(r); });
  bucket_options options;
  options.retry.max_attempts = 1;
  const std::vector<std::string> old_children = {"a1", "a2", "shared"};
  const std::vector<std::string> new_children = {"b1", "shared", "b2"};
  int failures = 0;
  for (int nth = 1;; ++nth) {
    SCOPED_TRACE("failed at mutating request " + std::to_string(nth));
    ASSERT_LT(nth, 50);
    {
      std::lock_guard lock(s3.mu);
      s3.objects.clear();
      s3.fail_at = 0;
    }
    staged_set old_set;
    make_set(old_set, old_children);
    {
      auto p = bucket_publisher::open("s3://bkt/site/", "sitemap", options, {},
                                      env_for(server));
      ASSERT_TRUE(p) << p.err().message;
      ASSERT_TRUE((*p)->publish(old_set.files, old_set.entry));
    }
    ASSERT_TRUE(whole(s3, old_set));
    staged_set new_set;
    make_set(new_set, new_children);
    {
      std::lock_guard lock(s3.mu);
      s3.mutations = 0;
      s3.fail_at = nth;
    }
    status published;
    {
      auto p = bucket_publisher::open("s3://bkt/site/", "sitemap", options, {},
                                      env_for(server));
      if (p)
        published = (*p)->publish(new_set.files, new_set.entry);
      else
        published = p.err();
    }
    int mutations = 0;
    {
      std::lock_guard lock(s3.mu);
      mutations = s3.mutations;
      s3.fail_at = 0;
    }
    if (published && mutations < nth) break;  // every request passed
    ++failures;
    const bool old_live = whole(s3, old_set);
    const bool new_live = whole(s3, new_set);
    EXPECT_TRUE(old_live || new_live) << published.message();
    if (!published) {
      EXPECT_NE(published.message().find("InternalError"), std::string::npos)
          << published.message();
    }
    // Before the commit, nothing the new set alone brought stays (unless
    // the failure was the undo's own, which the journal then records).
    if (old_live && !new_live) {
      std::lock_guard lock(s3.mu);
      const bool journal =
          s3.objects.count(".sitemill/site/journal-sitemap.json") > 0;
      for (const auto& [name, body] : new_set.bytes) {
        if (!old_set.bytes.count(name) && name != new_set.entry) {
          EXPECT_TRUE(journal || !s3.objects.count("site/" + name)) << name;
        }
      }
    }
    {
      // A lock whose DELETE failed stays until it expires, and this test's
      // process is its live run: expired here by hand.
      std::lock_guard lock(s3.mu);
      s3.objects.erase(".sitemill/site/lock");
    }
    // The next run recovers and publishes the new set alone.
    {
      auto p = bucket_publisher::open("s3://bkt/site/", "sitemap", options, {},
                                      env_for(server));
      ASSERT_TRUE(p) << p.err().message;
      ASSERT_TRUE((*p)->publish(new_set.files, new_set.entry));
    }
    ASSERT_TRUE(whole(s3, new_set));
    std::lock_guard lock(s3.mu);
    for (const auto& [key, body] : s3.objects) {
      if (key.starts_with("site/")) {
        EXPECT_TRUE(new_set.bytes.count(key.substr(5))) << key << " left";
      }
    }
    EXPECT_FALSE(s3.objects.count(".sitemill/site/journal-sitemap.json"));
    EXPECT_FALSE(s3.objects.count(".sitemill/site/lock"));
  }
  EXPECT_GT(failures, 6);
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::fault_case,
                                 static_cast<std::uint64_t>(failures));
}

}  // namespace
}  // namespace sitemill::detail
