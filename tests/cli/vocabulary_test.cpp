// The CLI's one mapping from the library's terms (`max_urls`) to its flags.
#include "vocabulary.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>

#include "sitemill/notify/announce.h"
#include "support/run.h"

namespace sitemill::cli {
namespace {

TEST(CliVocabulary, PutsKnownTermsInTheCommandsWordsAndLeavesTheRest) {
  const vocabulary words = {{"max_urls", "--max-urls"},
                            {"state_path", "--state FILE"}};
  struct row {
    const char* library;
    const char* cli;
  };
  const row rows[] = {
      {"no term at all", "no term at all"},
      {"`max_urls` must be from 1 to 50,000",
       "--max-urls must be from 1 to 50,000"},
      {"x needs `state_path`", "x needs --state FILE"},
      {"`max_urls` and `state_path`", "--max-urls and --state FILE"},
      {"`unknown` stays", "`unknown` stays"},
      {"a stray ` before `max_urls`", "a stray ` before --max-urls"},
      {"`max_urls` then a stray `", "--max-urls then a stray `"},
      {"`not a term` `max_urls`", "`not a term` --max-urls"},
      {"``", "``"},
      {"`", "`"},
      {"", ""},
  };
  for (const row& r : rows) {
    SCOPED_TRACE(r.library);
    EXPECT_EQ(in_cli_words(r.library, words), r.cli);
  }
}

TEST(CliVocabulary, GivesEachCommandItsOwnFlags) {
  const std::string advice = "check that `endpoint` is an IndexNow endpoint";
  EXPECT_EQ(in_cli_words(advice, generate_words("k")),
            "check that --indexnow-endpoint is an IndexNow endpoint");
  EXPECT_EQ(in_cli_words(advice, indexnow_words("k")),
            "check that --endpoint is an IndexNow endpoint");
  EXPECT_EQ(in_cli_words("(`write_indexnow_key`)", indexnow_words("abcd1234")),
            "(sitemill indexnow --key abcd1234 --write-key DIR)");
}

// What the sources say about their options reads as generate's flags.
TEST(CliVocabulary, GenerateSaysSourceOptionsAsFlags) {
  const vocabulary words = generate_words("k");
  EXPECT_EQ(
      in_cli_words("x: unknown input format; name it with `format`", words),
      "x: unknown input format; name it with --input-format");
  EXPECT_EQ(in_cli_words("an empty pattern in `patterns`", words),
            "an empty pattern in --include or --exclude");
  EXPECT_EQ(in_cli_words("point `state_path` at a new file", words),
            "point --state FILE at a new file");
}

// check's caps and scope are option fields in the library's messages and the
// flags a user typed in the CLI's.
TEST(CliVocabulary, CheckSaysItsCapsAndScopeAsFlags) {
  struct {
    std::string_view library, cli;
  } rows[] = {
      {"(`sitemap_url`)", "(--sitemap-url)"},
      {"(`max_depth`)", "(--max-depth)"},
      {"(`max_documents`)", "(--max-documents)"},
      {"(`max_total_bytes`)", "(--max-bytes)"},
      {"(`max_time`)", "(--max-time)"},
  };
  for (const auto& r : rows)
    EXPECT_EQ(in_cli_words(r.library, check_words()), r.cli) << r.library;
}

TEST(CliVocabulary, ReportSaysItsFlagsAndNamesChecksOwn) {
  EXPECT_EQ(in_cli_words("(`lenient_schema`)", report_words()),
            "(--lenient-schema)");
  EXPECT_EQ(in_cli_words("(`fetch_children`)", report_words()),
            "(--fetch-children)");
  EXPECT_EQ(in_cli_words("(`max_depth`)", report_words()),
            "(sitemill check --max-depth)");
}

// The announcing rules are the library's (check_announce_options()); what
// generate prints of them is what it printed when they were its own.
TEST(CliVocabulary, GenerateSaysTheAnnouncingRulesInItsFlags) {
  const vocabulary words = generate_words("");
  const std::vector<std::string> two_hosts = {"https://www.shop.de/",
                                              "https://www.shop.fr/"};
  announce_options a;
  a.robots_path = "robots.txt";
  EXPECT_EQ(
      in_cli_words(check_announce_options(a, two_hosts, true).message(), words),
      "--robots: the --base-url hosts differ, and each host has a "
      "robots.txt of its own: put {host} in the path (--robots "
      "'public/{host}/robots.txt')");
  a.robots_path.clear();
  a.indexnow.key = "short";
  EXPECT_EQ(
      in_cli_words(check_announce_options(a, two_hosts, true).message(), words),
      "--indexnow-key must be 8 to 128 of A-Z a-z 0-9 and -");
  a.indexnow.key = "0123456789abcdef";
  EXPECT_EQ(in_cli_words(check_announce_options(a, two_hosts, false).message(),
                         words),
            "--indexnow-key needs --state FILE, so that only the URLs added or "
            "changed since the last run are sent (as IndexNow asks)");
}

// The list readers name the column list as the option it is (`columns`);
// generate says the flag, as the readers themselves once did.
TEST(CliVocabulary, GenerateSaysTheColumnListAsItsFlag) {
  EXPECT_EQ(in_cli_words("to read a column as loc, map it by name: `columns` "
                         "loc=NAME",
                         generate_words("")),
            "to read a column as loc, map it by name: --columns loc=NAME");
}

// The flags `sitemill COMMAND --help` declares: the first word of each of
// its option lines ("  -q,--quiet   Print ...", "  --out TEXT REQUIRED").
std::set<std::string> declared_flags(const std::string& command) {
  const testing::run_result help = testing::run_sitemill({command, "--help"});
  EXPECT_EQ(help.exit_code, 0) << command << ": " << help.err;
  std::set<std::string> flags;
  std::istringstream lines(help.out);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos || line[start] != '-') continue;
    std::string names = line.substr(start, line.find(' ', start) - start);
    for (std::size_t at = 0; at < names.size();) {
      const std::size_t comma = std::min(names.find(',', at), names.size());
      flags.insert(names.substr(at, comma - at));
      at = comma + 1;
    }
  }
  return flags;
}

// Every flag a command's vocabulary says is one that command declares (or,
// written "sitemill OTHER --flag", one OTHER declares), so no library term
// is ever put in words a user cannot type.
TEST(CliVocabulary, EveryFlagItSaysIsDeclared) {
  const struct {
    std::vector<std::string> commands;  // whose flags the words may name
    vocabulary words;
  } vocabularies[] = {
      {{"generate"}, generate_words("k")}, {{"indexnow"}, indexnow_words("k")},
      {{"check"}, check_words()},          {{"stats", "diff"}, inspect_words()},
      {{"report"}, report_words()},        {{"merge"}, merge_words()},
      {{"robots"}, robots_words()},        {{"audit"}, audit_words()},
      {{"submit"}, submit_words()},
  };
  std::map<std::string, std::set<std::string>> declared;
  auto flags_of = [&](const std::string& command) -> std::set<std::string>& {
    auto [at, fresh] = declared.try_emplace(command);
    if (fresh) at->second = declared_flags(command);
    return at->second;
  };
  for (const auto& v : vocabularies) {
    for (const term& t : v.words) {
      std::istringstream words(t.cli);
      std::vector<std::string> commands = v.commands;
      for (std::string word; words >> word;) {
        if (word == "sitemill" && words >> word) {
          commands = {word};  // "sitemill check --max-depth"
          continue;
        }
        while (!word.empty() && (word.back() == ',' || word.back() == ')'))
          word.pop_back();
        if (!word.starts_with("--")) continue;
        bool found = false;
        for (const std::string& command : commands)
          found = found || flags_of(command).contains(word);
        EXPECT_TRUE(found) << "`" << t.library << "` says " << word
                           << ", which " << commands.front()
                           << " does not declare";
      }
    }
  }
}

}  // namespace
}  // namespace sitemill::cli
