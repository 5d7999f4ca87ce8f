// --include/--exclude (and their regex forms) filter the URLs of every
// source: lists, sitemaps, JSONL; a directory applies them to its files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;
using json = nlohmann::json;

const std::string base = "https://www.example.com/";

const char* const kUrls =
    "/\n/admin/users\n/admin\n/blog/a.html\n/blog/2024/b.html\n"
    "/docs/guide.pdf\n/shop/item?id=1\n/administrator/x\n";

TEST(GenerateFilters, ExcludeAppliesToAUrlList) {
  temp_dir t;
  write_file(t / "urls.txt", kUrls);
  auto g = generate_and_check(t / "out", {"--exclude", "/admin/", "--exclude",
                                          "*.pdf", t / "urls.txt"});
  // "/admin/" names a directory: everything below it goes, the page /admin
  // (a file) and /administrator stay.
  EXPECT_THAT(all_locs(g.set),
              ElementsAre(base, base + "admin", base + "blog/a.html",
                          base + "blog/2024/b.html", base + "shop/item?id=1",
                          base + "administrator/x"));
  EXPECT_EQ(g.report["filtered"], 2);
  EXPECT_EQ(g.report["records"], 8);
  EXPECT_EQ(g.report["records"].get<int>(),
            g.report["written"].get<int>() + g.report["duplicates"].get<int>() +
                g.report["filtered"].get<int>() +
                static_cast<int>(g.report["rejected"].size()));
  EXPECT_THAT(g.run.err, HasSubstr("2 filtered out by --include/--exclude"));
}

// The last matching pattern wins, as in .gitignore; a directory left out is
// not "entered", so a later pattern must include the directory as well.
TEST(GenerateFilters, TheLastMatchingPatternWins) {
  temp_dir t;
  write_file(t / "urls.txt", kUrls);
  auto g = generate_and_check(
      t / "out", {"--exclude", "*", "--include", "blog/", "--include",
                  "blog/**", "--exclude", "2024/", t / "urls.txt"});
  EXPECT_THAT(all_locs(g.set), ElementsAre(base, base + "blog/a.html"))
      << "the base URL itself has no path a pattern could match";
}

TEST(GenerateFilters, RegexFormsAreOrderedWithTheGlobs) {
  temp_dir t;
  write_file(t / "urls.txt", kUrls);
  auto g = generate_and_check(
      t / "out", {"--exclude-regex", "^(admin|shop)", "--include-regex",
                  "^admin/users$", t / "urls.txt"});
  // ^admin also matches the directory "admin/" of admin/users, and a
  // directory left out is not entered: the later include cannot bring
  // admin/users back. /administrator/x matches ^admin too.
  EXPECT_THAT(all_locs(g.set),
              ElementsAre(base, base + "blog/a.html", base + "blog/2024/b.html",
                          base + "docs/guide.pdf"));
  EXPECT_EQ(g.report["filtered"], 4);
}

TEST(GenerateFilters, ApplyToSitemapsAndJsonl) {
  temp_dir t;
  write_file(t / "old.xml", urlset({base + "a", base + "admin/b", base + "c"}));
  write_file(t / "more.jsonl", "{\"loc\": \"/admin/d\"}\n{\"loc\": \"/e\"}\n");
  auto g =
      generate_and_check(t / "out", {t / "more.jsonl", "--exclude", "admin/",
                                     "--from-sitemap", t / "old.xml"});
  EXPECT_THAT(all_locs(g.set), ElementsAre(base + "e", base + "a", base + "c"));
  EXPECT_EQ(g.report["filtered"], 2);
}

// A directory applies the patterns to its files (after its *.html default)
// and never reads an excluded one: nothing is counted as filtered.
TEST(GenerateFilters, ADirectoryAppliesThemToItsFiles) {
  temp_dir t;
  const std::string site = t / "site";
  std::filesystem::create_directories(site + "/admin");
  write_file(site + "/index.html", "<html><body>home</body></html>");
  write_file(site + "/admin/index.html", "<html><body>admin</body></html>");
  write_file(site + "/doc.pdf", "%PDF-1.4");
  auto g = generate_and_check(t / "out", {"--exclude", "admin/", "--include",
                                          "*.pdf", "--from-dir", site});
  EXPECT_THAT(all_locs(g.set), UnorderedElementsAre(base, base + "doc.pdf"));
  EXPECT_EQ(g.report["filtered"], 0);
}

TEST(GenerateFilters, AnInvalidRegexIsAUsageError) {
  temp_dir t;
  write_file(t / "urls.txt", kUrls);
  auto r = run_sitemill({"generate", "--base-url", base, "--out", t / "out",
                         "--exclude-regex", "(unclosed", t / "urls.txt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("regular expression \"(unclosed\" is invalid"));
  EXPECT_FALSE(std::filesystem::exists(t / "out/sitemap.xml"));
}

}  // namespace
}  // namespace sitemill::testing
