// The one fingerprint table behind url_set (generate) and loc_fingerprints
// (check): growth keeps every fingerprint and its payload, within budget.
#include "detail/fingerprint_table.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace sitemill::detail {
namespace {

// Spread like hash output, never 0 (0 marks an empty slot).
std::uint64_t fingerprint(std::uint64_t i) {
  return (i + 1) * 0x9E3779B97F4A7C15ull;
}

TEST(FingerprintTable, KeepsPayloadsAcrossGrowth) {
  fingerprint_table<std::uint64_t> t(2);
  for (std::uint64_t i = 0; i < 100'000; ++i) {
    const auto [slot, added] = t.insert(fingerprint(i));
    ASSERT_TRUE(added) << i;
    t.payload(slot) = i + 7;
  }
  EXPECT_EQ(t.size(), 100'000u);
  for (std::uint64_t i = 0; i < 100'000; i += 13) {
    const std::size_t slot = t.find(fingerprint(i));
    ASSERT_NE(slot, t.npos) << i;
    EXPECT_EQ(t.payload(slot), i + 7) << i;
    const auto [again, added] = t.insert(fingerprint(i));
    EXPECT_FALSE(added) << i;
    EXPECT_EQ(again, slot) << i;
  }
  EXPECT_EQ(t.find(fingerprint(100'000)), t.npos);
  EXPECT_EQ(t.size(), 100'000u);
}

// Check's copy used to double at half load; both now grow by 1.5x before
// 80%: 10 to 15 bytes of fingerprint per entry, plus the payload's share.
TEST(FingerprintTable, StaysBetween53And80PercentFull) {
  fingerprint_table<> set;
  fingerprint_table<std::uint64_t> lines;
  for (std::uint64_t i = 0; i < 200'000; ++i) {
    set.insert(fingerprint(i));
    lines.insert(fingerprint(i));
    if (i < 1'000) continue;  // the first 64 slots are a fixed cost
    const double n = static_cast<double>(i + 1);
    ASSERT_LE(static_cast<double>(set.memory_bytes()) / n, 15.1) << i;
    ASSERT_GE(static_cast<double>(set.memory_bytes()) / n, 10.0) << i;
    ASSERT_LE(static_cast<double>(lines.memory_bytes()) / n, 30.2) << i;
  }
}

}  // namespace
}  // namespace sitemill::detail
