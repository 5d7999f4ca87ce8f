// sitemill generate --shard and sitemill merge end to end: the batch
// engine's variables, the report of a shard, merge's --json and exit codes,
// and the flags a shard refuses.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <stdlib.h>

#include <fstream>

#include "support/run.h"

namespace sitemill::testing {
namespace {

// Sets environment variables for the children a test starts, and unsets
// them at the end.
class scoped_env {
 public:
  explicit scoped_env(std::map<std::string, std::string> vars)
      : vars_(std::move(vars)) {
    for (const auto& [k, v] : vars_) ::setenv(k.c_str(), v.c_str(), 1);
  }
  ~scoped_env() {
    for (const auto& [k, v] : vars_) ::unsetenv(k.c_str());
  }

 private:
  std::map<std::string, std::string> vars_;
};

std::vector<std::string> generate_args(const temp_dir& t,
                                       std::vector<std::string> extra) {
  std::vector<std::string> args{"generate", "--base-url",
                                "https://www.example.com/", "--out",
                                t / "out", "--max-urls", "100"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(t / "urls.txt");
  return args;
}

TEST(ShardCli, ASlurmArrayMergedIsOneSet) {
  temp_dir t;
  {
    std::ofstream out(t / "urls.txt");
    for (int i = 0; i < 1'000; ++i)
      out << "https://www.example.com/a/" << i << "\n";
  }
  std::uint64_t written = 0;
  for (int task = 1; task <= 3; ++task) {  // --array=1-3
    scoped_env env({{"SLURM_ARRAY_TASK_ID", std::to_string(task)},
                    {"SLURM_ARRAY_TASK_MIN", "1"},
                    {"SLURM_ARRAY_TASK_COUNT", "3"},
                    {"SLURM_ARRAY_JOB_ID", "77"}});
    auto r = run_sitemill(generate_args(t, {"--shard", "auto", "--json"}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["entry"], "");
    EXPECT_EQ(j["files"].size(), 0u);
    EXPECT_NE(j["shard"]["dir"].get<std::string>().find(
                  "shards/sitemap-" + std::to_string(task - 1) + "-of-3"),
              std::string::npos)
        << j["shard"];
    written += j["written"].get<std::uint64_t>();
    EXPECT_EQ(j["written"].get<std::uint64_t>() +
                  j["shard"]["other_shards"].get<std::uint64_t>(),
              1'000u);
  }
  EXPECT_EQ(written, 1'000u);
  EXPECT_TRUE(list_files(t / "out").empty()) << "a shard published";

  auto merged = run_sitemill({"merge", "--out", t / "out", "--json"});
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  const auto m = nlohmann::json::parse(merged.out);
  EXPECT_EQ(m["outcome"], "published");
  EXPECT_EQ(m["shards"], 3);
  EXPECT_EQ(m["written"], 1'000);
  EXPECT_EQ(m["entry_url"], "https://www.example.com/sitemap.xml");
  auto checked = run_sitemill({"check", t / "out"});
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;

  // A shard of another job, and the merge refuses the mix.
  {
    scoped_env env({{"SLURM_ARRAY_TASK_ID", "2"},
                    {"SLURM_ARRAY_TASK_MIN", "1"},
                    {"SLURM_ARRAY_TASK_COUNT", "3"},
                    {"SLURM_ARRAY_JOB_ID", "78"}});
    ASSERT_EQ(run_sitemill(generate_args(t, {"--shard", "auto"})).exit_code, 0);
  }
  auto mixed = run_sitemill({"merge", "--out", t / "out", "--json"});
  EXPECT_EQ(mixed.exit_code, 1);
  const auto x = nlohmann::json::parse(mixed.out);
  EXPECT_EQ(x["outcome"], "refused");
  EXPECT_NE(x["message"].get<std::string>().find("batch job 77 against 78"),
            std::string::npos)
      << x["message"];
}

// A manifest named by a path relative to the working directory finds the
// shard's files beside it.
TEST(ShardCli, MergesTheManifestsItIsGiven) {
  temp_dir t;
  write_file(t / "urls.txt", "https://www.example.com/a\nhttps://www.example.com/b\n");
  ASSERT_EQ(run_sitemill(generate_args(t, {"--shard", "0/1"})).exit_code, 0);
  run_options in_shard;
  in_shard.cwd = t / ".sitemill/out/shards/sitemap-0-of-1";
  auto merged =
      run_sitemill({"merge", "--out", t / "out", "--json", "shard.json"}, in_shard);
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(nlohmann::json::parse(merged.out)["written"], 2);
  EXPECT_EQ(list_files(t / "out").size(), 2u) << "a sitemap and its index";
}

TEST(ShardCli, WhatAShardCannotDoIsRefusedBeforeAnythingIsWritten) {
  temp_dir t;
  write_file(t / "urls.txt", "https://www.example.com/\n");
  const std::pair<std::vector<std::string>, std::string> refused[] = {
      {{"--shard", "4/4"}, "--shard: the index must be from 0 to 3"},
      {{"--shard", "auto"}, "SLURM_ARRAY_TASK_ID is not set"},
      {{"--shard", "0/2", "--robots", t / "robots.txt"}, "announce"},
      {{"--shard-presplit"}, "give --shard"},
      {{"--shard", "0/2", "--html"}, "the HTML view cannot be split"},
  };
  for (const auto& [flags, why] : refused) {
    auto r = run_sitemill(generate_args(t, flags));
    EXPECT_EQ(r.exit_code, 2) << flags.front();
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(t / ".sitemill/out/shards"));
  auto none = run_sitemill({"merge", "--out", t / "out"});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.err.find("no shard of the set \"sitemap\""), std::string::npos)
      << none.err;
}

}  // namespace
}  // namespace sitemill::testing
