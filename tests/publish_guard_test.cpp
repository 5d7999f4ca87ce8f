// What the publisher guards besides atomicity (issue 34, items 5 and 6): a
// file in the directory that no manifest shows sitemill wrote is never
// replaced, nor removed by a rollback or a recovery, whatever its name; and
// one directory has one lock and one bookkeeping however --out is spelled
// (a symbolic link to it included).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "publish/testing.h"
#include "sitemill/publish/publish.h"
#include "support/campaign.h"
#include "support/run.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill {
namespace {

namespace fs = std::filesystem;
using testing::temp_dir;

// `files` (name -> bytes) staged in `p`; the entry is the first name.
std::vector<staged_file> stage(
    publisher& p, const std::map<std::string, std::string>& files) {
  std::vector<staged_file> out;
  for (const auto& [name, bytes] : files) {
    const std::string tmp = p.temp_path(name);
    std::ofstream(tmp, std::ios::binary) << bytes;
    out.push_back({tmp,
                   {name, document_type::urlset, 1, bytes.size(),
                    XXH3_64bits(bytes.data(), bytes.size())}});
  }
  return out;
}

const std::map<std::string, std::string> old_set = {
    {"a-sitemap.xml", "index: child-1\n"}, {"child-1.xml", "one\n"}};
const std::map<std::string, std::string> new_set = {
    {"a-sitemap.xml", "index: child-1 child-2 child-3\n"},
    {"child-1.xml", "one\n"},
    {"child-2.xml", "two\n"},
    {"child-3.xml", "three\n"}};

status publish(const std::string& dir,
               const std::map<std::string, std::string>& files) {
  auto p = publisher::open(dir);
  if (!p) return p.err();
  return (*p)->publish(stage(**p, files), "a-sitemap.xml");
}

// Every regular file in `dir`, by name, with its bytes.
std::map<std::string, std::string> files_in(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file())
      files[e.path().filename()] = testing::read_file(e.path());
  return files;
}

TEST(PublishGuard, AUsersFileUnderANewChildsNameIsNeverReplaced) {
  struct user_file {
    const char* what;
    std::function<void(const std::string& path)> make;
  };
  const user_file cases[] = {
      {"other bytes",
       [](const std::string& p) { testing::write_file(p, "my notes\n"); }},
      {"empty", [](const std::string& p) { testing::write_file(p, ""); }},
      {"a symbolic link",
       [](const std::string& p) { fs::create_symlink("/etc/hostname", p); }},
      {"a directory", [](const std::string& p) { fs::create_directory(p); }},
  };
  for (const user_file& c : cases) {
    SCOPED_TRACE(c.what);
    temp_dir t;
    const std::string dir = t / "out";
    ASSERT_TRUE(publish(dir, old_set));
    c.make(dir + "/child-3.xml");
    const auto before = files_in(dir);
    const status s = publish(dir, new_set);
    ASSERT_FALSE(s) << "a user's file was replaced";
    EXPECT_NE(s.message().find("refusing to replace " + dir + "/child-3.xml"),
              std::string::npos)
        << s.message();
    EXPECT_NE(s.message().find("sitemill did not write it"), std::string::npos);
    EXPECT_EQ(files_in(dir), before) << "the old set or the user's file moved";
    EXPECT_TRUE(fs::exists(fs::symlink_status(dir + "/child-3.xml")));
    EXPECT_FALSE(fs::exists(t / ".sitemill/out/journal-sitemap.json"));
  }
  test::campaign_tally(test::campaign_kind::fault_case, std::size(cases));
}

// The very bytes about to be published under that name are taken as they
// are (a set whose manifest was lost); a publish killed in its window then
// leaves them, since it did not put them there.
TEST(PublishGuard, ARecoveryRemovesOnlyWhatTheKilledRunPlaced) {
  temp_dir t;
  const std::string dir = t / "out";
  ASSERT_TRUE(publish(dir, old_set));
  testing::write_file(dir + "/child-2.xml", new_set.at("child-2.xml"));
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {  // killed after its first child rename
    auto p = publisher::open(dir);
    if (!p) ::_exit(3);
    detail::publisher_testing::set_after_step(**p, [](publish_step s) {
      if (s == publish_step::child_renamed) ::_exit(0);
    });
    (void)(*p)->publish(stage(**p, new_set), "a-sitemap.xml");
    ::_exit(4);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  ASSERT_TRUE(fs::exists(dir + "/child-3.xml")) << "the run placed child-3";

  auto p = publisher::open(dir);  // recovers: the commit did not happen
  ASSERT_TRUE(p) << p.err().message;
  p->reset();
  const auto files = files_in(dir);
  EXPECT_FALSE(files.count("child-3.xml")) << "the killed run's child stays";
  ASSERT_TRUE(files.count("child-2.xml")) << "a file it did not place went";
  EXPECT_EQ(files.at("child-2.xml"), new_set.at("child-2.xml"));
  EXPECT_EQ(files.at("a-sitemap.xml"), old_set.at("a-sitemap.xml"));
  test::campaign_tally(test::campaign_kind::crash_point, 1);
}

// Issue 34, item 6: --out link (a symbolic link) and --out real are one
// directory, one lock, one manifest.
TEST(PublishGuard, ASymlinkedSpellingSharesTheLockAndTheBookkeeping) {
  temp_dir t;
  fs::create_directory(t / "real");
  fs::create_directory_symlink(t / "real", t / "link");
  auto real_book = default_bookkeeping_dir(t / "real");
  auto link_book = default_bookkeeping_dir(t / "link");
  ASSERT_TRUE(real_book && link_book);
  EXPECT_EQ(*link_book, *real_book);
  auto below = default_bookkeeping_dir(t / "link/sub");
  ASSERT_TRUE(below);
  EXPECT_EQ(*below, t.path() + "/real/.sitemill/sub");

  auto first = publisher::open(t / "real");
  ASSERT_TRUE(first) << first.err().message;
  auto second = publisher::open(t / "link");
  ASSERT_FALSE(second) << "two runs held one directory's lock";
  EXPECT_NE(second.err().message.find("another sitemill run is publishing"),
            std::string::npos)
      << second.err().message;
  first->reset();
  auto after = publisher::open(t / "link/");
  EXPECT_TRUE(after) << after.err().message;
  test::campaign_tally(test::campaign_kind::fault_case, 1);
}

}  // namespace
}  // namespace sitemill
