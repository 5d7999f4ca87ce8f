// The CLI's one mapping from the library's terms (`max_urls`) to its flags.
#include "vocabulary.h"

#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace sitemill::cli
