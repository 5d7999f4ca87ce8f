// A run's temporary files are found by their names when it discards them
// (publisher::discard_temporaries(), stream_temporaries, recovery's
// temp_files_in()), not by a list kept in memory: a run of tens of millions
// of URLs makes a temporary for every partition of its stable layout, and
// the list grew by 140 bytes with each. Removing by name must take exactly
// this run's files: not another run's, not a user's look-alikes, not what
// the next run still needs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "publish/set_outputs.h"
#include "sitemill/atomic_file.h"
#include "sitemill/publish/publish.h"
#include "support/run.h"

namespace sitemill {
namespace {

namespace fs = std::filesystem;
using testing::temp_dir;

std::set<std::string> names_in(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    names.insert(e.path().filename());
  return names;
}

TEST(TempFilesIn, ListsTheNamesOfTheGivenRunsOnly) {
  temp_dir d;
  const std::string ours = new_run_token(), theirs = new_run_token();
  const std::string mine[] = {temp_file_name(ours, "0-layout-0-17"),
                              temp_file_name(ours, "1-part-0")};
  const std::string others[] = {
      temp_file_name(theirs, "0-part-0"),
      std::string(temp_file_prefix) + "not-a-token-part",
      "sitemap-0110-0123456789ab.xml.gz", ours};
  for (const std::string& n : mine) std::ofstream(d / n) << "x";
  for (const std::string& n : others) std::ofstream(d / n) << "x";
  const std::string tokens[] = {ours};
  const auto listed = temp_files_in(d.path(), tokens);
  EXPECT_EQ(std::set<std::string>(listed.begin(), listed.end()),
            std::set<std::string>(std::begin(mine), std::end(mine)));
  EXPECT_TRUE(temp_files_in(d.path(), {}).empty());
  EXPECT_TRUE(temp_files_in(d / "missing", tokens).empty());
}

TEST(PublisherTemporaries, AFailedRunRemovesEveryFileItNamedAndNothingElse) {
  temp_dir d;
  const std::string dir = d / "out";
  fs::create_directory(dir);
  const std::string users = temp_file_name(new_run_token(), "0-part-0");
  std::ofstream(dir + "/" + users) << "a file that only looks like one";
  std::ofstream(dir + "/index.html") << "the user's";
  {
    auto p = publisher::open(dir);
    ASSERT_TRUE(p) << p.err().message;
    // Many made; most removed by their owners as they go, as the stable
    // layout's partition files are; a few left by a run that then fails.
    for (int i = 0; i < 5000; ++i) {
      const std::string path = (*p)->temp_path("layout-1-" + std::to_string(i));
      std::ofstream(path) << i;
      if (i % 1000 != 7) fs::remove(path);
    }
    EXPECT_EQ(names_in(dir).size(), 2u + 5u);
  }  // destroyed without publishing: the failed run
  EXPECT_EQ(names_in(dir), (std::set<std::string>{users, "index.html"}));
}

TEST(StreamTemporaries, RemovesItsOwnFilesFromTheSharedDirectory) {
  std::string made;
  {
    detail::stream_temporaries t;
    made = t.temp_path("part-0");
    std::ofstream(made) << "x";
    const std::string gone = t.temp_path("part-1");
    std::ofstream(gone) << "y";
    fs::remove(gone);
    ASSERT_TRUE(fs::exists(made));
  }
  EXPECT_FALSE(fs::exists(made));
}

}  // namespace
}  // namespace sitemill
