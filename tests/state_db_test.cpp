// Tests for the --lastmod content state: lastmod kept while content is
// unchanged, change lists, and a run that is abandoned or killed before its
// commit leaving the previous state exactly.
#include "sitemill/source/state_db.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace sitemill {
namespace {

namespace fs = std::filesystem;
using list = std::vector<std::string>;

constexpr content_hash h1{1, 1}, h2{2, 2}, h3{3, 3};

class StateDb : public testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "sitemill-state-XXXXXX");
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    path_ = (dir_ / "state.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::unique_ptr<state_db> open() {
    auto db = state_db::open(path_);
    EXPECT_TRUE(db.has_value()) << (db ? "" : db.err().message);
    return db ? std::move(db).value() : nullptr;
  }

  std::string ask(state_db& db, std::string_view url, const content_hash& h,
                  std::string_view fresh) {
    auto answer = db.lastmod_for(url, h, fresh);
    EXPECT_TRUE(answer.has_value()) << (answer ? "" : answer.err().message);
    return answer ? *answer : std::string("<error>");
  }

  // One committed run offering `pages` (url, hash) with fresh lastmod
  // `fresh`; returns the lastmods given.
  list run(const std::vector<std::pair<std::string, content_hash>>& pages,
           std::string_view fresh) {
    auto db = open();
    if (!db) return {};
    EXPECT_TRUE(db->begin_run());
    list out;
    for (const auto& [url, h] : pages) out.push_back(ask(*db, url, h, fresh));
    const status s = db->commit_run();
    EXPECT_TRUE(s) << s.message();
    return out;
  }

  fs::path dir_;
  std::string path_;
};

const std::string url_a = "https://example.com/a.html";
const std::string url_b = "https://example.com/b.html";
const std::string url_c = "https://example.com/c.html";

TEST_F(StateDb, GivesNewUrlsTheFreshLastmod) {
  EXPECT_EQ(run({{url_a, h1}, {url_b, h2}}, "2024-01-01T00:00:00Z"),
            (list{"2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z"}));
}

TEST_F(StateDb, KeepsTheLastmodWhileTheContentIsUnchanged) {
  run({{url_a, h1}, {url_b, h2}}, "2024-01-01T00:00:00Z");
  // Every file touched (a newer mtime), no content changed.
  EXPECT_EQ(run({{url_a, h1}, {url_b, h2}}, "2024-02-02T00:00:00Z"),
            (list{"2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z"}));
  EXPECT_EQ(run({{url_a, h1}, {url_b, h2}}, "2024-03-03T00:00:00Z"),
            (list{"2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z"}));
}

TEST_F(StateDb, ChangesOnlyTheLastmodOfEditedContent) {
  run({{url_a, h1}, {url_b, h2}}, "2024-01-01T00:00:00Z");
  EXPECT_EQ(run({{url_a, h1}, {url_b, h3}}, "2024-02-02T00:00:00Z"),
            (list{"2024-01-01T00:00:00Z", "2024-02-02T00:00:00Z"}));
  // The new lastmod sticks until the next edit.
  EXPECT_EQ(run({{url_a, h1}, {url_b, h3}}, "2024-03-03T00:00:00Z"),
            (list{"2024-01-01T00:00:00Z", "2024-02-02T00:00:00Z"}));
}

TEST_F(StateDb, ListsAddedChangedAndRemovedUrlsSorted) {
  run({{url_a, h1}, {url_b, h2}}, "2024-01-01T00:00:00Z");
  auto db = open();
  ASSERT_TRUE(db);
  ASSERT_TRUE(db->begin_run());
  const std::string d = "https://example.com/d.html";
  ask(*db, d, h1, "x");
  ask(*db, url_c, h1, "x");
  ask(*db, url_a, h3, "x");  // changed
  // b not offered: removed.
  auto changes = db->changes();
  ASSERT_TRUE(changes.has_value());
  EXPECT_EQ(changes->added, (list{url_c, d}));
  EXPECT_EQ(changes->changed, (list{url_a}));
  EXPECT_EQ(changes->removed, (list{url_b}));
  ASSERT_TRUE(db->commit_run());
  // After the commit, the lists are what was committed.
  changes = db->changes();
  ASSERT_TRUE(changes.has_value());
  EXPECT_EQ(changes->added, (list{url_c, d}));
  EXPECT_EQ(changes->removed, (list{url_b}));

  // The next run starts from the committed state.
  ASSERT_TRUE(db->begin_run());
  ask(*db, url_a, h3, "y");
  ask(*db, url_c, h1, "y");
  ask(*db, d, h1, "y");
  changes = db->changes();
  ASSERT_TRUE(changes.has_value());
  EXPECT_TRUE(changes->empty());
  ASSERT_TRUE(db->commit_run());
  auto runs = db->committed_runs();
  ASSERT_TRUE(runs.has_value());
  EXPECT_EQ(*runs, 3);
}

TEST_F(StateDb, ForgetsARemovedUrlSoItComesBackAsAdded) {
  run({{url_a, h1}, {url_b, h2}}, "2024-01-01T00:00:00Z");
  run({{url_a, h1}}, "2024-02-02T00:00:00Z");
  auto db = open();
  ASSERT_TRUE(db);
  ASSERT_TRUE(db->begin_run());
  EXPECT_EQ(ask(*db, url_b, h2, "2024-03-03T00:00:00Z"),
            "2024-03-03T00:00:00Z");
  auto changes = db->changes();
  ASSERT_TRUE(changes.has_value());
  EXPECT_EQ(changes->added, (list{url_b}));
}

TEST_F(StateDb, KeepsTheFirstAnswerForAUrlOfferedTwice) {
  auto db = open();
  ASSERT_TRUE(db);
  ASSERT_TRUE(db->begin_run());
  EXPECT_EQ(ask(*db, url_a, h1, "first"), "first");
  EXPECT_EQ(ask(*db, url_a, h2, "second"), "first");
  ASSERT_TRUE(db->commit_run());
  ASSERT_TRUE(db->begin_run());
  EXPECT_EQ(ask(*db, url_a, h1, "third"), "first");  // h1 was stored
}

TEST_F(StateDb, AbandonedRunLeavesTheStateUnchanged) {
  run({{url_a, h1}, {url_b, h2}}, "2024-01-01T00:00:00Z");
  {
    auto db = open();
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->begin_run());
    EXPECT_EQ(ask(*db, url_a, h3, "2024-05-05T00:00:00Z"),
              "2024-05-05T00:00:00Z");
    ask(*db, url_c, h3, "2024-05-05T00:00:00Z");
    db->abandon_run();
    auto changes = db->changes();
    ASSERT_TRUE(changes.has_value());
    EXPECT_TRUE(changes->empty());
  }
  EXPECT_EQ(run({{url_a, h1}, {url_b, h2}}, "2024-06-06T00:00:00Z"),
            (list{"2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z"}));
}

TEST_F(StateDb, ARunNeverCommittedLeavesTheStateUnchanged) {
  run({{url_a, h1}, {url_b, h2}}, "2024-01-01T00:00:00Z");
  {
    auto db = open();
    ASSERT_TRUE(db);
    ASSERT_TRUE(db->begin_run());
    ask(*db, url_a, h3, "2024-05-05T00:00:00Z");
  }  // destroyed mid-run, as when generate fails before publishing
  EXPECT_EQ(run({{url_a, h1}, {url_b, h2}}, "2024-06-06T00:00:00Z"),
            (list{"2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z"}));
}

TEST_F(StateDb, AProcessKilledBeforeTheCommitLeavesTheStateUnchanged) {
  run({{url_a, h1}, {url_b, h2}}, "2024-01-01T00:00:00Z");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The crashing run: edits seen, the set written, killed before publish
    // and commit. _exit skips every destructor, as a crash does.
    auto db = state_db::open(path_);
    if (!db || !(*db)->begin_run()) ::_exit(2);
    auto x = (*db)->lastmod_for(url_a, h3, "2024-05-05T00:00:00Z");
    auto y = (*db)->lastmod_for(url_c, h3, "2024-05-05T00:00:00Z");
    ::_exit(x && y && *x == "2024-05-05T00:00:00Z" ? 0 : 3);
  }
  int wstatus = 0;
  ASSERT_EQ(::waitpid(child, &wstatus, 0), child);
  ASSERT_TRUE(WIFEXITED(wstatus));
  ASSERT_EQ(WEXITSTATUS(wstatus), 0);

  auto db = open();
  ASSERT_TRUE(db);
  ASSERT_TRUE(db->begin_run());
  EXPECT_EQ(ask(*db, url_a, h1, "2024-06-06T00:00:00Z"),
            "2024-01-01T00:00:00Z");
  EXPECT_EQ(ask(*db, url_b, h2, "2024-06-06T00:00:00Z"),
            "2024-01-01T00:00:00Z");
  auto changes = db->changes();
  ASSERT_TRUE(changes.has_value());
  EXPECT_TRUE(changes->empty());  // c was never committed
  auto runs = db->committed_runs();
  ASSERT_TRUE(runs.has_value());
  EXPECT_EQ(*runs, 1);
}

TEST_F(StateDb, RefusesASecondRunWhileOneIsInProgress) {
  auto db = open();
  ASSERT_TRUE(db);
  ASSERT_TRUE(db->begin_run());
  const status again = db->begin_run();
  EXPECT_FALSE(again);
  // Another connection stands for another sitemill process (SQLite locks
  // the file alike; forking with an open connection is not allowed).
  auto other = open();
  ASSERT_TRUE(other);
  const status s = other->begin_run();
  EXPECT_FALSE(s);
  EXPECT_NE(s.message().find("in use by another sitemill run"),
            std::string::npos)
      << s.message();
  // Once the first run ends, the other may start.
  db->abandon_run();
  EXPECT_TRUE(other->begin_run());
}

TEST_F(StateDb, AnswersOnlyDuringARun) {
  auto db = open();
  ASSERT_TRUE(db);
  EXPECT_FALSE(db->lastmod_for(url_a, h1, "x").has_value());
  EXPECT_FALSE(db->commit_run());
  auto changes = db->changes();
  ASSERT_TRUE(changes.has_value());
  EXPECT_TRUE(changes->empty());
}

// SQLite's header: user_version at byte 60, application_id at byte 68, both
// big-endian.
std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void patch_u32(const std::string& path, std::size_t offset,
               std::uint32_t value) {
  std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
  f.seekp(static_cast<std::streamoff>(offset));
  const char bytes[4] = {
      static_cast<char>(value >> 24), static_cast<char>(value >> 16),
      static_cast<char>(value >> 8), static_cast<char>(value)};
  f.write(bytes, 4);
}

TEST_F(StateDb, MarksTheFileWithItsSchemaVersionAndOwner) {
  ASSERT_TRUE(open());
  const std::string bytes = read_all(path_);
  ASSERT_GE(bytes.size(), 100U);
  EXPECT_EQ(bytes.substr(0, 16), std::string("SQLite format 3\0", 16));
  EXPECT_EQ(bytes.substr(60, 4), std::string("\0\0\0\1", 4));
  EXPECT_EQ(bytes.substr(68, 4), "SMIL");
}

TEST_F(StateDb, RefusesFilesItDidNotWrite) {
  const struct {
    std::string_view name;
    std::size_t offset;  // 0: replace the file with text
    std::uint32_t value;
    std::string_view message;
  } cases[] = {
      {"not SQLite", 0, 0, "is not a sitemill state database"},
      {"newer schema", 60, 2, "newer sitemill"},
      {"another program's", 68, 0x41424344, "belongs to another program"},
  };
  for (const auto& c : cases) {
    fs::remove(path_);
    if (c.offset == 0) {
      std::ofstream(path_) << "these are not the tables you are looking for\n";
    } else {
      ASSERT_TRUE(open());
      patch_u32(path_, c.offset, c.value);
    }
    auto db = state_db::open(path_);
    ASSERT_FALSE(db.has_value()) << c.name;
    EXPECT_NE(db.err().message.find(c.message), std::string::npos)
        << c.name << ": " << db.err().message;
    EXPECT_NE(db.err().message.find(path_), std::string::npos) << c.name;
    if (c.name == "another program's") {
      EXPECT_EQ(db.err().field, "state_path") << "names the option to change";
    }
  }
}

TEST_F(StateDb, FailsClearlyWhenTheFileCannotBeCreated) {
  std::ofstream(dir_ / "a-file") << "not a directory";
  auto db = state_db::open((dir_ / "a-file" / "state.db").string());
  ASSERT_FALSE(db.has_value());
  EXPECT_NE(db.err().message.find("a-file/state.db"), std::string::npos)
      << db.err().message;
}

// A fresh CI checkout has no .sitemill/ yet: the state's directory is made.
TEST_F(StateDb, MakesTheDirectoryItLivesIn) {
  const auto path = dir_ / ".sitemill" / "deeper" / "state.db";
  auto db = state_db::open(path.string());
  ASSERT_TRUE(db.has_value()) << db.err().message;
  EXPECT_TRUE(std::filesystem::is_regular_file(path));
}

}  // namespace
}  // namespace sitemill
