// The sitemill command itself: its version flags, and a mistyped command
// answered with the nearest one.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(MainCli, VersionFlagsPrintTheVersion) {
  for (const char* flag : {"-V", "--version"}) {
    const run_result r = run_sitemill({flag});
    EXPECT_EQ(r.exit_code, 0) << flag;
    EXPECT_THAT(r.out, StartsWith("sitemill ")) << flag;
  }
}

// One line per command, as git and cargo list theirs; the whole text is
// the command's own --help.
TEST(MainCli, HelpListsEachCommandOnOneLine) {
  const run_result r = run_sitemill({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  const auto lines = split_lines(r.out);
  for (const char* command : {"generate", "check", "robots", "ping", "indexnow",
                              "stats", "diff", "report"}) {
    std::size_t found = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (!lines[i].starts_with(std::string("  ") + command + " ")) continue;
      ++found;
      EXPECT_THAT(lines[i], ::testing::EndsWith("."));
      // The next line is the next command or the end of the list.
      ASSERT_LT(i + 1, lines.size());
      EXPECT_FALSE(lines[i + 1].starts_with("                 "))
          << command << " takes more than one line";
    }
    EXPECT_EQ(found, 1u) << command;
  }
  const run_result one = run_sitemill({"check", "--help"});
  EXPECT_THAT(one.out, HasSubstr("A target is a local file"))
      << "a command's own help keeps its whole description";
}

TEST(MainCli, AMistypedCommandGetsTheNearestOne) {
  const struct {
    const char* typed;
    const char* says;
  } cases[] = {
      {"generat", "did you mean 'generate'?"},
      {"chek", "did you mean 'check'?"},
      {"stat", "did you mean 'stats'?"},
      {"publish", "the commands are generate, check, robots, ping"},
  };
  for (const auto& c : cases) {
    const run_result r = run_sitemill({c.typed, "--help"});
    EXPECT_EQ(r.exit_code, 2) << c.typed;
    EXPECT_THAT(r.err,
                HasSubstr(std::string("'") + c.typed + "' is not a command"))
        << c.typed;
    EXPECT_THAT(r.err, HasSubstr(c.says)) << c.typed;
    EXPECT_EQ(r.out, "") << c.typed;
  }
  // A known command with a bad option is CLI11's usual message, not this.
  const run_result known = run_sitemill({"check", "--no-such-flag"});
  EXPECT_EQ(known.exit_code, 2);
  EXPECT_THAT(known.err, ::testing::Not(HasSubstr("is not a command")));
}

}  // namespace
}  // namespace sitemill::testing
