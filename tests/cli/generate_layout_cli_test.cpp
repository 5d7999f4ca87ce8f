// `generate --layout` end to end. The churn test is issue 31's claim: on a
// 1,000,000-URL export, one URL inserted at the head, one appended and one
// removed from the middle each change at most two files (by their
// content-addressed names), and the index changes only those files'
// entries. The size is a parameter: a sanitizer build, many times slower,
// runs the same edits on 100,000 URLs and says so.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "support/run.h"
#include "support/sanitized.h"

namespace sitemill::testing {
namespace {

namespace fs = std::filesystem;

#ifdef SITEMILL_TEST_SANITIZED
constexpr std::size_t churn_urls = 100'000;
#else
constexpr std::size_t churn_urls = 1'000'000;
#endif

// Row i of a shop export: its URL and a lastmod in 2025.
std::string row(std::size_t i) {
  static const char* const dirs[] = {"shoes", "shirts", "garden", "toys"};
  std::string line = "https://www.example.com/";
  line += dirs[i % 4];
  line += "/item-" + std::to_string(i) + ".html,2025-";
  const std::size_t month = 1 + i % 12, day = 1 + (i / 12) % 28;
  if (month < 10) line += '0';
  line += std::to_string(month) + '-';
  if (day < 10) line += '0';
  line += std::to_string(day) + '\n';
  return line;
}

// Writes rows [0, n) but `skip`, with `head` before and `tail` after.
void write_export(const std::string& path, std::size_t n,
                  const std::string& head = "", const std::string& tail = "",
                  std::size_t skip = ~std::size_t{0}) {
  std::ofstream out(path, std::ios::binary);
  std::string buffer = head;
  for (std::size_t i = 0; i < n; ++i) {
    if (i != skip) buffer += row(i);
    if (buffer.size() > (1u << 20)) {
      out << buffer;
      buffer.clear();
    }
  }
  out << buffer << tail;
}

run_result generate_into(const std::string& in, const std::string& out,
                         std::vector<std::string> more = {}) {
  std::vector<std::string> args{"generate",  "--quiet",
                                "--base-url", "https://www.example.com/",
                                "--columns", "loc,lastmod",
                                "--out",     out};
  args.insert(args.end(), more.begin(), more.end());
  args.push_back(in);
  run_options o;
  o.timeout = std::chrono::minutes(5);
  return run_sitemill(args, o);
}

// The index's entries: file name -> lastmod.
std::map<std::string, std::string> index_of(const std::string& dir) {
  std::ifstream in(dir + "/sitemap.xml");
  const std::string xml{std::istreambuf_iterator<char>(in), {}};
  std::map<std::string, std::string> out;
  const std::regex entry(
      "<sitemap><loc>[^<]*/([^/<]+)</loc>(<lastmod>([^<]*)</lastmod>)?");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), entry);
       it != std::sregex_iterator(); ++it)
    out[(*it)[1]] = (*it)[3];
  return out;
}

std::size_t sitemap_files(const std::string& dir) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().ends_with(".xml.gz")) ++n;
  return n;
}

// Index entries of `now` that `before` does not have as they are (a new
// name, or a lastmod that moved).
std::size_t changed_entries(const std::map<std::string, std::string>& before,
                            const std::map<std::string, std::string>& now) {
  std::size_t n = 0;
  for (const auto& [name, lastmod] : now) {
    auto at = before.find(name);
    if (at == before.end() || at->second != lastmod) ++n;
  }
  return n;
}

TEST(GenerateLayoutCli, OneUrlInsertedAppendedOrRemovedChangesAtMostTwoFiles) {
  temp_dir t;
  const std::string in = t / "export.csv";
  write_export(in, churn_urls);
  auto r = generate_into(in, t / "base");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto base = index_of(t / "base");
  ASSERT_GT(base.size(), churn_urls / 50'000) << "expected several files";
  ASSERT_EQ(base.size(), sitemap_files(t / "base"));

  struct edit {
    const char* what;
    std::string head, tail;
    std::size_t skip = ~std::size_t{0};
  };
  const edit edits[] = {
      {"head", "https://www.example.com/new/first.html,2026-11-01\n", ""},
      {"tail", "", "https://www.example.com/new/last.html,2026-11-02\n"},
      {"middle", "", "", churn_urls / 2},
  };
  for (const edit& e : edits) {
    write_export(in, churn_urls, e.head, e.tail, e.skip);
    r = generate_into(in, t / e.what);
    ASSERT_EQ(r.exit_code, 0) << e.what << ": " << r.err;
    const auto now = index_of(t / e.what);
    EXPECT_LE(changed_entries(base, now), 2u) << e.what;
    EXPECT_GE(changed_entries(base, now), 1u) << e.what;
    EXPECT_LE(changed_entries(now, base), 2u) << e.what;
    std::cout << "[   NOTE   ] " << e.what << ": "
              << changed_entries(base, now) << " of " << now.size()
              << " files new, " << churn_urls << " URLs\n";
  }
#ifdef SITEMILL_TEST_SANITIZED
  std::cout << "[   NOTE   ] sanitizer build: 100,000 URLs; the release "
               "build runs 1,000,000\n";
#endif
}

TEST(GenerateLayoutCli, SequentialLayoutNumbersItsFilesAndIsInTheConfigFile) {
  temp_dir t;
  const std::string in = t / "export.csv";
  write_export(in, 120);
  auto r = generate_into(in, t / "flag", {"--max-urls", "50", "--layout",
                                          "sequential"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto numbered = index_of(t / "flag");
  ASSERT_EQ(numbered.size(), 3u);
  for (const auto& [name, lastmod] : numbered)
    EXPECT_TRUE(std::regex_match(name,
                                 std::regex("sitemap-[123]-[0-9a-f]{12}"
                                            "\\.xml\\.gz")))
        << name;

  {
    std::ofstream toml(t / "sitemill.toml");
    toml << "[generate]\nlayout = \"sequential\"\nmax-urls = 50\n";
  }
  r = generate_into(in, t / "config", {"--config", t / "sitemill.toml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(index_of(t / "config").size(), 3u);
  EXPECT_EQ(index_of(t / "config").begin()->first.substr(0, 10),
            "sitemap-1-");

  r = generate_into(in, t / "stable", {"--max-urls", "50"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& [name, lastmod] : index_of(t / "stable"))
    EXPECT_TRUE(std::regex_match(
        name, std::regex("sitemap-[01]+-[0-9a-f]{12}\\.xml\\.gz")))
        << name;
}

TEST(GenerateLayoutCli, AnUnknownLayoutIsRefusedByName) {
  temp_dir t;
  const std::string in = t / "export.csv";
  write_export(in, 3);
  const auto r = generate_into(in, t / "out", {"--layout", "diagonal"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--layout"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t / "out"));
}

TEST(GenerateLayoutCli, HelpDescribesBothLayouts) {
  const auto r = run_sitemill({"generate", "--help"});
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--layout"), std::string::npos);
  EXPECT_NE(r.out.find("sequential"), std::string::npos);
}

}  // namespace
}  // namespace sitemill::testing
