// Where a set's bookkeeping lives (publish/bookkeeping.h): beside the set
// directory, never in it, and how a set an earlier build published (its
// lock, manifest and journal in the directory itself) is still recognised,
// finished and cleaned up.
#include "sitemill/publish/bookkeeping.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "sitemill/publish/publish.h"
#include "support/run.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill {
namespace {

namespace fs = std::filesystem;
using testing::list_all;
using testing::read_raw;
using testing::temp_dir;
using testing::write_file;

TEST(Bookkeeping, LivesBesideTheSetDirectory) {
  auto beside = [](std::string_view dir) {
    auto b = default_bookkeeping_dir(dir);
    return b ? *b : "error: " + b.err().message;
  };
  EXPECT_EQ(beside("public"), ".sitemill/public");
  EXPECT_EQ(beside("public/"), ".sitemill/public");
  EXPECT_EQ(beside("./site/_site"), "site/.sitemill/_site");
  EXPECT_EQ(beside("a/b/../out"), "a/.sitemill/out");
  EXPECT_EQ(beside("../www/html"), "../www/.sitemill/html");
  EXPECT_EQ(beside("/var/www/html/"), "/var/www/.sitemill/html");
  EXPECT_EQ(beside("/srv"), "/.sitemill/srv");
  // "." has no name of its own: the working directory's is used.
  const fs::path cwd = fs::current_path();
  EXPECT_EQ(
      beside("."),
      (cwd.parent_path() / ".sitemill" / cwd.filename()).generic_string());
  EXPECT_EQ(beside(""), beside("."));
  auto root = default_bookkeeping_dir("/");
  ASSERT_FALSE(root);
  EXPECT_NE(root.err().message.find("`manifest_dir`"), std::string::npos);
}

TEST(Bookkeeping, KnowsTheSetDirectoryOfAManifestByEitherLayout) {
  EXPECT_EQ(set_dir_of_manifest(".sitemill/public/manifest-sitemap.json"),
            "public");
  EXPECT_EQ(set_dir_of_manifest("/w/.sitemill/out/manifest-blog.json"),
            "/w/out");
  EXPECT_EQ(set_dir_of_manifest("public/.sitemill-manifest-sitemap.json"),
            "public");
  EXPECT_EQ(set_dir_of_manifest(".sitemill-manifest-sitemap.json"), ".");
  // A set of a run with several base URLs: below out's bookkeeping.
  EXPECT_EQ(set_dir_of_manifest(".sitemill/out/example.com/de/manifest-x.json"),
            "out/example.com/de");
  EXPECT_EQ(set_dir_of_manifest(".sitemill/manifest-x.json"), std::nullopt);
  // A manifest-*.json that is not in a bookkeeping directory is a user's.
  EXPECT_EQ(set_dir_of_manifest("public/manifest-sitemap.json"), std::nullopt);
  EXPECT_EQ(set_dir_of_manifest("manifest-.json"), std::nullopt);
  EXPECT_EQ(set_dir_of_manifest("public/sitemap.xml"), std::nullopt);
}

TEST(Bookkeeping, FindsTheSetsOfADirectoryInBothLayouts) {
  temp_dir t;
  fs::create_directories(t / ".sitemill/out");
  fs::create_directories(t / "out");
  write_file(t / ".sitemill/out/manifest-sitemap.json", "{}");
  write_file(t / ".sitemill/out/journal-sitemap.json", "{}");
  write_file(t / "out/.sitemill-manifest-sitemap.json", "{}");  // stale copy
  write_file(t / "out/.sitemill-manifest-blog.json", "{}");
  write_file(t / "out/manifest-mine.json", "{}");  // a user's file
  const auto found = find_set_manifests(t / "out");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].set, "blog");
  EXPECT_EQ(found[0].path, t / "out/.sitemill-manifest-blog.json");
  EXPECT_EQ(found[1].set, "sitemap");
  EXPECT_EQ(found[1].path, t / ".sitemill/out/manifest-sitemap.json");
  EXPECT_EQ(find_set_manifests(t / "out", {}, /*legacy=*/false).size(), 1u);
  // Elsewhere when told so.
  fs::create_directories(t / "state");
  write_file(t / "state/manifest-shop.json", "{}");
  const auto there = find_set_manifests(t / "out", t / "state", false);
  ASSERT_EQ(there.size(), 1u);
  EXPECT_EQ(there[0].set, "shop");
}

// generate keeps the bookkeeping of a run with several base URLs below
// --out's: each set's directory finds it there.
TEST(Bookkeeping, IsFoundBelowAnAncestorsForTheSetsOfSeveralHosts) {
  temp_dir t;
  fs::create_directories(t / "out/example.com/de");
  fs::create_directories(t / ".sitemill/out/example.com/de");
  EXPECT_EQ(bookkeeping_dir_of(t / "out/example.com/de"),
            t / ".sitemill/out/example.com/de");
  // The nearest wins: one beside the directory itself.
  fs::create_directories(t / "out/example.com/.sitemill/de");
  EXPECT_EQ(bookkeeping_dir_of(t / "out/example.com/de"),
            t / "out/example.com/.sitemill/de");
  // None anywhere: the default, beside it.
  fs::create_directories(t / "elsewhere/site");
  EXPECT_EQ(bookkeeping_dir_of(t / "elsewhere/site"),
            t / "elsewhere/.sitemill/site");
}

// A set directory and its bookkeeping in a temporary directory.
struct out_dir {
  temp_dir t;
  std::string path() const { return t / "out"; }
  std::string book() const { return t / ".sitemill/out"; }
};

staged_file staged(publisher& p, const std::string& name,
                   const std::string& bytes, document_type type) {
  std::string tmp = p.temp_path(name);
  std::ofstream(tmp, std::ios::binary) << bytes;
  return {
      tmp,
      {name, type, 1, bytes.size(), XXH3_64bits(bytes.data(), bytes.size())}};
}

std::string digest_of(const std::string& bytes) {
  char hex[17];
  std::snprintf(
      hex, sizeof hex, "%016llx",
      static_cast<unsigned long long>(XXH3_64bits(bytes.data(), bytes.size())));
  return hex;
}

// What an earlier build left: a set, its manifest and lock in the directory,
// the lock recording a run that was killed, and that run's temporary.
void write_earlier_builds_set(const out_dir& d) {
  fs::create_directories(d.path());
  write_file(d.path() + "/sitemap.xml", "index of 1");
  write_file(d.path() + "/sitemap-1-aaa.xml", "one");
  write_file(d.path() + "/" + legacy_bookkeeping::manifest_file_name("sitemap"),
             R"({"sitemill_manifest":1,"entry":"sitemap.xml","files":[)"
             R"({"path":"sitemap.xml","type":"sitemapindex","digest":")" +
                 digest_of("index of 1") +
                 R"("},{"path":"sitemap-1-aaa.xml","digest":")" +
                 digest_of("one") + R"("}]})");
  write_file(d.path() + "/" + std::string(legacy_bookkeeping::lock_file_name),
             "00000000000000aa\n");
  write_file(d.path() + "/" + temp_file_name("00000000000000aa", "0-part"),
             "half");
}

TEST(Bookkeeping, ASetAnEarlierBuildPublishedIsTakenOverAndReplaced) {
  out_dir d;
  write_earlier_builds_set(d);
  {
    auto p = publisher::open(d.path());
    ASSERT_TRUE(p) << p.err().message;
    // Recognised: its files are the current set, so they can be replaced.
    EXPECT_EQ((*p)->current_entry(), "sitemap.xml");
    ASSERT_EQ((*p)->current().size(), 2u);
    // The earlier build's bookkeeping left the directory: the killed run's
    // temporary, the lock and the manifest (now beside it).
    EXPECT_EQ(list_all(d.path()),
              (std::vector<std::string>{"sitemap-1-aaa.xml", "sitemap.xml"}));
    EXPECT_TRUE(fs::exists(d.book() + "/manifest-sitemap.json"));
    std::vector<staged_file> files = {
        staged(**p, "sitemap-1-bbb.xml", "two", document_type::urlset),
        staged(**p, "sitemap.xml", "index of 2", document_type::sitemapindex)};
    ASSERT_TRUE((*p)->publish(std::move(files), "sitemap.xml"));
  }
  // The old child it proved sitemill's is gone; the new set is whole.
  EXPECT_EQ(list_all(d.path()),
            (std::vector<std::string>{"sitemap-1-bbb.xml", "sitemap.xml"}));
  EXPECT_EQ(read_raw(d.path() + "/sitemap.xml"), "index of 2");
  EXPECT_EQ(list_all(d.book()),
            std::vector<std::string>{"manifest-sitemap.json"});
}

TEST(Bookkeeping, APublishAnEarlierBuildWasKilledInIsFinished) {
  out_dir d;
  write_earlier_builds_set(d);
  // Killed after its commit: the new entry and child in place, the journal
  // saying which old files go.
  write_file(d.path() + "/sitemap-1-ccc.xml", "three");
  write_file(d.path() + "/sitemap.xml", "index of 3");
  write_file(d.path() + "/" + legacy_bookkeeping::journal_file_name("sitemap"),
             R"({"sitemill_journal":1,"entry":"sitemap.xml","entry_digest":")" +
                 digest_of("index of 3") +
                 R"(","new":[{"path":"sitemap.xml","type":"sitemapindex"},)"
                 R"({"path":"sitemap-1-ccc.xml"}],)"
                 R"("old":["sitemap.xml","sitemap-1-aaa.xml"],"late":[]})");
  auto p = publisher::open(d.path());
  ASSERT_TRUE(p) << p.err().message;
  EXPECT_EQ(list_all(d.path()),
            (std::vector<std::string>{"sitemap-1-ccc.xml", "sitemap.xml"}));
  ASSERT_EQ((*p)->current().size(), 2u);
  EXPECT_EQ((*p)->current()[1].path, "sitemap-1-ccc.xml");
  p->reset();
  EXPECT_EQ(list_all(d.book()),
            std::vector<std::string>{"manifest-sitemap.json"});
}

TEST(Bookkeeping, AnEarlierBuildsRunInProgressIsWaitedFor) {
  out_dir d;
  write_earlier_builds_set(d);
  const std::string lock =
      d.path() + "/" + std::string(legacy_bookkeeping::lock_file_name);
  const int fd = ::open(lock.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  auto p = publisher::open(d.path());
  ASSERT_FALSE(p);
  EXPECT_NE(p.err().message.find("an earlier sitemill build is publishing"),
            std::string::npos)
      << p.err().message;
  // Nothing of its was touched, and this run's lock went with it.
  EXPECT_TRUE(fs::exists(d.path() + "/" +
                         legacy_bookkeeping::manifest_file_name("sitemap")));
  EXPECT_FALSE(fs::exists(d.book() + "/lock"));
  ::close(fd);
  EXPECT_TRUE(publisher::open(d.path()));
}

TEST(Bookkeeping, CanLiveWhereTheUserSaysButNotInTheSetDirectory) {
  temp_dir t;
  {
    auto p = publisher::open(t / "out", "sitemap", t / "state/www");
    ASSERT_TRUE(p) << p.err().message;
    EXPECT_EQ((*p)->bookkeeping_dir(), t / "state/www");
    std::vector<staged_file> files = {
        staged(**p, "sitemap.xml", "one", document_type::urlset)};
    ASSERT_TRUE((*p)->publish(std::move(files), "sitemap.xml"));
  }
  EXPECT_EQ(list_all(t / "state/www"),
            std::vector<std::string>{"manifest-sitemap.json"});
  EXPECT_FALSE(fs::exists(t / ".sitemill"));
  EXPECT_EQ(list_all(t / "out"), std::vector<std::string>{"sitemap.xml"});

  auto same = publisher::open(t / "out", "sitemap", t / "out/");
  ASSERT_FALSE(same);
  EXPECT_NE(same.err().message.find("cannot live in the directory"),
            std::string::npos)
      << same.err().message;
}

}  // namespace
}  // namespace sitemill
