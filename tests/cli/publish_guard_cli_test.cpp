// End to end, what `generate` guards while publishing (issue 34): a user's
// file under a new child's name is refused, not overwritten (item 5); a
// second run through a symbolic link to --out meets the first run's lock
// (item 6); SIGTERM once the publish has begun finishes it and exits 3, the
// new set live, where SIGTERM before it exits 130 with nothing published
// (item 10; docs/publishing.md).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "sitemill/publish/publish.h"
#include "support/campaign.h"
#include "support/run.h"

namespace sitemill::testing {
namespace {

namespace fs = std::filesystem;

const std::string base = "https://www.example.com/";

// 12 URLs, 5 per sitemap: three children and an index.
std::string write_urls(const temp_dir& t, const std::string& tag = "") {
  std::string urls;
  for (int i = 0; i < 12; ++i)
    urls += base + "page/" + tag + std::to_string(i) + "\n";
  write_file(t / ("urls" + tag + ".txt"), urls);
  return t / ("urls" + tag + ".txt");
}

run_result generate(const std::string& out, const std::string& input) {
  return run_sitemill({"generate", "--base-url", base, "--out", out,
                       "--max-urls", "5", "-q", input});
}

// The test hook of the CLI (cli/cmd_generate.cpp), set for one run.
struct signal_at {
  explicit signal_at(const std::string& spec) {
    ::setenv("SITEMILL_TEST_KILL_AT", spec.c_str(), 1);
  }
  ~signal_at() { ::unsetenv("SITEMILL_TEST_KILL_AT"); }
  signal_at(const signal_at&) = delete;
  signal_at& operator=(const signal_at&) = delete;
};

TEST(PublishGuardCli, AUsersFileUnderANewChildsNameIsRefusedNotReplaced) {
  temp_dir t;
  const std::string input = write_urls(t);
  // The names this input's children get, from a run elsewhere.
  ASSERT_EQ(generate(t / "probe", input).exit_code, 0);
  std::string child;
  for (const std::string& name : list_files(t / "probe"))
    if (name != "sitemap.xml") child = name;
  ASSERT_FALSE(child.empty());

  fs::create_directory(t / "site");
  write_file(t / ("site/" + child), "the user's own file\n");
  const run_result r = generate(t / "site", input);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("refusing to replace " + (t / "site") + "/" + child),
            std::string::npos)
      << r.err;
  EXPECT_EQ(list_files(t / "site"), std::vector<std::string>{child})
      << "something was published beside the refused file";
  EXPECT_EQ(read_file(t / ("site/" + child)), "the user's own file\n");
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::fault_case, 1);
}

TEST(PublishGuardCli, ASecondRunThroughASymlinkedOutMeetsTheLock) {
  temp_dir t;
  const std::string input = write_urls(t);
  fs::create_directory(t / "real");
  fs::create_directory_symlink(t / "real", t / "link");
  // The first run, holding the lock of --out real while it publishes.
  auto first = publisher::open(t / "real");
  ASSERT_TRUE(first) << first.err().message;
  const run_result second = generate(t / "link", input);
  EXPECT_EQ(second.exit_code, 2) << second.err;
  EXPECT_NE(second.err.find("another sitemill run is publishing"),
            std::string::npos)
      << second.err;
  EXPECT_TRUE(list_files(t / "real").empty());
  first->reset();

  // Afterwards either spelling publishes, into one bookkeeping.
  ASSERT_EQ(generate(t / "link", input).exit_code, 0);
  EXPECT_TRUE(fs::exists(t / ".sitemill/real/manifest-sitemap.json"));
  EXPECT_FALSE(fs::exists(t / ".sitemill/link"));
  const run_result again = generate(t / "real", write_urls(t, "b"));
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(list_files(t / "real").size(), 4u)
      << "the first spelling's files were not replaced by the second's";
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::fault_case, 1);
}

TEST(PublishGuardCli, SigtermOnceThePublishHasBegunFinishesItAndExits3) {
  temp_dir t;
  ASSERT_EQ(generate(t / "out", write_urls(t, "old")).exit_code, 0);
  const auto old_set = snapshot(t / "out");
  // The step right after the journal; and the last step before the
  // publish, where the run still stops with nothing published.
  {
    signal_at term("journal_written:1:TERM");
    const run_result r = generate(t / "out", write_urls(t, "new"));
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find("the new set is live"), std::string::npos) << r.err;
  }
  const std::string index = read_file(t / "out/sitemap.xml");
  EXPECT_NE(index.find("<loc>https://www.example.com/sitemap-"), std::string::npos);
  for (const std::string& name : list_files(t / "out"))
    if (name != "sitemap.xml") {
      const std::string body = read_file(t / ("out/" + name));
      EXPECT_NE(body.find(base + "page/new"), std::string::npos) << name;
      EXPECT_NE(index.find(name), std::string::npos) << name;
    }
  EXPECT_FALSE(fs::exists(t / ".sitemill/out/journal-sitemap.json"));
  EXPECT_NE(snapshot(t / "out"), old_set);

  const auto new_set = snapshot(t / "out");
  {
    signal_at term("sitemaps_finished:1:TERM");
    const run_result r = generate(t / "out", write_urls(t, "third"));
    EXPECT_EQ(r.exit_code, 130) << r.err;
  }
  EXPECT_EQ(snapshot(t / "out"), new_set) << "an interrupted run published";
  sitemill::test::campaign_tally(sitemill::test::campaign_kind::crash_point, 2);
}

}  // namespace
}  // namespace sitemill::testing
