// sitemill generate --memory-budget end to end: sizes as people write them,
// the summary and --json say when the disk was used, and the published set
// is the one a run in memory publishes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

#include "support/run.h"

namespace sitemill::testing {
namespace {

run_result generate_with(const temp_dir& t, const std::string& out,
                         std::vector<std::string> extra) {
  std::vector<std::string> args{"generate", "--base-url",
                                "https://www.example.com/", "--out", t / out,
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
