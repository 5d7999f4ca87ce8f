// The stable layout's planner: which trie leaves a section's tallies make,
// and that a small change to the set moves few of them.
#include "generate/stable_layout.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <tuple>
#include <vector>

namespace sitemill::detail {
namespace {

constexpr int bits = 8;
constexpr layout_limits sitemap_limits{50'000, 52'428'800 - 200};

// Tallies of `n` pseudo-random fingerprints of about 120 bytes each, as the
// top `bits` bits of XXH3 spread real URLs.
std::vector<prefix_tally> random_tallies(std::uint64_t n, std::uint32_t seed) {
  std::vector<prefix_tally> t(std::size_t{1} << bits);
  std::mt19937_64 rng(seed);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t fp = rng();
    auto& bucket = t[fp >> (64 - bits)];
    bucket.urls += 1;
    bucket.bytes += 100 + fp % 40;
  }
  return t;
}

using leaf_key = std::tuple<std::uint64_t, int, std::uint64_t, std::uint64_t>;
std::set<leaf_key> keys(const std::vector<layout_leaf>& leaves) {
  std::set<leaf_key> k;
  for (const auto& l : leaves)
    k.insert({l.prefix, l.depth, l.tally.urls, l.tally.bytes});
  return k;
}

TEST(StableLayout, ASetThatFitsIsOneLeafAtTheRoot) {
  auto t = random_tallies(40'000, 1);
  auto leaves = plan_leaves(t, bits, sitemap_limits);
  ASSERT_EQ(leaves.size(), 1u);
  EXPECT_EQ(leaves[0].depth, 0);
  EXPECT_EQ(leaves[0].tally.urls, 40'000u);
  EXPECT_EQ(leaf_path(leaves[0]), "");
  EXPECT_EQ(leaves[0].first_bucket, 0u);
  EXPECT_EQ(leaves[0].end_bucket, 256u);
}

TEST(StableLayout, AnEmptySectionHasNoLeaf) {
  std::vector<prefix_tally> t(256);
  EXPECT_TRUE(plan_leaves(t, bits, sitemap_limits).empty());
}

TEST(StableLayout, AMillionUrlsSplitIntoThirtyTwoHalvesOfHalves) {
  auto t = random_tallies(1'000'000, 2);
  auto leaves = plan_leaves(t, bits, sitemap_limits);
  // 1,000,000 / 2^5 = 31,250 per leaf; 2^4 would be 62,500, over the limit.
  ASSERT_EQ(leaves.size(), 32u);
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    EXPECT_EQ(leaves[i].depth, 5);
    EXPECT_EQ(leaves[i].prefix, i);  // prefix order
    EXPECT_LE(leaves[i].tally.urls, sitemap_limits.max_urls);
    total += leaves[i].tally.urls;
  }
  EXPECT_EQ(total, 1'000'000u);
  EXPECT_EQ(leaf_path(leaves[0]), "00000");
  EXPECT_EQ(leaf_path(leaves[6]), "00110");
}

TEST(StableLayout, TheByteLimitSplitsAsTheUrlLimitDoes) {
  std::vector<prefix_tally> t(256, prefix_tally{10, 1000});
  // 2,560 URLs fit by count, but 256,000 bytes do not fit in 100,000.
  auto leaves = plan_leaves(t, bits, layout_limits{50'000, 100'000});
  ASSERT_EQ(leaves.size(), 4u);  // 64,000 bytes each
  for (const auto& l : leaves) EXPECT_EQ(l.tally.bytes, 64'000u);
}

TEST(StableLayout, UnevenSetsSplitOnlyWhereTheyAreFull) {
  std::vector<prefix_tally> t(256);
  t[0] = {60'000, 6'000'000};  // one crowded bucket in the lower half
  t[200] = {10, 1000};         // and a few URLs in the upper half
  auto leaves = plan_leaves(t, bits, sitemap_limits);
  ASSERT_EQ(leaves.size(), 2u);
  // The crowded bucket cannot be split by these tallies: it comes back as a
  // full-depth leaf over the limit, for the caller to tally one level down.
  EXPECT_EQ(leaves[0].depth, bits);
  EXPECT_EQ(leaves[0].prefix, 0u);
  EXPECT_FALSE(sitemap_limits.fits(leaves[0].tally));
  EXPECT_EQ(leaf_path(leaves[1]), "1");
  EXPECT_EQ(leaves[1].tally.urls, 10u);
}

// The property the layout exists for, at the planner: one URL more or less
// changes the tally of one leaf and leaves the others as they were.
TEST(StableLayout, OneUrlAddedOrRemovedChangesOneLeaf) {
  const auto before = random_tallies(1'000'000, 3);
  const auto leaves_before = keys(plan_leaves(before, bits, sitemap_limits));
  for (std::uint64_t bucket : {0u, 77u, 255u}) {
    for (int delta : {+1, -1}) {
      auto after = before;
      after[bucket].urls += delta;
      after[bucket].bytes += delta * 120;
      const auto leaves_after = keys(plan_leaves(after, bits, sitemap_limits));
      std::vector<leaf_key> gone, added;
      for (const auto& k : leaves_before)
        if (!leaves_after.count(k)) gone.push_back(k);
      for (const auto& k : leaves_after)
        if (!leaves_before.count(k)) added.push_back(k);
      EXPECT_EQ(gone.size(), 1u) << bucket << " " << delta;
      EXPECT_EQ(added.size(), 1u) << bucket << " " << delta;
    }
  }
}

TEST(StableLayout, AFullLeafThatOverflowsBecomesItsTwoHalves) {
  // Two leaves at depth 1, each exactly at the URL limit.
  std::vector<prefix_tally> t(256, prefix_tally{390, 39'000});
  t[0].urls += 80;  // 128 * 390 + 80 = 50,000 in the lower half
  auto leaves = plan_leaves(t, bits, sitemap_limits);
  ASSERT_EQ(leaves.size(), 2u);
  EXPECT_EQ(leaves[0].tally.urls, 50'000u);
  t[5].urls += 1;  // one more URL in the lower half
  leaves = plan_leaves(t, bits, sitemap_limits);
  ASSERT_EQ(leaves.size(), 3u);
  EXPECT_EQ(leaf_path(leaves[0]), "00");
  EXPECT_EQ(leaf_path(leaves[1]), "01");
  EXPECT_EQ(leaf_path(leaves[2]), "1");  // untouched
}

}  // namespace
}  // namespace sitemill::detail
