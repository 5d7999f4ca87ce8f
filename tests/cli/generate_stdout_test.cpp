// --out -: a small set's one sitemap on stdout, as plain XML; a set that
// needs an index, and the options that write more files, are refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "support/run.h"

namespace sitemill::testing {
namespace {

using ::testing::HasSubstr;

const std::string base = "https://www.example.com/";

// The $TMPDIR entries sitemill made for --out -.
std::vector<std::string> stdout_dirs(const std::string& tmp) {
  std::vector<std::string> found;
  for (const auto& e : std::filesystem::directory_iterator(tmp))
    if (e.path().filename().string().starts_with("sitemill-stdout-"))
      found.push_back(e.path());
  return found;
}

TEST(GenerateStdout, WritesTheOneSitemapAsPlainXml) {
  temp_dir t;
  write_file(t / "urls.txt", "/a\n/b?x=1&y=2\n/a\n");
  setenv("TMPDIR", (t / "").c_str(), 1);
  const run_result r = run_sitemill(
      {"generate", "--base-url", base, "--out", "-", t / "urls.txt"});
  unsetenv("TMPDIR");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(validate_xml(r.out), "") << r.out;
  const auto entries = parse_entries(r.out);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].at("loc"), base + "a");
  EXPECT_EQ(entries[1].at("loc"), base + "b?x=1&y=2");
  EXPECT_THAT(r.out, HasSubstr("b?x=1&amp;y=2"));
  EXPECT_THAT(r.err, HasSubstr("wrote 2 URLs to stdout (1 duplicate,"));
  EXPECT_FALSE(std::filesystem::exists("-")) << "no directory named -";
  EXPECT_TRUE(stdout_dirs(t / "").empty()) << "its directory goes with it";

  write_file(t / "urls.txt", "https://www.example.com/a\n");
  const run_result text =
      run_sitemill({"generate", "--base-url", base, "--format", "txt", "--out",
                    "-", t / "urls.txt"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.out, base + "a\n");
}

TEST(GenerateStdout, RefusesASetThatNeedsAnIndex) {
  temp_dir t;
  std::string many;
  for (int i = 0; i < 3; ++i) many += "/p" + std::to_string(i) + "\n";
  write_file(t / "urls.txt", many);
  setenv("TMPDIR", (t / "").c_str(), 1);
  const run_result r =
      run_sitemill({"generate", "--base-url", base, "--max-urls", "2", "--out",
                    "-", t / "urls.txt"});
  unsetenv("TMPDIR");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "") << "nothing half-written on stdout";
  EXPECT_THAT(r.err, HasSubstr("the set needs 2 sitemaps and an index"));
  EXPECT_TRUE(stdout_dirs(t / "").empty());
}

TEST(GenerateStdout, RefusesWhatWouldWriteMoreThanOneFile) {
  temp_dir t;
  write_file(t / "urls.txt", "/a\n");
  const std::vector<std::vector<std::string>> cases = {
      {"--json"},
      {"--html"},
      {"--xsl", "default"},
      {"--robots", t / "robots.txt"},
      {"--base-url", "https://shop.example.com/"},
  };
  for (const auto& extra : cases) {
    std::vector<std::string> args = {"generate", "--base-url", base,
                                     "--out",    "-",          t / "urls.txt"};
    args.insert(args.end(), extra.begin(), extra.end());
    const run_result r = run_sitemill(args);
    EXPECT_EQ(r.exit_code, 2) << extra[0];
    EXPECT_THAT(r.err, HasSubstr("--out -: ")) << extra[0];
    EXPECT_EQ(r.out, "") << extra[0];
  }
}

}  // namespace
}  // namespace sitemill::testing
