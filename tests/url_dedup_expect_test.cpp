// Duplicate detection's set sized once from an estimate
// (url_dedup::expect): the verdicts are the same with or without it, an
// estimate met grows no table, and no estimate takes the set past three
// quarters of its budget (which would freeze it early).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "detail/fingerprint_table.h"
#include "detail/url_set.h"
#include "generate/url_dedup.h"
#include "support/run.h"

namespace sitemill::detail {
namespace {

using testing::temp_dir;

url_dedup::temp_namer namer(const temp_dir& d) {
  return [dir = d.path(), n = 0](std::string_view what) mutable {
    return dir + "/" + std::string(what) + "." + std::to_string(n++);
  };
}

// `count` URLs, one in five a repeat of an earlier one.
std::vector<std::string> urls_with_repeats(std::size_t count) {
  std::mt19937_64 rng(11);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0 && rng() % 5 == 0)
      out.push_back(out[rng() % i]);
    else
      out.push_back("https://www.example.com/p/" + std::to_string(rng()));
  }
  return out;
}

std::vector<url_dedup::verdict> verdicts(url_dedup& d,
                                         const std::vector<std::string>& urls) {
  std::vector<url_dedup::verdict> out;
  for (const auto& u : urls) {
    auto v = d.add(url_set::hash(u));
    EXPECT_TRUE(v);
    out.push_back(*v);
  }
  return out;
}

TEST(UrlDedupExpect, GivesTheSameVerdictsAsASetLeftToGrow) {
  const auto urls = urls_with_repeats(60000);
  temp_dir dir;
  for (bool positions : {false, true}) {
    for (std::uint64_t estimate :
         {0ull, 1000ull, 48000ull, 60000ull, 10000000ull}) {
      url_dedup grown(std::size_t{16} << 20, namer(dir), positions);
      url_dedup sized(std::size_t{16} << 20, namer(dir), positions);
      sized.expect(estimate);
      EXPECT_EQ(verdicts(sized, urls), verdicts(grown, urls))
          << "estimate " << estimate << " positions " << positions;
      EXPECT_EQ(sized.in_memory(), grown.in_memory());
      EXPECT_FALSE(sized.spilling());
    }
  }
}

TEST(UrlDedupExpect, AnEstimateMetGrowsNoTable) {
  const std::size_t count = 200000;
  temp_dir dir;
  url_dedup d(std::size_t{16} << 20, namer(dir));
  d.expect(count);
  const std::size_t sized = d.memory_bytes();
  for (std::size_t i = 0; i < count; ++i)
    ASSERT_EQ(*d.add(url_set::hash("https://a.example/" + std::to_string(i))),
              url_dedup::verdict::first);
  EXPECT_EQ(d.memory_bytes(), sized);
  // About 13 bytes per URL: the usual load, no more.
  EXPECT_LT(sized, count * 14);
}

TEST(UrlDedupExpect, NoEstimateTakesTheSetPastThreeQuartersOfTheBudget) {
  temp_dir dir;
  for (std::size_t budget : {std::size_t{0}, std::size_t{1} << 16,
                             std::size_t{1} << 20, std::size_t{16} << 20}) {
    for (bool positions : {false, true}) {
      url_dedup d(budget, namer(dir), positions);
      const std::size_t before = d.memory_bytes();
      d.expect(std::uint64_t{1} << 40);
      EXPECT_LE(d.memory_bytes(), std::max(before, budget / 4 * 3))
          << "budget " << budget << " positions " << positions;
      EXPECT_FALSE(d.spilling());
    }
  }
}

// Fingerprints spread as a hash's are (the table's slot is their top bits).
std::uint64_t fingerprint(std::uint64_t i) { return i * 0x9E3779B97F4A7C15u; }

TEST(FingerprintTable, ReserveKeepsWhatItHoldsAndStopsTheGrowing) {
  fingerprint_table<std::uint64_t> t;
  for (std::uint64_t i = 1; i <= 1000; ++i)
    t.payload(t.insert(fingerprint(i)).first) = i * 3;
  t.reserve(50000);
  const std::size_t reserved = t.memory_bytes();
  for (std::uint64_t i = 1; i <= 1000; ++i) {
    const std::size_t slot = t.find(fingerprint(i));
    ASSERT_NE(slot, t.npos);
    EXPECT_EQ(t.payload(slot), i * 3);
  }
  for (std::uint64_t i = 1001; i <= 50000; ++i)
    ASSERT_TRUE(t.insert(fingerprint(i)).second);
  EXPECT_EQ(t.memory_bytes(), reserved);
  EXPECT_EQ(t.size(), 50000u);
  t.reserve(10);  // never shrinks
  EXPECT_EQ(t.memory_bytes(), reserved);
}

}  // namespace
}  // namespace sitemill::detail
