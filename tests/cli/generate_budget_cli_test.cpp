// sitemill generate --memory-budget end to end: sizes as people write them,
// the summary and --json say when the disk was used, and the published set
// is the one a run in memory publishes.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>

#include "support/run.h"

namespace sitemill::testing {
namespace {

run_result generate_with(const temp_dir& t, const std::string& out,
                         std::vector<std::string> extra) {
  std::vector<std::string> args{
      "generate",   "--base-url", "https://www.example.com/", "--out", t / out,
      "--max-urls", "1000"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(t / "urls.txt");
  return run_sitemill(args);
}

TEST(GenerateBudgetCli, TheSameSetWhateverTheBudgetAndTheSpillIsSaid) {
  temp_dir t;
  {
    std::ofstream out(t / "urls.txt");
    for (int i = 0; i < 5'000; ++i) {
      out << "https://www.example.com/a/" << i << "\n";
      if (i % 3 == 0) out << "https://www.example.com/a/" << i / 2 << "\n";
    }
  }
  auto wide = generate_with(t, "wide", {"--memory-budget", "64MiB", "--json"});
  ASSERT_EQ(wide.exit_code, 0) << wide.err;
  auto tight = generate_with(t, "tight", {"--memory-budget", "0", "--json"});
  ASSERT_EQ(tight.exit_code, 0) << tight.err;
  EXPECT_EQ(snapshot(t / "wide"), snapshot(t / "tight"));
  const auto w = nlohmann::json::parse(wide.out);
  const auto s = nlohmann::json::parse(tight.out);
  EXPECT_EQ(w["spilled"], 0);
  // 6,667 records: the first URL is held in memory, and the one repeat of
  // it is known at once; every other record waits on disk.
  EXPECT_EQ(s["spilled"].get<int>(), 6'665);
  EXPECT_GT(s["spill_bytes"].get<int>(), 0);
  EXPECT_EQ(s["duplicates"], w["duplicates"]);

  auto said = generate_with(t, "said", {"--memory-budget", "0"});
  ASSERT_EQ(said.exit_code, 0) << said.err;
  EXPECT_NE(said.err.find("past --memory-budget, 6,665 records were checked "
                          "for duplicates on disk"),
            std::string::npos)
      << said.err;
}

// Past the budget, the stable layout parks the entries whose duplicate
// check waits by fingerprint at once, with where they were read: each one
// found to repeat is still named with its line and the line it repeats,
// as in memory (only the order of those found on disk differs).
TEST(GenerateBudgetCli, DuplicatesFoundOnDiskNameTheirLinesAsInMemory) {
  temp_dir t;
  std::set<std::tuple<int, std::string, int>> want;  // line, url, first line
  {
    std::ofstream out(t / "urls.txt");
    for (int i = 0; i < 3'000; ++i) {
      const int u = i < 2'000 ? i : (i * 7) % 2'000;
      out << "https://www.example.com/a/" << u << "\n";
      if (i >= 2'000)
        want.insert(
            {i + 1, "https://www.example.com/a/" + std::to_string(u), u + 1});
    }
  }
  const temp_dir& dir = t;
  auto listed = [&](const std::string& budget) {
    auto r = generate_with(dir, "out-" + budget,
                           {"--memory-budget", budget, "--json", "--no-gzip"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto report = nlohmann::json::parse(r.out);
    std::set<std::tuple<int, std::string, int>> got;
    for (const auto& d : report["duplicate_records"]) {
      EXPECT_EQ(d["input"], d["first_input"]);
      got.insert({d["line"].get<int>(), d["url"].get<std::string>(),
                  d["first_line"].get<int>()});
    }
    EXPECT_EQ(report["duplicates"].get<std::size_t>(), got.size());
    EXPECT_EQ(report["written"], 2'000);
    return std::make_pair(got, report["spilled"].get<int>());
  };
  const auto [in_memory, none] = listed("64MiB");
  const auto [on_disk, spilled] = listed("0");
  EXPECT_EQ(none, 0);
  EXPECT_EQ(spilled, 2'998) << "all but the first URL and its one repeat";
  EXPECT_EQ(in_memory, want);
  EXPECT_EQ(on_disk, want);
  EXPECT_EQ(snapshot(t / "out-64MiB"), snapshot(t / "out-0"));
}

TEST(GenerateBudgetCli, ASizeThatIsNotOneIsRefused) {
  temp_dir t;
  write_file(t / "urls.txt", "https://www.example.com/\n");
  for (const char* bad : {"lots", "-5", "12XB"}) {
    auto r = generate_with(t, "out", {"--memory-budget", bad});
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--memory-budget"), std::string::npos) << r.err;
  }
  auto ok = generate_with(t, "out", {"--memory-budget", "1k"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

}  // namespace
}  // namespace sitemill::testing
