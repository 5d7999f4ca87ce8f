// The publisher's promise: at every instant the directory holds the complete
// old set or the complete new one, whatever kills the run, and a later run
// repairs what a killed one left. Crashes are real: a forked child publishes
// and _exit()s at each step; the parent inspects and recovers.
#include "sitemill/publish/publish.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "publish/testing.h"
#include "support/run.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill {
namespace {

namespace fs = std::filesystem;

using testing::temp_dir;  // tests/support: a /tmp directory removed at the end

// A set directory of its own, "out" in a temporary directory, so that its
// bookkeeping (beside it, in .sitemill/out) goes with the test too.
struct out_dir {
  temp_dir t;
  std::string path() const { return t.path() + "/out"; }
  std::string book() const { return t.path() + "/.sitemill/out"; }
  std::string in_book(std::string_view name) const {
    return book() + "/" + std::string(name);
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Every regular file in the directory, by name, with its bytes.
std::map<std::string, std::string> snapshot(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) files[e.path().filename()] = slurp(e.path());
  return files;
}

// A toy set: the entry names its children, one per line, so the test can
// check that every file the entry points to is there.
struct toy_set {
  std::string entry = "sitemap.xml";
  std::map<std::string, std::string> children;  // name -> bytes

  std::string entry_bytes() const {
    std::string s = "index\n";
    for (const auto& [name, _] : children) s += name + "\n";
    return s;
  }
};

std::vector<staged_file> stage(publisher& p, const toy_set& set) {
  std::vector<staged_file> out;
  auto add = [&](const std::string& name, const std::string& bytes,
                 document_type type) {
    std::string tmp = p.temp_path(name);
    std::ofstream(tmp, std::ios::binary) << bytes;
    out.push_back({tmp,
                   {name, type, 1, bytes.size(),
                    XXH3_64bits(bytes.data(), bytes.size())}});
  };
  for (const auto& [name, bytes] : set.children)
    add(name, bytes, document_type::urlset);
  add(set.entry, set.entry_bytes(), document_type::sitemapindex);
  return out;
}

// The files the live entry reaches, or nullopt when one of them is missing
// or differs: that would be a torn set.
std::optional<toy_set> live_set(const std::string& dir,
                                const std::vector<toy_set>& candidates) {
  auto files = snapshot(dir);
  for (const auto& c : candidates) {
    auto it = files.find(c.entry);
    if (it == files.end() || it->second != c.entry_bytes()) continue;
    bool whole = true;
    for (const auto& [name, bytes] : c.children)
      whole = whole && files.count(name) && files[name] == bytes;
    if (whole) return c;
  }
  return std::nullopt;
}

toy_set old_set() {
  toy_set s;
  s.children = {{"sitemap-1-aaa.xml", "old one"},
                {"sitemap-2-bbb.xml", "old two"}};
  return s;
}

toy_set new_set() {
  toy_set s;
  // Child 1 unchanged, child 2 changed (new name), child 3 added.
  s.children = {{"sitemap-1-aaa.xml", "old one"},
                {"sitemap-2-ccc.xml", "new two"},
                {"sitemap-3-ddd.xml", "new three"}};
  return s;
}

void publish_set(const std::string& dir, const toy_set& set) {
  auto p = publisher::open(dir);
  ASSERT_TRUE(p) << p.err().message;
  ASSERT_TRUE((*p)->publish(stage(**p, set), set.entry));
}

// The set directory holds the set and nothing else; its bookkeeping holds
// the manifest and nothing else (no lock, journal or temporary).
void expect_only_the_set(const out_dir& d, const toy_set& set) {
  for (const auto& [name, _] : snapshot(d.path()))
    EXPECT_TRUE(name == set.entry || set.children.count(name))
        << name << " is not the set's";
  std::vector<std::string> book;
  for (const auto& [name, _] : snapshot(d.book())) book.push_back(name);
  EXPECT_EQ(book, std::vector<std::string>{manifest_file_name("sitemap")});
}

TEST(Publisher, PublishesASetAndRecordsItInTheManifest) {
  out_dir d;
  publish_set(d.path(), old_set());
  ASSERT_TRUE(live_set(d.path(), {old_set()}));
  expect_only_the_set(d, old_set());
  auto p = publisher::open(d.path());
  ASSERT_TRUE(p);
  EXPECT_EQ((*p)->current_entry(), "sitemap.xml");
  EXPECT_EQ((*p)->current().size(), 3u);
}

TEST(Publisher, ReplacesTheOldSetAndRemovesOnlyFilesItWrote) {
  out_dir d;
  publish_set(d.path(), old_set());
  std::ofstream(d.path() + "/index.html") << "<html>mine</html>";
  std::ofstream(d.path() + "/sitemap-9-zzz.xml") << "not in any manifest";
  publish_set(d.path(), new_set());
  ASSERT_TRUE(live_set(d.path(), {new_set()}));
  auto files = snapshot(d.path());
  EXPECT_FALSE(files.count("sitemap-2-bbb.xml"))
      << "old child no longer referenced";
  EXPECT_EQ(files["index.html"], "<html>mine</html>");
  EXPECT_EQ(files["sitemap-9-zzz.xml"], "not in any manifest");
  EXPECT_FALSE(fs::exists(d.in_book(journal_file_name("sitemap"))));
}

TEST(Publisher, LeavesUnchangedFilesUntouched) {
  out_dir d;
  publish_set(d.path(), old_set());
  struct stat before;
  ASSERT_EQ(::stat((d.path() + "/sitemap-1-aaa.xml").c_str(), &before), 0);
  struct stat entry_before;
  ASSERT_EQ(::stat((d.path() + "/sitemap.xml").c_str(), &entry_before), 0);
  publish_set(d.path(), old_set());
  struct stat after, entry_after;
  ASSERT_EQ(::stat((d.path() + "/sitemap-1-aaa.xml").c_str(), &after), 0);
  ASSERT_EQ(::stat((d.path() + "/sitemap.xml").c_str(), &entry_after), 0);
  EXPECT_EQ(before.st_ino, after.st_ino);
  EXPECT_EQ(entry_before.st_ino, entry_after.st_ino)
      << "an identical entry is not replaced";
}

TEST(Publisher, RefusesASecondRunWhileTheLockIsHeld) {
  out_dir d;
  auto first = publisher::open(d.path());
  ASSERT_TRUE(first);
  // flock locks belong to open file descriptions, so a second open in this
  // process contends exactly like a second process would.
  auto second = publisher::open(d.path());
  ASSERT_FALSE(second);
  EXPECT_NE(second.err().message.find("another sitemill run"),
            std::string::npos);
  first->reset();
  EXPECT_TRUE(publisher::open(d.path()));
}

// Issue 14, defect 4: a leftover goes only when the lock file records the
// run that made it; a user's file that merely looks like one stays.
TEST(Publisher, RemovesAKilledRunsTemporariesButNotAUsersLookalikes) {
  out_dir d;
  publish_set(d.path(), old_set());
  const std::map<std::string, std::string> user = {
      {std::string(temp_file_prefix) + "something", "mine"},
      {std::string(temp_file_prefix) + "123-0-part-0", "mine too"},
      {temp_file_name("0123456789abcdef", "part"), "and mine"}};
  for (const auto& [name, bytes] : user)
    std::ofstream(d.path() + "/" + name) << bytes;

  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {  // a run killed while writing its sitemaps
    auto p = publisher::open(d.path());
    if (!p) ::_exit(3);
    (void)stage(**p, new_set());
    ::_exit(0);
  }
  int wstatus = 0;
  ASSERT_EQ(::waitpid(pid, &wstatus, 0), pid);
  ASSERT_TRUE(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
  std::size_t left = 0;
  for (const auto& [name, _] : snapshot(d.path()))
    left += name.starts_with(temp_file_prefix) && !user.count(name);
  ASSERT_EQ(left, new_set().children.size() + 1) << "the kill left its files";

  auto p = publisher::open(d.path());
  ASSERT_TRUE(p) << p.err().message;
  const auto files = snapshot(d.path());
  for (const auto& [name, bytes] : files)
    if (name.starts_with(temp_file_prefix)) {
      ASSERT_TRUE(user.count(name)) << name << " of the killed run is left";
    }
  for (const auto& [name, bytes] : user) {
    ASSERT_TRUE(files.count(name)) << "a user's file was removed: " << name;
    EXPECT_EQ(files.at(name), bytes);
  }
}

TEST(Publisher, RecognisesOnlyTheNamesItMakesAsTemporaries) {
  const std::string token = new_run_token();
  EXPECT_EQ(token.size(), 16u);
  EXPECT_EQ(temp_file_token(temp_file_name(token, "0-part-1")), token);
  for (std::string_view name :
       {".sitemill-tmp-something", ".sitemill-tmp-123-0-part-0",
        ".sitemill-tmp-0123456789ABCDEF-x", ".sitemill-tmp-0123456789abcdef",
        "sitemill-tmp-0123456789abcdef-x", ".sitemill-tmp-0123456789abcde-x"})
    EXPECT_EQ(temp_file_token(name), "") << name;
}

// Issue 14, defect 4: a run that fails before it publishes anything leaves
// no directory it created, no lock file and no temporary.
TEST(Publisher, ARunThatPublishesNothingLeavesNoTrace) {
  temp_dir d;
  const std::string dir = d.path() + "/made/by/the/run";
  {
    auto p = publisher::open(dir);
    ASSERT_TRUE(p) << p.err().message;
    std::ofstream((*p)->temp_path("part-1")) << "half";
    EXPECT_EQ((*p)->bookkeeping_dir(), d.path() + "/made/by/the/.sitemill/run");
    EXPECT_TRUE(fs::exists((*p)->bookkeeping_dir() + "/" +
                           std::string(lock_file_name)));
  }
  EXPECT_FALSE(fs::exists(d.path() + "/made")) << "the run's directories stay";

  fs::create_directory(d.path() + "/mine");
  {
    auto p = publisher::open(d.path() + "/mine");
    ASSERT_TRUE(p) << p.err().message;
    std::ofstream((*p)->temp_path("part-1")) << "half";
  }
  EXPECT_TRUE(fs::is_directory(d.path() + "/mine")) << "the user's directory";
  EXPECT_TRUE(fs::is_empty(d.path() + "/mine"));
  EXPECT_FALSE(fs::exists(d.path() + "/.sitemill")) << "the bookkeeping stays";
}

TEST(Publisher, DiscardsItsTemporariesWhenARunFailsBeforePublishing) {
  out_dir d;
  publish_set(d.path(), old_set());
  const auto before = snapshot(d.path());
  {
    auto p = publisher::open(d.path());
    ASSERT_TRUE(p);
    (void)stage(**p, new_set());
  }  // destroyed without publishing, like a failed run
  EXPECT_EQ(snapshot(d.path()), before);
}

TEST(Publisher, IgnoresManifestNamesThatEscapeTheDirectory) {
  temp_dir outer;
  std::string dir = outer.path() + "/out";
  fs::create_directory(dir);
  std::ofstream(outer.path() + "/victim") << "precious";
  fs::create_directories(outer.path() + "/.sitemill/out");
  std::ofstream(outer.path() + "/.sitemill/out/" +
                manifest_file_name("sitemap"))
      << R"({"sitemill_manifest":1,"entry":"x","files":[{"path":"../victim"}]})";
  auto p = publisher::open(dir);
  ASSERT_FALSE(p) << "a manifest naming ../victim is refused, not acted on";
  EXPECT_EQ(slurp(outer.path() + "/victim"), "precious");
}

// A crash after each step: before the entry rename the old set is live, after
// it the new one; never a mix. Recovery then leaves exactly one set.
class CrashDuringPublish : public ::testing::TestWithParam<publish_step> {};

TEST_P(CrashDuringPublish, LeavesACompleteSetAndRecoveryCleansUp) {
  out_dir d;
  publish_set(d.path(), old_set());
  const publish_step crash_at = GetParam();

  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    auto p = publisher::open(d.path());
    if (!p) ::_exit(3);
    detail::publisher_testing::set_after_step(**p, [&](publish_step s) {
      if (s == crash_at) ::_exit(0);
    });
    (void)(*p)->publish(stage(**p, new_set()), "sitemap.xml");
    ::_exit(4);
  }
  int wstatus = 0;
  ASSERT_EQ(::waitpid(pid, &wstatus, 0), pid);
  ASSERT_TRUE(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0)
      << "child did not reach the step";

  auto live = live_set(d.path(), {old_set(), new_set()});
  ASSERT_TRUE(live) << "the entry reaches a torn set after a crash at step "
                    << static_cast<int>(crash_at);
  const bool committed = crash_at >= publish_step::entry_renamed;
  EXPECT_EQ(live->children,
            committed ? new_set().children : old_set().children);

  auto p = publisher::open(d.path());  // the next run recovers
  ASSERT_TRUE(p) << p.err().message;
  EXPECT_EQ((*p)->current().size(),
            (committed ? new_set() : old_set()).children.size() + 1);
  const toy_set& expected = committed ? new_set() : old_set();
  // new_set() returns a fresh value each call; compare contents.
  EXPECT_TRUE(live_set(d.path(), {expected}));
  {
    SCOPED_TRACE("leftovers after recovery");
    p->reset();  // the lock goes with the run
    expect_only_the_set(d, committed ? new_set() : old_set());
  }
}

INSTANTIATE_TEST_SUITE_P(EveryStep, CrashDuringPublish,
                         ::testing::Values(publish_step::journal_written,
                                           publish_step::child_renamed,
                                           publish_step::children_renamed,
                                           publish_step::entry_renamed,
                                           publish_step::manifest_written,
                                           publish_step::old_removed));

// Issue 14, defect 5: a publish that fails after some new children took
// their final names, before the commit, removes them again at once (and the
// journal): the directory is the old set alone, not old plus new.
TEST(Publisher, AFailureBeforeTheCommitTakesBackTheRenamedChildren) {
  out_dir d;
  publish_set(d.path(), old_set());
  const auto before = snapshot(d.path());
  auto p = publisher::open(d.path());
  ASSERT_TRUE(p);
  std::vector<staged_file> files = stage(**p, new_set());
  int renamed = 0;
  detail::publisher_testing::set_after_step(**p, [&](publish_step s) {
    // After the first rename the next child's file vanishes, so that its
    // rename fails inside the window.
    if (s == publish_step::child_renamed && ++renamed == 1)
      for (const auto& f : files)
        if (f.file.path == "sitemap-3-ddd.xml") ::unlink(f.temp_path.c_str());
  });
  status s = (*p)->publish(files, "sitemap.xml");
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("sitemap-3-ddd.xml"), std::string::npos)
      << s.message();
  ASSERT_EQ(renamed, 1);
  auto now = snapshot(d.path());
  for (auto& [name, _] : std::map<std::string, std::string>(now))
    if (name.starts_with(temp_file_prefix)) now.erase(name);  // discarded later
  EXPECT_EQ(now, before) << "new children stayed";
  EXPECT_FALSE(fs::exists(d.in_book(journal_file_name("sitemap"))))
      << "the journal stayed";
}

// The HTML view's front page (generate --html) keeps one name while its
// bytes change: it is renamed just after the commit, and a run killed
// between the two renames has it renamed by the next run.
std::vector<staged_file> stage_with_page(publisher& p, const toy_set& set,
                                         const std::string& page) {
  std::vector<staged_file> files = stage(p, set);
  std::string tmp = p.temp_path("view");
  std::ofstream(tmp, std::ios::binary) << page;
  staged_file f{tmp,
                {"sitemap.html", document_type::html, 0, page.size(),
                 XXH3_64bits(page.data(), page.size())}};
  f.fixed_name = true;
  files.push_back(std::move(f));
  return files;
}

TEST(Publisher, AFixedNamePageChangesUnderItsNameWithTheSet) {
  out_dir d;
  for (const auto& [set, page] :
       {std::pair{old_set(), "old view"}, std::pair{new_set(), "new view"}}) {
    auto p = publisher::open(d.path());
    ASSERT_TRUE(p) << p.err().message;
    status s = (*p)->publish(stage_with_page(**p, set, page), "sitemap.xml");
    ASSERT_TRUE(s) << s.message();
    EXPECT_EQ(slurp(d.path() + "/sitemap.html"), page);
  }
  ASSERT_TRUE(live_set(d.path(), {new_set()}));
}

class CrashAroundAFixedNamePage
    : public ::testing::TestWithParam<publish_step> {};

TEST_P(CrashAroundAFixedNamePage, TheNextRunLeavesThePageOfTheLiveSet) {
  out_dir d;
  {
    auto p = publisher::open(d.path());
    ASSERT_TRUE(p);
    ASSERT_TRUE((*p)->publish(stage_with_page(**p, old_set(), "old view"),
                              "sitemap.xml"));
  }
  const publish_step crash_at = GetParam();
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    auto p = publisher::open(d.path());
    if (!p) ::_exit(3);
    detail::publisher_testing::set_after_step(**p, [&](publish_step s) {
      if (s == crash_at) ::_exit(0);
    });
    (void)(*p)->publish(stage_with_page(**p, new_set(), "new view"),
                        "sitemap.xml");
    ::_exit(4);
  }
  int wstatus = 0;
  ASSERT_EQ(::waitpid(pid, &wstatus, 0), pid);
  ASSERT_TRUE(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
  // Until the commit the old page stays; at it the page still is the old one
  // (renamed just after), pointing at files that recovery keeps until then.
  EXPECT_EQ(slurp(d.path() + "/sitemap.html"), "old view");

  auto p = publisher::open(d.path());  // the next run recovers
  ASSERT_TRUE(p) << p.err().message;
  const bool committed = crash_at >= publish_step::entry_renamed;
  EXPECT_EQ(slurp(d.path() + "/sitemap.html"),
            committed ? "new view" : "old view");
  for (const auto& [name, _] : snapshot(d.path()))
    EXPECT_FALSE(name.starts_with(temp_file_prefix)) << name << " left over";
  EXPECT_FALSE(fs::exists(d.in_book(journal_file_name("sitemap"))));
}

INSTANTIATE_TEST_SUITE_P(BeforeAndAfterTheCommit, CrashAroundAFixedNamePage,
                         ::testing::Values(publish_step::journal_written,
                                           publish_step::children_renamed,
                                           publish_step::entry_renamed));

}  // namespace
}  // namespace sitemill
