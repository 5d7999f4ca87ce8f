// robots.txt editing (docs/protocol.md 5, checklist item 46): the file lists
// exactly the wanted sitemaps, and every other byte stays as it was.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "sitemill/limits.h"
#include "sitemill/robots/robots.h"
#include "sitemill/robots/robots_edit.h"
#include "support/run.h"

namespace sitemill {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kMain = "https://www.example.com/sitemap.xml";
constexpr const char* kNews = "https://www.example.com/news.xml";

struct edit_case {
  const char* name;
  std::string input;
  std::vector<std::string> wanted;
  bool replace;
  std::string expected;
};

// One line per case: the input, what is wanted, and the whole file after.
const std::vector<edit_case>& edit_cases() {
  static const std::vector<edit_case> cases = {
      {"empty file gets the lines",
       "",
       {kMain, kNews},
       false,
       "Sitemap: https://www.example.com/sitemap.xml\n"
       "Sitemap: https://www.example.com/news.xml\n"},
      {"appended after a blank line that ends the group",
       "User-agent: *\nDisallow: /private\n",
       {kMain},
       false,
       "User-agent: *\nDisallow: /private\n\n"
       "Sitemap: https://www.example.com/sitemap.xml\n"},
      {"unterminated last line gets a line end first",
       "User-agent: *\nDisallow: /private",
       {kMain},
       false,
       "User-agent: *\nDisallow: /private\n\n"
       "Sitemap: https://www.example.com/sitemap.xml\n"},
      {"CRLF file stays CRLF",
       "User-agent: *\r\nDisallow: /a\r\n",
       {kMain},
       false,
       "User-agent: *\r\nDisallow: /a\r\n\r\n"
       "Sitemap: https://www.example.com/sitemap.xml\r\n"},
      {"CR-only file stays CR",
       "User-agent: *\rDisallow: /a\r",
       {kMain},
       false,
       "User-agent: *\rDisallow: /a\r\r"
       "Sitemap: https://www.example.com/sitemap.xml\r"},
      {"BOM and comments kept",
       "\xEF\xBB\xBF# robots for example.com\nUser-agent: *  # everyone\n"
       "Allow: /\n# end\n",
       {kMain},
       false,
       "\xEF\xBB\xBF# robots for example.com\nUser-agent: *  # everyone\n"
       "Allow: /\n# end\n"
       "Sitemap: https://www.example.com/sitemap.xml\n"},
      {"BOM before a Sitemap line still matches",
       "\xEF\xBB\xBFSitemap: https://www.example.com/sitemap.xml\n",
       {kMain},
       false,
       "\xEF\xBB\xBFSitemap: https://www.example.com/sitemap.xml\n"},
      {"existing line kept in place between groups",
       "User-agent: a\nDisallow: /a\n\n"
       "SITEMAP:https://WWW.Example.com/sitemap.xml  # main\n\n"
       "User-agent: b\nDisallow: /b",
       {kMain},
       false,
       "User-agent: a\nDisallow: /a\n\n"
       "SITEMAP:https://WWW.Example.com/sitemap.xml  # main\n\n"
       "User-agent: b\nDisallow: /b"},
      {"path case matters",
       "Sitemap: https://www.example.com/SITEMAP.xml\n",
       {kMain},
       false,
       "Sitemap: https://www.example.com/SITEMAP.xml\n"
       "Sitemap: https://www.example.com/sitemap.xml\n"},
      {"repeats of a wanted URL removed, the first kept",
       "Sitemap: https://www.example.com/news.xml\n"
       "Sitemap: https://www.example.com/sitemap.xml\n"
       "User-agent: *\n"
       "sitemap: https://www.example.com/sitemap.xml\n"
       "Disallow:\n",
       {kMain},
       false,
       "Sitemap: https://www.example.com/news.xml\n"
       "Sitemap: https://www.example.com/sitemap.xml\n"
       "User-agent: *\n"
       "Disallow:\n"},
      {"other Sitemap lines stay without replace",
       "Sitemap: https://www.example.com/old.xml\n",
       {kMain},
       false,
       "Sitemap: https://www.example.com/old.xml\n"
       "Sitemap: https://www.example.com/sitemap.xml\n"},
      {"replace removes other and relative Sitemap lines",
       "Sitemap: https://www.example.com/old.xml\r\nUser-agent: *\r\n"
       "Sitemap: /relative.xml\r\nDisallow: /x\r\n"
       "Sitemap: https://www.example.com/sitemap.xml\r\n",
       {kMain},
       true,
       "User-agent: *\r\nDisallow: /x\r\n"
       "Sitemap: https://www.example.com/sitemap.xml\r\n"},
      {"replace leaves keys that merely start like Sitemap",
       "Sitemapper: x\nSitemap-index: y\n",
       {kMain},
       true,
       "Sitemapper: x\nSitemap-index: y\n\n"
       "Sitemap: https://www.example.com/sitemap.xml\n"},
      {"a misspelled line of a wanted URL is rewritten at the end",
       "Site-map: https://www.example.com/sitemap.xml\nUser-agent: *\n",
       {kMain},
       false,
       "User-agent: *\n\nSitemap: https://www.example.com/sitemap.xml\n"},
      {"no blank line after a Sitemap line or a blank one",
       "Sitemap: https://www.example.com/news.xml\n",
       {kNews, kMain},
       false,
       "Sitemap: https://www.example.com/news.xml\n"
       "Sitemap: https://www.example.com/sitemap.xml\n"},
      {"a trailing blank line is reused",
       "User-agent: *\nAllow: /\n\n",
       {kMain},
       false,
       "User-agent: *\nAllow: /\n\nSitemap: "
       "https://www.example.com/sitemap.xml\n"},
      {"wanted URLs normalised, deduplicated and kept in order",
       "",
       {"https://www.example.com/a b.xml", "HTTPS://WWW.EXAMPLE.COM/a%20b.xml",
        "https://www.example.com/ü.xml#top"},
       false,
       "Sitemap: https://www.example.com/a%20b.xml\n"
       "Sitemap: https://www.example.com/%C3%BC.xml\n"},
      // The shared lexer (src/robots/robots_lexer.h) reads a form feed as
      // whitespace; this editor used to miss the record and add another.
      {"a form feed before Sitemap: is whitespace",
       "\fSitemap: https://www.example.com/sitemap.xml\n",
       {kMain},
       false,
       "\fSitemap: https://www.example.com/sitemap.xml\n"},
      {"a Sitemap line no crawler reads is removed with replace",
       "User-agent: *\n"
       "Sitemap https://www.example.com/a.xml https://www.example.com/b.xml\n",
       {kMain},
       true,
       "User-agent: *\n\nSitemap: https://www.example.com/sitemap.xml\n"},
      {"indented record and a record removed from the end",
       "  Sitemap: https://www.example.com/sitemap.xml\n"
       "Sitemap: https://www.example.com/sitemap.xml",
       {kMain},
       false,
       "  Sitemap: https://www.example.com/sitemap.xml\n"},
  };
  return cases;
}

TEST(RobotsEdit, ProducesExactlyTheExpectedBytes) {
  for (const edit_case& c : edit_cases()) {
    SCOPED_TRACE(c.name);
    robots_edit_options o;
    o.replace = c.replace;
    auto edit = edit_robots_txt(c.input, c.wanted, o);
    ASSERT_TRUE(edit) << edit.err().message;
    EXPECT_EQ(edit->text, c.expected);
    EXPECT_EQ(edit->changed, c.expected != c.input);
  }
}

// Editing the result again changes nothing: the first edit was complete.
TEST(RobotsEdit, IsIdempotent) {
  for (const edit_case& c : edit_cases()) {
    SCOPED_TRACE(c.name);
    robots_edit_options o;
    o.replace = c.replace;
    auto again = edit_robots_txt(c.expected, c.wanted, o);
    ASSERT_TRUE(again) << again.err().message;
    EXPECT_EQ(again->text, c.expected);
    EXPECT_FALSE(again->changed);
    EXPECT_THAT(again->added, IsEmpty());
    EXPECT_THAT(again->removed, IsEmpty());
  }
}

// The reader (robots.h) finds in the result exactly the wanted URLs, with
// replace, so what is written is what checkers and crawlers read.
TEST(RobotsEdit, ReaderFindsExactlyTheWantedSitemapsAfterReplace) {
  for (const edit_case& c : edit_cases()) {
    if (!c.replace) continue;
    SCOPED_TRACE(c.name);
    robots_edit_options o;
    o.replace = true;
    auto edit = edit_robots_txt(c.input, c.wanted, o);
    ASSERT_TRUE(edit);
    const robots_sitemaps found =
        find_sitemaps(edit->text, "https://www.example.com/robots.txt");
    std::vector<std::string> urls;
    for (const auto& s : found.sitemaps) urls.push_back(s.url);
    EXPECT_EQ(urls, std::vector<std::string>{kMain});
  }
}

TEST(RobotsEdit, ReportsWhatItAddedKeptAndRemoved) {
  robots_edit_options o;
  o.replace = true;
  auto edit = edit_robots_txt(
      "Sitemap: https://www.example.com/sitemap.xml\n"
      "Sitemap: https://www.example.com/sitemap.xml\n"
      "Sitemap: https://www.example.com/old.xml\n",
      {kMain, kNews}, o);
  ASSERT_TRUE(edit);
  EXPECT_THAT(edit->present, ElementsAre(kMain));
  EXPECT_THAT(edit->added, ElementsAre(kNews));
  ASSERT_EQ(edit->removed.size(), 2u);
  EXPECT_EQ(edit->removed[0].line, 2u);
  EXPECT_EQ(edit->removed[0].text,
            "Sitemap: https://www.example.com/sitemap.xml");
  EXPECT_THAT(edit->removed[0].reason, HasSubstr("repeats line 1"));
  EXPECT_EQ(edit->removed[1].line, 3u);
  EXPECT_THAT(edit->removed[1].reason, HasSubstr("`replace`"));
}

TEST(RobotsEdit, NotesARelativeSitemapLineItLeavesAlone) {
  auto edit = edit_robots_txt("Sitemap: /sitemap.xml\n", {kMain});
  ASSERT_TRUE(edit);
  ASSERT_EQ(edit->notes.size(), 1u);
  EXPECT_THAT(edit->notes[0], HasSubstr("line 1"));
  EXPECT_THAT(edit->notes[0], HasSubstr("`replace`"));
  EXPECT_THAT(edit->text, HasSubstr("Sitemap: /sitemap.xml\n"));
}

// Google's parser reads no record from "Sitemap a b" (no colon, more than
// two words), and neither does the shared lexer; the editor says so.
TEST(RobotsEdit, NotesASitemapLineNoCrawlerReads) {
  const std::string text =
      "Sitemap https://www.example.com/a.xml https://www.example.com/b.xml\n";
  auto edit = edit_robots_txt(text, {kMain});
  ASSERT_TRUE(edit);
  ASSERT_EQ(edit->notes.size(), 1u);
  EXPECT_THAT(edit->notes[0], HasSubstr("line 1"));
  EXPECT_THAT(edit->notes[0], HasSubstr("no crawler reads it"));
  EXPECT_EQ(edit->text,
            text + "\nSitemap: https://www.example.com/sitemap.xml\n");

  robots_edit_options o;
  o.replace = true;
  edit = edit_robots_txt(text, {kMain}, o);
  ASSERT_TRUE(edit);
  ASSERT_EQ(edit->removed.size(), 1u);
  EXPECT_THAT(edit->removed[0].reason, HasSubstr("no crawler reads it"));
}

TEST(RobotsEdit, NotesNewLinesPastTheCrawlerParsingLimit) {
  // RFC 9309 2.5: crawlers may stop at 500 KiB.
  std::string big;
  while (big.size() < max_robots_txt_bytes)
    big += "Disallow: /some/long/path/segment\n";
  auto edit = edit_robots_txt("User-agent: *\n" + big, {kMain});
  ASSERT_TRUE(edit);
  ASSERT_EQ(edit->notes.size(), 1u);
  EXPECT_THAT(edit->notes[0], HasSubstr("500 KiB"));
}

TEST(RobotsEdit, RefusesWhatItCannotWrite) {
  struct refusal {
    std::string input;
    std::vector<std::string> wanted;
    const char* says;
  };
  const std::vector<refusal> cases = {
      {"", {"/sitemap.xml"}, "relative"},
      {"", {"sitemap.xml"}, "relative"},
      {"", {"ftp://www.example.com/sitemap.xml"}, "http"},
      {"", {"https://"}, "sitemap URL"},
      {std::string("\xFF\xFEU\0s\0", 6), {kMain}, "UTF-16"},
      {std::string("\xFE\xFF\0U\0s", 6), {kMain}, "UTF-16"},
      // Removing line 1 (a misspelled wanted line) must not leave bytes in
      // front that read as a UTF-16 byte order mark.
      {"Site-map: https://www.example.com/sitemap.xml\n\xFF\xFEx\n",
       {kMain},
       "UTF-16"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.says);
    auto edit = edit_robots_txt(c.input, c.wanted);
    ASSERT_FALSE(edit);
    EXPECT_THAT(edit.err().message, HasSubstr(c.says));
  }
}

// --- the file

TEST(RobotsUpdate, CreatesAMissingFile) {
  testing::temp_dir t;
  const std::string path = t / "robots.txt";
  auto done = update_robots(path, {kMain});
  ASSERT_TRUE(done) << done.err().message;
  EXPECT_TRUE(done->created);
  EXPECT_TRUE(done->written);
  EXPECT_EQ(testing::read_raw(path),
            "Sitemap: https://www.example.com/sitemap.xml\n");
  // Nothing but the file itself is left behind.
  EXPECT_THAT(testing::list_all(t.path()), ElementsAre("robots.txt"));
}

TEST(RobotsUpdate, LeavesAnUpToDateFileUntouched) {
  testing::temp_dir t;
  const std::string path = t / "robots.txt";
  testing::write_file(path, "Sitemap: https://www.example.com/sitemap.xml\n");
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  auto done = update_robots(path, {kMain});
  ASSERT_TRUE(done);
  EXPECT_FALSE(done->written);
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  // A rewrite renames a new file into place, which changes the inode.
  EXPECT_EQ(before.st_ino, after.st_ino);
}

TEST(RobotsUpdate, ReplacesAtomicallyKeepingPermissions) {
  testing::temp_dir t;
  const std::string path = t / "robots.txt";
  testing::write_file(path, "User-agent: *\r\nDisallow:\r\n");
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  auto done = update_robots(path, {kMain});
  ASSERT_TRUE(done) << done.err().message;
  EXPECT_TRUE(done->written);
  EXPECT_FALSE(done->created);
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_NE(before.st_ino, after.st_ino);
  EXPECT_EQ(after.st_mode & 07777, 0640u);
  EXPECT_EQ(testing::read_raw(path),
            "User-agent: *\r\nDisallow:\r\n\r\n"
            "Sitemap: https://www.example.com/sitemap.xml\r\n");
  EXPECT_THAT(testing::list_all(t.path()), ElementsAre("robots.txt"));
}

TEST(RobotsUpdate, FollowsASymbolicLink) {
  testing::temp_dir t;
  const std::string target = t / "real-robots.txt";
  const std::string link = t / "robots.txt";
  testing::write_file(target, "User-agent: *\n");
  ASSERT_EQ(::symlink("real-robots.txt", link.c_str()), 0);
  auto done = update_robots(link, {kMain});
  ASSERT_TRUE(done) << done.err().message;
  struct stat st {};
  ASSERT_EQ(::lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_THAT(testing::read_raw(target), HasSubstr("Sitemap: "));
}

TEST(RobotsUpdate, DryRunWritesNothing) {
  testing::temp_dir t;
  const std::string path = t / "robots.txt";
  testing::write_file(path, "User-agent: *\n");
  robots_edit_options o;
  o.dry_run = true;
  auto done = update_robots(path, {kMain}, o);
  ASSERT_TRUE(done);
  EXPECT_FALSE(done->written);
  EXPECT_TRUE(done->edit.changed);
  EXPECT_EQ(testing::read_raw(path), "User-agent: *\n");
  auto missing = update_robots(t / "new.txt", {kMain}, o);
  ASSERT_TRUE(missing);
  EXPECT_TRUE(missing->created);
  EXPECT_THAT(testing::list_all(t.path()), ElementsAre("robots.txt"));
}

TEST(RobotsUpdate, FailsNamingTheFileAndLeavesItAlone) {
  testing::temp_dir t;
  auto no_dir = update_robots(t / "missing/robots.txt", {kMain});
  ASSERT_FALSE(no_dir);
  EXPECT_THAT(no_dir.err().message, HasSubstr("missing/robots.txt"));

  auto dir = update_robots(t.path(), {kMain});
  ASSERT_FALSE(dir);
  EXPECT_THAT(dir.err().message, HasSubstr("directory"));

  const std::string utf16 = t / "robots.txt";
  const std::string bytes("\xFF\xFEU\0", 4);
  testing::write_file(utf16, bytes);
  auto refused = update_robots(utf16, {kMain});
  ASSERT_FALSE(refused);
  EXPECT_THAT(refused.err().message, HasSubstr("robots.txt: "));
  EXPECT_EQ(testing::read_raw(utf16), bytes);
  EXPECT_THAT(testing::list_all(t.path()), ElementsAre("robots.txt"));
}

TEST(AtomicWrite, RemovesItsTemporaryFileWhenTheRenameFails) {
  testing::temp_dir t;
  ASSERT_EQ(::mkdir((t / "taken").c_str(), 0755), 0);
  // A directory cannot be replaced by a file.
  const status s = write_file_atomically(t / "taken", "x");
  ASSERT_FALSE(s);
  EXPECT_THAT(s.message(), HasSubstr("taken"));
  EXPECT_THAT(testing::list_all(t.path()), ElementsAre("taken"));
}

}  // namespace
}  // namespace sitemill
