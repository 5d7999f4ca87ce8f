// The scratch directories a killed sitemill's browsers left in $TMPDIR
// ("sitemill-chromium-*", each naming its owner's pid in "owner") are
// removed by the next browser started (src/net/chromium.h,
// remove_orphaned_directories()). $TMPDIR is shared with other users: a
// name there that is a symlink (to a directory of someone else's, say), or
// a directory another user owns, is left alone, orphaned or not; only a real
// directory of our own whose owner is gone goes.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "net/chromium.h"
#include "support/run.h"

namespace sitemill::detail {
namespace {

namespace fs = std::filesystem;

// A pid no process has: a child's, once it was waited for.
pid_t gone_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

// A scratch directory as a browser leaves it: an "owner" file and a profile.
void leave_scratch(const std::string& dir, long owner) {
  fs::create_directories(dir + "/profile");
  std::ofstream(dir + "/owner") << owner << '\n';
  std::ofstream(dir + "/profile/Local State") << "{}";
}

TEST(ChromiumOrphans, OnlyOurOwnRealDirectoriesOfGoneOwnersAreRemoved) {
  testing::temp_dir tmp;
  testing::temp_dir elsewhere;  // what a planted symlink points to
  const pid_t gone = gone_pid();

  leave_scratch(tmp / "sitemill-chromium-orphan", gone);
  leave_scratch(tmp / "sitemill-chromium-alive", ::getpid());
  // A link named as a scratch directory, to a directory that looks like an
  // orphan's: following it would remove what it points to.
  leave_scratch(elsewhere / "target", gone);
  fs::create_directory_symlink(elsewhere / "target",
                               tmp / "sitemill-chromium-link");
  // Not a scratch directory's name.
  leave_scratch(tmp / "other-orphan", gone);

  remove_orphaned_directories(tmp.path(), ::geteuid());

  EXPECT_FALSE(fs::exists(tmp / "sitemill-chromium-orphan"));
  EXPECT_TRUE(fs::exists(tmp / "sitemill-chromium-alive/owner"));
  EXPECT_TRUE(fs::is_symlink(tmp / "sitemill-chromium-link"));
  EXPECT_TRUE(fs::exists(elsewhere / "target/owner"));
  EXPECT_TRUE(fs::exists(elsewhere / "target/profile/Local State"));
  EXPECT_TRUE(fs::exists(tmp / "other-orphan/owner"));
}

TEST(ChromiumOrphans, ADirectoryAnotherUserOwnsIsLeftAlone) {
  testing::temp_dir tmp;
  leave_scratch(tmp / "sitemill-chromium-theirs", gone_pid());
  // The directory is ours; seen by another uid, it is someone else's.
  remove_orphaned_directories(tmp.path(), ::geteuid() + 1);
  EXPECT_TRUE(fs::exists(tmp / "sitemill-chromium-theirs/owner"));
  EXPECT_TRUE(fs::exists(tmp / "sitemill-chromium-theirs/profile"));

  // As root, a directory chowned to another user is the real case.
  if (::geteuid() == 0) {
    leave_scratch(tmp / "sitemill-chromium-chowned", gone_pid());
    ASSERT_EQ(::chown((tmp / "sitemill-chromium-chowned").c_str(), 65534,
                      65534),
              0);
    remove_orphaned_directories(tmp.path(), ::geteuid());
    EXPECT_TRUE(fs::exists(tmp / "sitemill-chromium-chowned/owner"));
  }
  // Seen by its owner, the orphan goes.
  remove_orphaned_directories(tmp.path(), ::geteuid());
  EXPECT_FALSE(fs::exists(tmp / "sitemill-chromium-theirs"));
}

}  // namespace
}  // namespace sitemill::detail
