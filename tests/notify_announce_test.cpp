// Announcing a published set through the library (announce_set()): the
// entry and indexes in robots.txt (docs/protocol.md 5), the URLs that changed
// to IndexNow (docs/protocol.md 4.2), against a temporary robots.txt and the
// loopback server.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sitemill/notify/announce.h"
#include "support/http_server.h"
#include "support/run.h"

namespace sitemill {
namespace {

using std::chrono::milliseconds;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::http_server;
using testing::text_reply;
using json = nlohmann::json;

constexpr const char* kKey = "3f6c2b1a9e8d4c7b";
constexpr const char* kBase = "https://www.example.com/maps";  // no final '/'

// A set of two sitemaps under two indexes, the first index its entry.
set_report published_set() {
  set_report r;
  r.entry = "sitemap-index-1.xml";
  r.files = {{"sitemap-1-aaaaaaaaaaaa.xml.gz", document_type::urlset, 2, 300},
             {"sitemap-2-bbbbbbbbbbbb.xml.gz", document_type::urlset, 1, 200},
             {"sitemap-index-1.xml", document_type::sitemapindex, 1, 200},
             {"sitemap-index-2.xml", document_type::sitemapindex, 1, 200}};
  return r;
}

// The changes since the last run.
std::optional<state_changes> changes() {
  return state_changes{
      {"https://www.example.com/maps/new", "https://www.example.com/maps/b"},
      {"https://www.example.com/maps/edited"},
      {"https://www.example.com/maps/gone"}};
}

class Announce : public ::testing::Test {
 protected:
  testing::temp_dir dir;
  http_server server;
  http_client client{[] {
    http_options o;
    o.connect_timeout = milliseconds(2'000);
    o.total_timeout = milliseconds(10'000);
    return o;
  }()};

  announce_options options() {
    announce_options a;
    a.base_url = kBase;
    a.robots_path = dir / "robots.txt";
    a.indexnow.key = kKey;
    a.indexnow.endpoint = server.url("/indexnow");
    a.indexnow.retry.max_attempts = 2;
    a.indexnow.retry.sleep = [](milliseconds) { return true; };
    return a;
  }
};

TEST_F(Announce, ListsTheEntryAndEveryIndexAndSendsWhatChanged) {
  server.route("/indexnow", text_reply(200, ""));
  testing::write_file(dir / "robots.txt", "User-agent: *\nDisallow: /tmp/\n");
  const announcement done =
      announce_set(client, published_set(), changes(), options());

  ASSERT_TRUE(done.robots);
  EXPECT_EQ(done.robots->path, dir / "robots.txt");
  EXPECT_THAT(done.robots->sitemaps,
              ElementsAre("https://www.example.com/maps/sitemap-index-1.xml",
                          "https://www.example.com/maps/sitemap-index-2.xml"));
  EXPECT_FALSE(done.robots->failure);
  ASSERT_TRUE(done.robots->update);
  EXPECT_TRUE(done.robots->update->written);
  EXPECT_EQ(done.robots->update->edit.added, done.robots->sitemaps);
  EXPECT_EQ(testing::read_raw(dir / "robots.txt"),
            "User-agent: *\nDisallow: /tmp/\n\n"
            "Sitemap: https://www.example.com/maps/sitemap-index-1.xml\n"
            "Sitemap: https://www.example.com/maps/sitemap-index-2.xml\n");

  ASSERT_TRUE(done.indexnow);
  EXPECT_THAT(done.indexnow->urls,
              ElementsAre("https://www.example.com/maps/new",
                          "https://www.example.com/maps/b",
                          "https://www.example.com/maps/edited"));
  ASSERT_TRUE(done.indexnow->report);
  EXPECT_TRUE(done.indexnow->report->ok());
  ASSERT_EQ(server.count("/indexnow"), 1u);
  const json body = json::parse(server.requests()[0].body);
  EXPECT_EQ(body["urlList"], json(done.indexnow->urls));
  EXPECT_EQ(body["key"], kKey);
  EXPECT_TRUE(done.ok());

  // A second announcement finds robots.txt saying it all already.
  const announcement again =
      announce_set(client, published_set(), changes(), options());
  ASSERT_TRUE(again.robots && again.robots->update);
  EXPECT_FALSE(again.robots->update->written);
  EXPECT_TRUE(again.robots->update->edit.added.empty());
}

TEST_F(Announce, ListsALoneSitemapAndCreatesAMissingRobotsTxt) {
  set_report r = published_set();
  r.entry = "sitemap.xml";
  r.files = {{"sitemap.xml", document_type::urlset, 3, 400}};
  announce_options a = options();
  a.indexnow.key.clear();
  const announcement done = announce_set(client, r, changes(), a);
  ASSERT_TRUE(done.robots && done.robots->update);
  EXPECT_TRUE(done.robots->update->created);
  EXPECT_EQ(testing::read_raw(dir / "robots.txt"),
            "Sitemap: https://www.example.com/maps/sitemap.xml\n");
  EXPECT_FALSE(done.indexnow) << "no key, no IndexNow";
  EXPECT_TRUE(server.requests().empty());
}

// A set that grew from one gzipped file (entry sitemap.xml.gz, before the
// entry was always NAME.xml) or shrank from two indexes leaves no line
// pointing at a file it no longer has; other sets' lines stay.
TEST_F(Announce, ReplacesTheLinesAnEarlierRunOfTheSameSetWrote) {
  set_report r = published_set();
  r.entry = "sitemap.xml";
  r.files = {{"sitemap-1-aaaaaaaaaaaa.xml.gz", document_type::urlset, 3, 400},
             {"sitemap.xml", document_type::sitemapindex, 1, 200}};
  announce_options a = options();
  a.indexnow.key.clear();
  testing::write_file(
      dir / "robots.txt",
      "User-agent: *\n"
      "Sitemap: https://www.example.com/maps/sitemap.xml.gz\n"
      "Sitemap: https://WWW.example.com/maps/sitemap-index-2.xml\n"
      "Sitemap: https://www.example.com/maps/sitemap.txt\n"
      "Sitemap: https://www.example.com/maps/sitemaps.xml.gz\n"
      "Sitemap: https://www.example.com/maps/sitemap-index-x.xml\n"
      "Sitemap: https://www.example.com/maps/blog.xml\n"
      "Sitemap: https://www.example.com/sitemap.xml.gz\n");
  const announcement done = announce_set(client, r, changes(), a);
  ASSERT_TRUE(done.robots && done.robots->update)
      << done.robots->failure->message;
  EXPECT_EQ(testing::read_raw(dir / "robots.txt"),
            "User-agent: *\n"
            "Sitemap: https://www.example.com/maps/sitemaps.xml.gz\n"
            "Sitemap: https://www.example.com/maps/sitemap-index-x.xml\n"
            "Sitemap: https://www.example.com/maps/blog.xml\n"
            "Sitemap: https://www.example.com/sitemap.xml.gz\n"
            "Sitemap: https://www.example.com/maps/sitemap.xml\n");
  const auto& removed = done.robots->update->edit.removed;
  ASSERT_EQ(removed.size(), 3u);
  EXPECT_EQ(removed[0].line, 2u);
  EXPECT_THAT(removed[0].reason, HasSubstr("superseded"));
}

// The two steps are independent: robots.txt failing does not keep IndexNow
// from hearing about the changes.
TEST_F(Announce, ARobotsTxtThatCannotBeWrittenFailsThatStepOnly) {
  server.route("/indexnow", text_reply(202, ""));
  announce_options a = options();
  a.robots_path = dir / "no/such/dir/robots.txt";
  const announcement done = announce_set(client, published_set(), changes(), a);
  ASSERT_TRUE(done.robots);
  ASSERT_TRUE(done.robots->failure);
  EXPECT_FALSE(done.robots->update);
  EXPECT_THAT(done.robots->failure->message, HasSubstr("no/such/dir"));
  ASSERT_TRUE(done.indexnow && done.indexnow->report);
  EXPECT_TRUE(done.indexnow->report->ok());
  EXPECT_EQ(server.count("/indexnow"), 1u);
  EXPECT_FALSE(done.ok());
}

TEST_F(Announce, CallsNoOneWhenNothingChanged) {
  set_report r = published_set();
  const std::optional<state_changes> removed_only =
      state_changes{{}, {}, {"https://www.example.com/maps/gone"}};
  announce_options a = options();
  a.robots_path.clear();
  const announcement done = announce_set(client, r, removed_only, a);
  EXPECT_FALSE(done.robots);
  ASSERT_TRUE(done.indexnow);
  EXPECT_TRUE(done.indexnow->urls.empty());
  EXPECT_FALSE(done.indexnow->report);
  EXPECT_FALSE(done.indexnow->failure);
  EXPECT_TRUE(server.requests().empty());
  EXPECT_TRUE(done.ok());
}

TEST_F(Announce, SendsNothingForARunThatKeptNoState) {
  set_report r = published_set();
  announce_options a = options();
  a.robots_path.clear();
  const announcement done = announce_set(client, r, std::nullopt, a);
  EXPECT_FALSE(done.indexnow);
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(Announce, ReportsRefusedOptionsWithTheirField) {
  announce_options a = options();
  a.robots_path.clear();
  a.indexnow.key = "not a key";
  const announcement done = announce_set(client, published_set(), changes(), a);
  ASSERT_TRUE(done.indexnow && done.indexnow->failure);
  EXPECT_EQ(done.indexnow->failure->field, "key");
  EXPECT_FALSE(done.indexnow->report);
  EXPECT_TRUE(server.requests().empty());
  EXPECT_FALSE(done.ok());
}

TEST_F(Announce, ABatchTheEngineRefusesIsNotOk) {
  server.route("/indexnow", text_reply(403, ""));
  announce_options a = options();
  a.robots_path.clear();
  const announcement done = announce_set(client, published_set(), changes(), a);
  ASSERT_TRUE(done.indexnow && done.indexnow->report);
  ASSERT_EQ(done.indexnow->report->batches.size(), 1u);
  EXPECT_EQ(done.indexnow->report->batches[0].outcome,
            indexnow_outcome::refused);
  EXPECT_FALSE(done.ok());
}

// The sets of a run over two hosts, published in `out`, and its changes.
std::vector<set_report> two_host_sets(const std::string& out) {
  return {{"https://www.shop.de/",
           out + "/www.shop.de",
           "sitemap.xml",
           "https://www.shop.de/sitemap.xml",
           false,
           2,
           {{"sitemap-1-aaaaaaaaaaaa.xml.gz", document_type::urlset, 2, 300},
            {"sitemap.xml", document_type::sitemapindex, 1, 200}},
           ""},
          {"https://www.shop.fr:8443/",
           out + "/www.shop.fr_8443",
           "sitemap.xml",
           "https://www.shop.fr:8443/sitemap.xml",
           false,
           1,
           {{"sitemap.xml", document_type::urlset, 1, 200}},
           ""}};
}
const std::optional<state_changes> two_host_changes = state_changes{
    {"https://www.shop.de/neu", "https://www.shop.fr:8443/nouveau"},
    {"https://www.shop.de/anders"},
    {}};

// A run over two hosts: each set is listed in its own host's robots.txt
// ("{host}" in the path), and IndexNow hears of each host's changes in a
// submission of its own, as a key proves one host.
TEST_F(Announce, EachSetOfASeveralHostRunIsAnnouncedForItsHost) {
  server.route("/indexnow", text_reply(200, ""));
  std::filesystem::create_directories(dir / "www.shop.de");
  std::filesystem::create_directories(dir / "www.shop.fr_8443");
  const std::vector<set_report> sets = two_host_sets(dir.path());
  const std::optional<state_changes>& run_changes = two_host_changes;
  announce_options a = options();
  a.robots_path = dir / "{host}/robots.txt";
  const std::vector<announcement> done =
      announce_sets(client, sets, run_changes, a);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(testing::read_raw(dir / "www.shop.de/robots.txt"),
            "Sitemap: https://www.shop.de/sitemap.xml\n");
  EXPECT_EQ(testing::read_raw(dir / "www.shop.fr_8443/robots.txt"),
            "Sitemap: https://www.shop.fr:8443/sitemap.xml\n");
  ASSERT_TRUE(done[0].indexnow && done[1].indexnow);
  EXPECT_THAT(
      done[0].indexnow->urls,
      ElementsAre("https://www.shop.de/neu", "https://www.shop.de/anders"));
  EXPECT_THAT(done[1].indexnow->urls,
              ElementsAre("https://www.shop.fr:8443/nouveau"));
  ASSERT_EQ(server.count("/indexnow"), 2u);
  EXPECT_EQ(json::parse(server.requests()[0].body)["host"], "www.shop.de");
  EXPECT_EQ(json::parse(server.requests()[1].body)["host"], "www.shop.fr:8443");
  EXPECT_TRUE(done[0].ok() && done[1].ok());
}

// One robots.txt for the sets of several hosts would list them all where
// only one host's Sitemap: lines count (docs/hosts.md): announce_sets()
// refuses that step for every set, even when check_announce_options() was
// not asked first, and IndexNow goes on.
TEST_F(Announce, OneRobotsTxtForSeveralHostsIsRefusedForEverySet) {
  server.route("/indexnow", text_reply(200, ""));
  const std::vector<announcement> done = announce_sets(
      client, two_host_sets(dir.path()), two_host_changes, options());
  ASSERT_EQ(done.size(), 2u);
  for (const announcement& its : done) {
    ASSERT_TRUE(its.robots && its.robots->failure);
    EXPECT_EQ(its.robots->failure->field, "robots_path");
    EXPECT_THAT(its.robots->failure->message,
                HasSubstr("put {host} in the path"));
    EXPECT_EQ(its.robots->path, dir / "robots.txt");
    EXPECT_FALSE(its.robots->update);
    EXPECT_FALSE(its.ok());
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "robots.txt"));
  EXPECT_EQ(server.count("/indexnow"), 2u);
}

// What announcing a run needs is judged before the run, so that a refusal
// publishes nothing (check_announce_options()), one case per line.
TEST(AnnounceOptions, AreJudgedBeforeTheRunWithTheirField) {
  const std::vector<std::string> two_hosts = {"https://www.shop.de/",
                                              "https://www.shop.fr/"};
  const std::vector<std::string> one_host = {"https://www.shop.de/",
                                             "https://www.shop.de/blog/"};
  const std::vector<std::string> two_ports = {"https://www.shop.de/",
                                              "https://www.shop.de:8443/"};
  const std::vector<std::string> not_a_url = {"https://www.shop.de/", "x"};
  struct row {
    const char* robots_path;
    const char* key;
    bool has_changes;
    const std::vector<std::string>& bases;
    const char* field;  // "" when accepted
    const char* says;
  } rows[] = {
      {"robots.txt", "", false, two_hosts, "robots_path",
       "`robots_path`: the `base_url` hosts differ"},
      {"robots.txt", "", false, two_ports, "robots_path", "put {host}"},
      {"public/{host}/robots.txt", "", false, two_hosts, "", ""},
      {"robots.txt", "", false, one_host, "", ""},
      // A base that is no URL is generate()'s to refuse.
      {"robots.txt", "", false, not_a_url, "", ""},
      {"", "not a key", true, one_host, "key", "`key` must be 8 to 128"},
      {"", kKey, false, one_host, "key", "`key` needs `state_path`"},
      {"", kKey, true, two_hosts, "", ""},
      {"", "", false, two_hosts, "", ""},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(std::string(r.robots_path) + " " + r.key);
    announce_options a;
    a.robots_path = r.robots_path;
    a.indexnow.key = r.key;
    const status s = check_announce_options(a, r.bases, r.has_changes);
    if (*r.field == '\0') {
      EXPECT_TRUE(s) << s.message();
      continue;
    }
    ASSERT_FALSE(s);
    EXPECT_EQ(s.err().field, r.field);
    EXPECT_THAT(s.err().message, HasSubstr(r.says));
  }
}

TEST(AnnounceUrls, IndexNowHearsOfAddedThenChangedButNotRemoved) {
  EXPECT_THAT(indexnow_urls({{"a", "b"}, {"c"}, {"d"}}),
              ElementsAre("a", "b", "c"));
}

}  // namespace
}  // namespace sitemill
