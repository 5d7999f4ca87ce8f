// The one atomic file write: what a reader sees, and what a write killed
// half-way leaves for the publisher's recovery to remove.
#include "sitemill/atomic_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <string>

#include "sitemill/publish/publish.h"
#include "support/run.h"

namespace sitemill {
namespace {

using ::testing::ElementsAre;
using ::testing::StartsWith;

TEST(AtomicFile, ReplacesTheFileAndKeepsItsPermissions) {
  testing::temp_dir t;
  const std::string path = t / "robots.txt";
  testing::write_file(path, "old");
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  ASSERT_TRUE(static_cast<bool>(write_file_atomically(path, "new")));
  EXPECT_EQ(testing::read_raw(path), "new");
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_THAT(testing::list_all(t.path()), ElementsAre("robots.txt"));
}

// A process killed in the middle of the write (here by SIGXFSZ, which the
// kernel sends the moment a write crosses RLIMIT_FSIZE) leaves the old file
// and one temporary file. Without a run token the writer's token is made up
// on the spot, so nothing can later prove the file is sitemill's: a
// publisher leaves it (issue 14: only files sitemill can prove it made go).
TEST(AtomicFile, AWriteKilledHalfWayLeavesTheOldFileAndOneTemporary) {
  testing::temp_dir t;
  const std::string site = t / "site";  // its bookkeeping goes beside it
  std::filesystem::create_directory(site);
  const std::string path = site + "/robots.txt";
  testing::write_file(path, "old");
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    rlimit none{0, 0};
    ::setrlimit(RLIMIT_CORE, &none);
    rlimit small{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &small);
    std::signal(SIGXFSZ, SIG_DFL);
    (void)write_file_atomically(path, std::string(1 << 20, 'x'));
    ::_exit(0);  // not reached: SIGXFSZ ends the write
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ);
  EXPECT_EQ(testing::read_raw(path), "old");
  const auto left = testing::list_all(site);
  ASSERT_EQ(left.size(), 2u);
  EXPECT_THAT(left[0], StartsWith(std::string(temp_file_prefix)));

  EXPECT_NE(temp_file_token(left[0]), "") << left[0];

  // No run recorded that token (write_file_atomically made it up), so the
  // publisher cannot prove the file is sitemill's and leaves it.
  auto recovered = publisher::open(site, "sitemap");
  ASSERT_TRUE(static_cast<bool>(recovered)) << recovered.err().message;
  recovered->reset();
  EXPECT_THAT(testing::list_all(site), ElementsAre(left[0], "robots.txt"));
}

}  // namespace
}  // namespace sitemill
