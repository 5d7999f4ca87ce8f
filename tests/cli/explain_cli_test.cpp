// `sitemill check --explain [CODE]` (cli/explain.h): a finding's
// documentation from the findings docs embedded in the binary, the list of
// codes, and an unknown code's nearest; and the docs installed with the
// package, which an installed binary's --help points at.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string docs = std::string(SITEMILL_SOURCE_DIR) + "/docs/";

// Every code the findings docs' tables list, read here independently.
std::set<std::string> codes_in_docs() {
  std::set<std::string> codes;
  const std::regex row("^\\| `([a-z0-9-]+)` \\|");
  for (const char* name : {"diagnostics-document.md", "diagnostics-context.md",
                           "diagnostics-robots.md"}) {
    const std::string text = read_file(docs + name);
    std::size_t at = 0;
    while (at < text.size()) {
      std::size_t end = text.find('\n', at);
      if (end == std::string::npos) end = text.size();
      std::smatch m;
      const std::string line = text.substr(at, end - at);
      if (std::regex_search(line, m, row)) codes.insert(m[1]);
      at = end + 1;
    }
  }
  return codes;
}

TEST(CheckExplain, PrintsACodesMeaningFixAndSource) {
  const run_result r = run_sitemill({"check", "--explain", "duplicate-url"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(
      r.out, HasSubstr("duplicate-url (warning; docs/diagnostics-context.md)"));
  EXPECT_THAT(r.out, HasSubstr("Meaning:\n  The same <loc> text is listed"));
  EXPECT_THAT(r.out, HasSubstr("How to fix:\n  List each URL once"));
  EXPECT_THAT(r.out, HasSubstr("Protocol digest sections:\n  6.D 37"));
  EXPECT_EQ(r.err, "");
}

TEST(CheckExplain, ReadsEveryTableOfEveryFindingsDoc) {
  // A robots.txt code (its table has Fix, not How to fix), a cell holding an
  // escaped '|', and a parser code.
  const run_result robots =
      run_sitemill({"check", "--explain", "robots-bare-url"});
  ASSERT_EQ(robots.exit_code, 0) << robots.err;
  EXPECT_THAT(robots.out, HasSubstr("(info; docs/diagnostics-robots.md)"));
  EXPECT_THAT(robots.out, HasSubstr("Fix:\n  If it names a sitemap"));
  const run_result pipe =
      run_sitemill({"check", "--explain", "loc-unsafe-char"});
  ASSERT_EQ(pipe.exit_code, 0) << pipe.err;
  EXPECT_THAT(pipe.out, HasSubstr("< > \" { } | \\ ^ ` or a control"));
  for (const std::string& line : {std::string("Meaning:")})
    EXPECT_THAT(pipe.out, HasSubstr(line));

  const run_result list = run_sitemill({"check", "--explain"});
  ASSERT_EQ(list.exit_code, 0) << list.err;
  for (const std::string& code : codes_in_docs())
    EXPECT_THAT(list.out, HasSubstr("  " + code + " ")) << code;
  EXPECT_GT(codes_in_docs().size(), 100u);
}

TEST(CheckExplain, AnUnknownCodeGetsTheNearestAndExitsTwo) {
  const run_result r = run_sitemill({"check", "--explain", "duplicate-urls"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("no finding has the code 'duplicate-urls'; did "
                               "you mean 'duplicate-url'?"));
  EXPECT_EQ(r.out, "");
  const run_result far = run_sitemill({"check", "--explain", "zzzzzzzzzzzz"});
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_THAT(far.err, HasSubstr("'sitemill check --explain' lists the codes"));
}

TEST(CheckExplain, WithoutExplainATargetIsStillRequired) {
  const run_result r = run_sitemill({"check"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("give a sitemap file"));
}

TEST(CheckExplain, HelpAndManPageNameIt) {
  EXPECT_THAT(run_sitemill({"check", "--help"}).out, HasSubstr("--explain"));
  temp_dir pages;
  ASSERT_EQ(run_sitemill({"man", "--out", pages.path()}).exit_code, 0);
  EXPECT_THAT(read_file(pages / "sitemill-check.1"),
              HasSubstr("\\-\\-explain"));
  EXPECT_THAT(read_file(pages / "sitemill.1"),
              HasSubstr("share/doc/sitemill/"));
  for (const char* shell : {"bash", "zsh", "fish"})
    EXPECT_THAT(run_sitemill({"completions", shell}).out,
                HasSubstr("explain"))
        << shell;
}

// An installed binary (PREFIX/bin/sitemill beside PREFIX/share/doc/sitemill)
// cites the installed docs in --help and in its messages; one in a build
// tree keeps docs/NAME.md.
TEST(InstalledDocs, HelpPointsAtTheInstalledDirectory) {
  temp_dir prefix;
  std::filesystem::create_directories(prefix / "bin");
  std::filesystem::create_directories(prefix / "share/doc/sitemill");
  std::filesystem::copy_file(SITEMILL_BINARY, prefix / "bin/sitemill");
  for (const auto& f : std::filesystem::directory_iterator(docs))
    std::filesystem::copy_file(
        f.path(),
        prefix / ("share/doc/sitemill/" + f.path().filename().string()));
  const std::string installed = prefix / "share/doc/sitemill/";

  const run_result help =
      run_program(prefix / "bin/sitemill", {"generate", "--help"});
  ASSERT_EQ(help.exit_code, 0) << help.err;
  EXPECT_THAT(help.out, HasSubstr(installed + "scaling.md"));
  EXPECT_THAT(help.out, Not(HasSubstr("(docs/scaling.md)")));
  const run_result top = run_program(prefix / "bin/sitemill", {"--help"});
  EXPECT_THAT(top.out, HasSubstr("Documentation: " + installed));
  const run_result explained = run_program(
      prefix / "bin/sitemill", {"check", "--explain", "duplicate-url"});
  EXPECT_THAT(explained.out,
              HasSubstr("(warning; " + installed + "diagnostics-context.md)"));

  // The report page cites the findings doc where the package put it.
  write_file(prefix / "s.xml",
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset "
             "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
             "<url><loc>https://www.example.com/a</loc></url></urlset>\n");
  const run_result page = run_program(prefix / "bin/sitemill",
                                      {"report", prefix / "s.xml", "-o", "-"});
  ASSERT_EQ(page.exit_code, 0) << page.err;
  EXPECT_THAT(page.out, HasSubstr(installed + "diagnostics.md describes each"));

  const run_result built = run_sitemill({"generate", "--help"});
  EXPECT_THAT(built.out, HasSubstr("docs/scaling.md"));
  const run_result built_page =
      run_sitemill({"report", prefix / "s.xml", "-o", "-"});
  EXPECT_THAT(built_page.out, HasSubstr("(docs/diagnostics.md describes each"));
}

}  // namespace
}  // namespace sitemill::testing
