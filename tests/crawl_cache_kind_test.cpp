// The crawl cache's kinds (crawl/crawl_cache.h): what changes what a crawl
// makes of a page besides its URL (rendering, the user agent, the
// credentials, by a digest) tells one crawl's rows from another's; the
// credentials themselves are never in it. A version 1 file (no kinds) is
// opened, its rows of no kind: each page is fetched in full once.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

#include "crawl/crawl_cache.h"
#include "support/run.h"

namespace sitemill::detail {
namespace {

crawl_options with_cookie(std::string value, std::int64_t expires = 0) {
  crawl_options o;
  http_cookie c;
  c.name = "session";
  c.value = std::move(value);
  c.expires = expires;
  o.credentials.cookies.push_back(c);
  return o;
}

TEST(CrawlCacheKind, TellsRenderingUserAgentAndCredentialsApart) {
  const crawl_kind plain = crawl_kind::of(crawl_options{});
  EXPECT_FALSE(plain.render);
  EXPECT_EQ(plain.user_agent, default_user_agent());
  EXPECT_EQ(plain.credentials, "");

  crawl_options rendered;
  rendered.render = true;
  EXPECT_EQ(crawl_kind::of(rendered).changes_since(plain),
            "rendering was off, is on");
  EXPECT_EQ(plain.changes_since(crawl_kind::of(rendered)),
            "rendering was on, is off");

  const crawl_kind alice = crawl_kind::of(with_cookie("alice-secret-1"));
  EXPECT_EQ(alice.credentials.size(), 64u);  // SHA-256, hex
  EXPECT_EQ(alice.text().find("alice-secret-1"), std::string::npos);
  EXPECT_EQ(alice.changes_since(plain), "no credentials were sent, some are");
  EXPECT_EQ(plain.changes_since(alice), "credentials were sent, none are");
  EXPECT_EQ(crawl_kind::of(with_cookie("bob-secret-2")).changes_since(alice),
            "other credentials were sent");
  // A cookie's expiry is not what the site answers by.
  EXPECT_EQ(crawl_kind::of(with_cookie("alice-secret-1", 1'900'000'000)),
            alice);

  crawl_options agent;
  agent.user_agent = "OtherBot/2.0\nwith: a line";
  const crawl_kind other = crawl_kind::of(agent);
  EXPECT_EQ(other.changes_since(plain),
            "the user agent was `" + default_user_agent() + "`");
  // Stored and read back, whatever the user agent holds.
  for (const crawl_kind& k : {plain, alice, other, crawl_kind::of(rendered)})
    EXPECT_EQ(crawl_kind::from_text(k.text()), k) << k.text();
  EXPECT_EQ(crawl_kind::from_text(""), crawl_kind{});
  EXPECT_EQ(crawl_kind::from_text("damaged"), crawl_kind{});
}

TEST(CrawlCacheKind, APageOfAnotherKindIsNotKnown) {
  testing::temp_dir t;
  auto cache = crawl_cache::open(t / "state-crawl");
  ASSERT_TRUE(cache) << cache.err().message;
  const crawl_kind plain = crawl_kind::of(crawl_options{});
  crawl_options r;
  r.render = true;
  const crawl_kind rendered = crawl_kind::of(r);
  bool resuming = true;
  std::string changed = "x";
  ASSERT_TRUE((*cache)->begin("https://e.example/", plain, resuming, changed));
  EXPECT_FALSE(resuming);
  EXPECT_EQ(changed, "");
  cached_page p;
  p.etag = "\"v1\"";
  p.outcome.found.push_back({"https://e.example/a", false});
  ASSERT_TRUE((*cache)->put("https://e.example/", p));
  // Interrupted (not finished): a crawl of another kind does not resume it.
  ASSERT_TRUE((*cache)->flush());
  ASSERT_TRUE(
      (*cache)->begin("https://e.example/", rendered, resuming, changed));
  EXPECT_FALSE(resuming);
  EXPECT_EQ(changed, "rendering was off, is on");
  auto found = (*cache)->find("https://e.example/");
  ASSERT_TRUE(found);
  EXPECT_FALSE(*found);
  // The plain kind again (the rendered crawl wrote no row of the page):
  // its page is known, to be asked conditionally.
  ASSERT_TRUE((*cache)->begin("https://e.example/", plain, resuming, changed));
  EXPECT_EQ(changed, "rendering was on, is off");
  found = (*cache)->find("https://e.example/");
  ASSERT_TRUE(found);
  ASSERT_TRUE(*found);
  EXPECT_EQ((*found)->etag, "\"v1\"");
}

TEST(CrawlCacheKind, AVersionOneFileIsOpenedAndItsPagesAreOfNoKind) {
  testing::temp_dir t;
  const std::string path = t / "state-crawl";
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(
        sqlite3_exec(
            db,
            "CREATE TABLE crawls(start TEXT PRIMARY KEY, id INTEGER, "
            "finished INTEGER);"
            "CREATE TABLE pages(url TEXT PRIMARY KEY, crawl INTEGER, "
            "etag TEXT, last_modified TEXT, verdict TEXT, lastmod TEXT, "
            "hash BLOB, found TEXT, extensions TEXT);"
            "PRAGMA application_id=1397572434; PRAGMA user_version=1;"
            "INSERT INTO crawls VALUES('https://e.example/', 1, 0);"
            "INSERT INTO pages(url, crawl, etag, verdict) "
            "VALUES('https://e.example/', 1, '\"old\"', '');",
            nullptr, nullptr, nullptr),
        SQLITE_OK);
    sqlite3_close(db);
  }
  auto cache = crawl_cache::open(path);
  ASSERT_TRUE(cache) << cache.err().message;
  bool resuming = true;
  std::string changed = "x";
  const crawl_kind plain = crawl_kind::of(crawl_options{});
  ASSERT_TRUE((*cache)->begin("https://e.example/", plain, resuming, changed));
  EXPECT_FALSE(resuming);  // its unfinished crawl was of no kind
  EXPECT_EQ(changed, "");  // nothing to tell of a file without kinds
  auto found = (*cache)->find("https://e.example/");
  ASSERT_TRUE(found);
  EXPECT_FALSE(*found);
  cached_page p;
  p.etag = "\"new\"";
  ASSERT_TRUE((*cache)->put("https://e.example/", p));
  ASSERT_TRUE((*cache)->finish("https://e.example/"));
  found = (*cache)->find("https://e.example/");
  ASSERT_TRUE(found && *found);
  EXPECT_EQ((*found)->etag, "\"new\"");
}

}  // namespace
}  // namespace sitemill::detail
