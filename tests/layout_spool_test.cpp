// The stable layout's parking: every entry comes back once, in the leaf its
// fingerprint names, leaves in prefix order, entries of a leaf in a fixed
// order; deep sets are parked again one level down.
#include "generate/layout_spool.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "support/layout_spool_support.h"
#include "support/run.h"

namespace sitemill::detail {
namespace {

using testing::collected_leaf;
using collector = testing::leaf_collector;
using testing::layout_namer;

// The payload says its fingerprint, so each can be checked against its leaf.
std::string payload_of(std::uint64_t fp) { return std::to_string(fp); }

bool under(std::uint64_t fp, const layout_leaf& l) {
  return l.depth == 0 || (fp >> (64 - l.depth)) == l.prefix;
}

std::vector<std::uint64_t> fingerprints(std::size_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> fps(n);
  for (auto& f : fps) f = rng();
  return fps;
}

collector replayed(const std::vector<std::uint64_t>& fps,
                   const layout_limits& limits, const testing::temp_dir& d) {
  layout_spool spool(layout_namer(d));
  for (std::uint64_t fp : fps) EXPECT_TRUE(spool.add(fp, 100, payload_of(fp)));
  EXPECT_EQ(spool.entries(), fps.size());
  collector c;
  const status s = spool.replay(limits, c);
  EXPECT_TRUE(s) << s.message();
  return c;
}

void expect_every_entry_once_in_its_leaf(const collector& c,
                                         const std::vector<std::uint64_t>& fps,
                                         const layout_limits& limits) {
  std::multiset<std::string> seen;
  for (std::size_t i = 0; i < c.leaves.size(); ++i) {
    const auto& l = c.leaves[i];
    EXPECT_EQ(l.payloads.size(), l.leaf.tally.urls);
    EXPECT_TRUE(limits.fits(l.leaf.tally)) << leaf_path(l.leaf);
    for (const auto& p : l.payloads) {
      EXPECT_TRUE(under(std::stoull(p), l.leaf))
          << p << " in " << leaf_path(l.leaf);
      seen.insert(p);
    }
    if (i > 0) {  // prefix order: paths sort as strings
      EXPECT_LT(leaf_path(c.leaves[i - 1].leaf), leaf_path(l.leaf));
    }
  }
  std::multiset<std::string> expected;
  for (std::uint64_t fp : fps) expected.insert(payload_of(fp));
  EXPECT_EQ(seen, expected);
}

TEST(LayoutSpool, EveryEntryComesBackOnceInTheLeafItsFingerprintNames) {
  testing::temp_dir d;
  const auto fps = fingerprints(20'000, 1);
  const layout_limits limits{3'000, 1'000'000};
  const collector c = replayed(fps, limits, d);
  EXPECT_EQ(c.leaves.size(), 8u);  // 20,000 / 2^3 = 2,500 each
  expect_every_entry_once_in_its_leaf(c, fps, limits);
}

TEST(LayoutSpool, ALeafKeepsItsEntriesInTheOrderTheyCame) {
  testing::temp_dir d;
  // All in one partition, so one leaf, in the order added.
  std::vector<std::uint64_t> fps;
  for (std::uint64_t i = 0; i < 50; ++i) fps.push_back((i * 7919) % 1000);
  const collector c = replayed(fps, {1'000, 1'000'000}, d);
  ASSERT_EQ(c.leaves.size(), 1u);
  for (std::size_t i = 0; i < fps.size(); ++i)
    EXPECT_EQ(c.leaves[0].payloads[i], payload_of(fps[i]));
}

// A leaf over many partitions (here the root, over all 256) still hands its
// entries back in the order they came, at the first level and below it.
TEST(LayoutSpool, ALeafOverManyPartitionsKeepsTheOrderTheyCame) {
  testing::temp_dir d;
  const auto fps = fingerprints(5'000, 3);
  const collector c = replayed(fps, {5'000, 1'000'000}, d);
  ASSERT_EQ(c.leaves.size(), 1u);
  ASSERT_EQ(c.leaves[0].payloads.size(), fps.size());
  for (std::size_t i = 0; i < fps.size(); ++i)
    EXPECT_EQ(c.leaves[0].payloads[i], payload_of(fps[i])) << i;
  // 12 bits deep: leaves below a partition parked again keep it too.
  const auto deep = fingerprints(40'000, 4);
  const collector cd = replayed(deep, {10, 1'000'000}, d);
  std::map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < deep.size(); ++i) index[payload_of(deep[i])] = i;
  for (const auto& l : cd.leaves)
    for (std::size_t k = 1; k < l.payloads.size(); ++k)
      EXPECT_LT(index[l.payloads[k - 1]], index[l.payloads[k]]);
}

TEST(LayoutSpool, APartitionOverAFileIsParkedAgainOneLevelDown) {
  testing::temp_dir d;
  // 40,000 URLs at 10 per file: about 4,000 leaves, 12 bits deep, so every
  // partition of the first level is planned again on its own.
  const auto fps = fingerprints(40'000, 2);
  const layout_limits limits{10, 1'000'000};
  const collector c = replayed(fps, limits, d);
  EXPECT_GT(c.leaves.size(), 4'000u);
  int deepest = 0;
  for (const auto& l : c.leaves) deepest = std::max(deepest, l.leaf.depth);
  EXPECT_GT(deepest, 8);
  expect_every_entry_once_in_its_leaf(c, fps, limits);
  // The partition files are removed as they are read.
  EXPECT_TRUE(testing::list_files(d.path()).empty());
}

// Each partition parked again fills up to 256 files one level down; those
// are reused from partition to partition (creating a file costs more than
// filling it), so the run creates about 256 files a level, not 256 a
// partition parked again (about 65,000 here before).
TEST(LayoutSpool, LevelsBelowReuseTheirFilesFromPartitionToPartition) {
  testing::temp_dir d;
  const auto fps = fingerprints(40'000, 2);
  const layout_limits limits{10, 1'000'000};
  std::size_t created = 0;
  layout_spool spool([&](std::string_view what) {
    return d / (std::to_string(created++) + "-" + std::string(what));
  });
  for (std::uint64_t fp : fps) ASSERT_TRUE(spool.add(fp, 100, payload_of(fp)));
  collector c;
  const status s = spool.replay(limits, c);
  ASSERT_TRUE(s) << s.message();
  expect_every_entry_once_in_its_leaf(c, fps, limits);
  EXPECT_GT(c.leaves.size(), 4'000u);
  EXPECT_LE(created, 2u * 256u) << "one set of files for the levels below";
  EXPECT_TRUE(testing::list_files(d.path()).empty());
}

// The level below borrows the level above's buffer (a sixteenth reads the
// partition, the rest are its slices): entries larger than a slice, or than
// the reading window, still come back whole, once, in their leaf and order.
TEST(LayoutSpool, ALevelBelowOnTheBorrowedBufferGivesEveryEntryBackWhole) {
  testing::temp_dir d;
  const auto fps = fingerprints(3'000, 5);
  layout_spool spool(layout_namer(d));
  std::map<std::uint64_t, std::string> bodies;
  for (std::size_t i = 0; i < fps.size(); ++i) {
    // Most a few KiB, so that a partition's records fill the reading window
    // while the level below fills its slices; every 50th past a 15 KiB
    // slice, every 500th past the 256 KiB window.
    const std::size_t bytes = i % 500 == 0  ? 280'000
                              : i % 50 == 0 ? 16'000
                                            : 2'000 + (i * 7919) % 4'000;
    std::string body(bytes, static_cast<char>('a' + i % 26));
    body += payload_of(fps[i]);
    bodies[fps[i]] = body;
    ASSERT_TRUE(spool.add(fps[i], 100, body));
  }
  collector c;
  ASSERT_TRUE(spool.replay({4, 1'000'000'000}, c));  // partitions again
  std::size_t seen = 0;
  int deepest = 0;
  for (const auto& l : c.leaves) {
    deepest = std::max(deepest, l.leaf.depth);
    for (const auto& p : l.payloads) {
      const std::uint64_t fp =
          std::stoull(p.substr(p.find_first_of("0123456789")));
      EXPECT_EQ(p, bodies.at(fp));
      EXPECT_TRUE(under(fp, l.leaf));
      ++seen;
    }
  }
  EXPECT_GT(deepest, 8);
  EXPECT_EQ(seen, fps.size());
  EXPECT_TRUE(testing::list_files(d.path()).empty());
}

TEST(LayoutSpool, UrlsSharingAllTheirBitsAreOneLeafOverTheLimits) {
  testing::temp_dir d;
  const std::vector<std::uint64_t> fps(5, 0xfeedfacecafebeefull);
  const collector c = replayed(fps, {2, 1'000'000}, d);
  ASSERT_EQ(c.leaves.size(), 1u);
  EXPECT_EQ(c.leaves[0].leaf.depth, 64);
  EXPECT_EQ(c.leaves[0].payloads.size(), 5u);
}

TEST(LayoutSpool, AReaderThatFailsStopsTheReplay) {
  testing::temp_dir d;
  layout_spool spool(layout_namer(d));
  for (std::uint64_t fp : fingerprints(1'000, 3))
    ASSERT_TRUE(spool.add(fp, 100, "x"));
  struct failing : layout_spool::reader {
    int entries = 0;
    status begin(const layout_leaf&) override { return {}; }
    status entry(std::string_view) override {
      return ++entries == 10 ? status{error{"disk full"}} : status{};
    }
    status end(const layout_leaf&) override { return {}; }
  } r;
  const status s = spool.replay({100, 1'000'000}, r);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.err().message, "disk full");
  EXPECT_EQ(r.entries, 10);
}

}  // namespace
}  // namespace sitemill::detail
