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
  // A known command with a bad option is told as an option, not this.
  const run_result known = run_sitemill({"check", "--no-such-flag"});
  EXPECT_EQ(known.exit_code, 2);
  EXPECT_THAT(known.err, ::testing::Not(HasSubstr("is not a command")));
}

// A mistyped option is named with the nearest one of its command, before
// anything else is said of the command line (a required option it was
// meant to be, say).
TEST(MainCli, AMistypedOptionGetsTheNearestOne) {
  const struct {
    std::vector<std::string> args;
    const char* says;
  } cases[] = {
      {{"generate", "--baseurl", "https://www.example.com/", "--out", "o",
        "u.txt"},
       "sitemill generate: unknown option --baseurl; did you mean --base-url?"},
      {{"generate", "--base-url=https://www.example.com/", "--out=o",
        "--no-gzp", "u.txt"},
       "sitemill generate: unknown option --no-gzp; did you mean --no-gzip?"},
      {{"-v", "check", "--max-dpth=2", "s.xml"},
       "sitemill check: unknown option --max-dpth; did you mean --max-depth?"},
      {{"--colour", "never", "check", "s.xml"},
       "sitemill: unknown option --colour; did you mean --color?"},
      {{"check", "--no-such-flag", "s.xml"},
       "sitemill check: unknown option --no-such-flag\n"},
  };
  for (const auto& c : cases) {
    const run_result r = run_sitemill(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.says;
    EXPECT_THAT(r.err, HasSubstr(c.says));
    EXPECT_THAT(r.err, HasSubstr("--help' for its options."));
    EXPECT_EQ(r.out, "");
  }
  // An operand after -- is no option.
  const run_result operand = run_sitemill({"check", "--", "--baseurl"});
  EXPECT_THAT(operand.err, ::testing::Not(HasSubstr("unknown option")));
}

// sitemill alone and sitemill help print the short help; help COMMAND, the
// command's.
TEST(MainCli, HelpAndNoCommandPrintTheShortHelp) {
  const run_result help = run_sitemill({"help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_EQ(help.out, run_sitemill({"--help"}).out);
  const run_result bare = run_sitemill({});
  EXPECT_EQ(bare.exit_code, 2) << "no command is still a mistake";
  EXPECT_EQ(bare.out, help.out);
  const run_result one = run_sitemill({"help", "check"});
  EXPECT_EQ(one.exit_code, 0);
  EXPECT_EQ(one.out, run_sitemill({"check", "--help"}).out);
}

}  // namespace
}  // namespace sitemill::testing
