// generate under a memory budget: a run whose URLs outgrow it judges the
// rest on disk, and publishes the same bytes as a run that kept them all in
// memory, with hreflang clusters too.
#include <gtest/gtest.h>

#include <fstream>

#include "sitemill/generate/generate.h"
#include "support/run.h"

namespace sitemill {
namespace {

using testing::temp_dir;

struct counting_observer : generate_observer {
  std::vector<std::string> warnings;
  void warning(const record_issue& r) override {
    warnings.push_back(std::to_string(r.line) + ": " + r.reason);
  }
};

struct run_result {
  generate_report report;
  std::map<std::string, std::string> files;
  std::vector<std::string> warnings;
};

run_result run_with(const std::string& input, std::size_t budget,
                    bool gzip = true,
                    void (*change)(generate_options&) = nullptr) {
  temp_dir d;
  generate_options o;
  o.sources.push_back(list_source(input));
  o.base_url = "https://www.example.com/";
  o.out_dir = d / "out";
  o.max_urls = 4'000;
  o.gzip = gzip;
  o.memory_budget = budget;
  if (change != nullptr) change(o);
  counting_observer obs;
  run_result r{generate(o, obs), testing::snapshot(d / "out"),
               std::move(obs.warnings)};
  EXPECT_EQ(r.report.outcome, generate_outcome::published) << r.report.message;
  return r;
}

void expect_same_set(const run_result& in_memory, const run_result& spilled) {
  EXPECT_EQ(spilled.report.written, in_memory.report.written);
  EXPECT_EQ(spilled.report.duplicates, in_memory.report.duplicates);
  EXPECT_EQ(spilled.report.records, in_memory.report.records);
  EXPECT_EQ(spilled.warnings, in_memory.warnings);
  ASSERT_EQ(spilled.files.size(), in_memory.files.size());
  for (const auto& [name, bytes] : in_memory.files) {
    auto it = spilled.files.find(name);
    ASSERT_NE(it, spilled.files.end()) << name << " missing past the budget";
    EXPECT_TRUE(it->second == bytes) << name << " differs past the budget";
  }
  EXPECT_EQ(in_memory.report.spilled, 0u);
  EXPECT_GT(spilled.report.spilled, 0u) << "the budget was never reached";
  EXPECT_GT(spilled.report.spill_bytes, 0u);
}

// 30,000 URLs with repeats of early and late ones, some with lastmods, so
// that several files and an index are written.
TEST(GenerateBudget, PastTheBudgetTheSameBytesArePublished) {
  temp_dir d;
  {
    std::ofstream out(d / "urls.tsv");
    out << "loc\tlastmod\n";
    for (int i = 0; i < 30'000; ++i) {
      out << "https://www.example.com/p/" << i << "\t"
          << (i % 3 ? "2025-01-0" + std::to_string(1 + i % 9) : "") << "\n";
      if (i % 7 == 0) out << "https://www.example.com/p/" << i / 2 << "\t\n";
      if (i % 11 == 0)
        out << "https://www.example.com/p/" << (i * 7) % 30'000 << "\t\n";
    }
  }
  const run_result in_memory = run_with(d / "urls.tsv", std::size_t{64} << 20);
  EXPECT_GT(in_memory.report.duplicates, 5'000u);
  for (std::size_t budget : {std::size_t{0}, std::size_t{160} << 10}) {
    SCOPED_TRACE(budget);
    expect_same_set(in_memory, run_with(d / "urls.tsv", budget));
  }
  // Plain files too, where the last file is still open when the budget is
  // reached and the deferred entries continue it.
  expect_same_set(run_with(d / "urls.tsv", std::size_t{64} << 20, false),
                  run_with(d / "urls.tsv", 0, false));
}

// Two sets, each its own stable layout: each leaves out the repeats among
// its own deferred entries, whose numbers interleave with the other's.
TEST(GenerateBudget, EachSetLeavesOutItsOwnRepeatsPastTheBudget) {
  temp_dir d;
  {
    std::ofstream out(d / "urls.txt");
    for (int i = 0; i < 24'000; ++i) {
      const char* host = i % 3 == 0 ? "shop" : "www";
      out << "https://" << host << ".example.com/p/" << i << "\n";
      if (i % 5 == 0)
        out << "https://" << (i % 2 ? "shop" : "www") << ".example.com/p/"
            << i / 2 << "\n";
    }
  }
  auto two_sets = [](generate_options& o) {
    o.more_base_urls = {"https://shop.example.com/"};
  };
  const run_result in_memory =
      run_with(d / "urls.txt", std::size_t{64} << 20, true, two_sets);
  EXPECT_GT(in_memory.report.duplicates, 1'000u);
  EXPECT_EQ(in_memory.report.sets.size(), 2u);
  for (std::size_t budget : {std::size_t{0}, std::size_t{100} << 10}) {
    SCOPED_TRACE(budget);
    const run_result spilled = run_with(d / "urls.txt", budget, true, two_sets);
    expect_same_set(in_memory, spilled);
    ASSERT_EQ(spilled.report.sets.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i)
      EXPECT_EQ(spilled.report.sets[i].written,
                in_memory.report.sets[i].written);
  }
}

// Clusters whose pages come before and after the budget is reached, a
// repeated page whose second record names other alternates (the first
// record's win), and a page named only by a deferred one: the same
// clusters, return links and warnings either way.
TEST(GenerateBudget, HreflangClustersAreCompletedTheSamePastTheBudget) {
  temp_dir d;
  {
    std::ofstream out(d / "pages.jsonl");
    auto page = [&](const std::string& loc, const std::string& alternates) {
      out << "{\"loc\":\"https://www.example.com/" << loc << "\"";
      if (!alternates.empty()) out << ",\"alternates\":{" << alternates << "}";
      out << "}\n";
    };
    for (int i = 0; i < 2'000; ++i) page("plain/" + std::to_string(i), "");
    for (int i = 0; i < 8'000; ++i) {
      const std::string n = std::to_string(i);
      page("en/" + n, "\"de\":\"https://www.example.com/de/" + n + "\"");
      if (i % 2) page("de/" + n, "");
      if (i % 5 == 0)  // a repeat naming another alternate: ignored
        page("en/" + n, "\"fr\":\"https://www.example.com/fr/" + n + "\"");
    }
  }
  const run_result in_memory =
      run_with(d / "pages.jsonl", std::size_t{64} << 20);
  EXPECT_FALSE(in_memory.warnings.empty())
      << "the pages missing from the input are reported";
  // 0: every page after the first waits; just over the empty set's 128 KiB:
  // the budget is reached within the clusters (after about 12,000 URLs),
  // while entries are already spooled for them.
  for (std::size_t budget : {std::size_t{0}, (std::size_t{128} << 10) + 1}) {
    SCOPED_TRACE(budget);
    const run_result spilled = run_with(d / "pages.jsonl", budget);
    expect_same_set(in_memory, spilled);
    if (budget > 0) {
      EXPECT_LT(spilled.report.spilled + 2'000, spilled.report.records)
          << "the budget was reached before the clusters began";
    }
  }
}

// The first page with alternates comes after the budget was reached: the
// entries already deferred move behind the ones read back.
TEST(GenerateBudget, ClustersThatStartAfterTheBudgetKeepTheOrder) {
  temp_dir d;
  {
    std::ofstream out(d / "pages.jsonl");
    for (int i = 0; i < 9'000; ++i) {
      out << "{\"loc\":\"https://www.example.com/p/" << i << "\"";
      if (i >= 8'000)
        out << ",\"alternates\":{\"de\":\"https://www.example.com/de/p/" << i
            << "\"}";
      out << "}\n";
      if (i % 4 == 0)
        out << "{\"loc\":\"https://www.example.com/p/" << i / 3 << "\"}\n";
    }
  }
  expect_same_set(run_with(d / "pages.jsonl", std::size_t{64} << 20),
                  run_with(d / "pages.jsonl", 0));
}

}  // namespace
}  // namespace sitemill
