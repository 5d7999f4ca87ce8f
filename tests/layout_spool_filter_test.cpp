// The stable layout read back through a filter (layout_spool::filter): the
// leaves and their entries are exactly those of a spool that was only ever
// given the entries kept, whether a partition is tallied again (it might fit
// a file without the entries left out) or parked a level down (it cannot);
// each entry left out is told once, a partition left out whole included; and
// the filter is asked about a partition's entries in the order they came.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "generate/layout_spool.h"
#include "support/layout_spool_support.h"
#include "support/run.h"

namespace sitemill::detail {
namespace {

using testing::collected_leaf;
using collector = testing::leaf_collector;

// A record: "K" (kept) or "R" (left out), then its number among all
// entries; a left-out entry marks 0x80, which no kept one does, so a leaf's
// marks show whether its tally counted one.
struct entry {
  std::uint64_t fingerprint;
  std::uint32_t size;
  std::string record;
};

std::uint8_t mark_of(std::string_view record, std::string_view) {
  return record[0] == 'R' ? 0x80 : 0x01;
}

std::size_t partition_of(std::uint64_t fp) { return fp >> 56; }

// Leaves out the "R" records, checking that each partition is asked in
// the order its entries were added, from its start after each restart.
class test_filter final : public layout_spool::filter {
 public:
  explicit test_filter(const std::vector<entry>& entries) {
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (entries[i].record[0] == 'R')
        ++most_[partition_of(entries[i].fingerprint)];
  }
  std::uint64_t most_left_out(std::size_t p) override { return most_[p]; }
  status restart(std::size_t p) override {
    last_[p] = -1;
    ++restarts;
    return {};
  }
  result<bool> leaves_out(std::size_t p, std::string_view record) override {
    const long n = std::stol(std::string(record.substr(1)));
    EXPECT_GT(n, last_[p]) << "partition " << p << " asked out of order";
    last_[p] = n;
    return record[0] == 'R';
  }
  status left_out(std::string_view record) override {
    ++told[std::string(record)];
    return {};
  }
  std::map<std::string, int> told;
  int restarts = 0;

 private:
  std::map<std::size_t, std::uint64_t> most_;
  std::map<std::size_t, long> last_;
};

collector replay(const std::vector<entry>& entries, const layout_limits& limits,
                 bool kept_only, layout_spool::filter* f) {
  testing::temp_dir d;
  layout_spool spool(testing::layout_namer(d),
                     layout_spool::default_buffer_bytes, mark_of);
  for (const entry& e : entries) {
    if (!kept_only || e.record[0] == 'K') {
      EXPECT_TRUE(spool.add(e.fingerprint, e.size, e.record));
    }
  }
  collector c;
  const status s = spool.replay(limits, c, f);
  EXPECT_TRUE(s) << s.message();
  EXPECT_TRUE(testing::list_all(d.path()).empty()) << "files left";
  return c;
}

// `n` entries, one in `every` left out, and all of those in partitions
// [out_from, out_to); fingerprints random.
std::vector<entry> entries(std::size_t n, std::size_t every, std::uint32_t seed,
                           std::size_t out_from = 0, std::size_t out_to = 0) {
  std::mt19937_64 random(seed);
  std::vector<entry> out;
  for (std::size_t i = 0; i < n; ++i) {
    entry e;
    e.fingerprint = random();
    const std::size_t p = partition_of(e.fingerprint);
    const bool left_out =
        i % every == every - 1 || (p >= out_from && p < out_to);
    e.size = static_cast<std::uint32_t>(50 + random() % 100);
    e.record = (left_out ? "R" : "K") + std::to_string(i);
    out.push_back(std::move(e));
  }
  return out;
}

void expect_same_leaves(const collector& got, const collector& want) {
  ASSERT_EQ(got.leaves.size(), want.leaves.size());
  for (std::size_t i = 0; i < want.leaves.size(); ++i) {
    SCOPED_TRACE(i);
    const layout_leaf& g = got.leaves[i].leaf;
    const layout_leaf& w = want.leaves[i].leaf;
    EXPECT_EQ(g.prefix, w.prefix);
    EXPECT_EQ(g.depth, w.depth);
    EXPECT_EQ(g.tally.urls, w.tally.urls);
    EXPECT_EQ(g.tally.bytes, w.tally.bytes);
    EXPECT_EQ(g.tally.marks, w.tally.marks);
    EXPECT_EQ(got.leaves[i].payloads, want.leaves[i].payloads);
  }
}

void expect_told_once(const test_filter& f, const std::vector<entry>& all) {
  std::size_t left_out = 0;
  for (const entry& e : all) {
    if (e.record[0] != 'R') continue;
    ++left_out;
    auto it = f.told.find(e.record);
    ASSERT_NE(it, f.told.end()) << e.record << " never told";
    EXPECT_EQ(it->second, 1) << e.record;
  }
  EXPECT_EQ(f.told.size(), left_out);
}

// Replays `all` through the filter and, apart, only the entries it keeps:
// the same leaves, and each entry left out told once. Returns the filter's
// restarts.
int expect_filtered_as_kept(const std::vector<entry>& all,
                            const layout_limits& limits,
                            std::vector<collected_leaf>* leaves = nullptr) {
  test_filter f(all);
  const collector got = replay(all, limits, false, &f);
  const collector want = replay(all, limits, true, nullptr);
  expect_same_leaves(got, want);
  expect_told_once(f, all);
  if (leaves != nullptr) *leaves = want.leaves;
  return f.restarts;
}

// Few entries a partition: every partition might fit a file without its
// repeats, so each is tallied again. The partitions of one node of the trie
// (32 to 63, the fingerprints starting 001) are left out whole, so that no
// leaf reads them.
TEST(LayoutSpoolFilter, PartitionsThatMightFitAreTalliedAgain) {
  const auto all = entries(20'000, 7, 1, 32, 64);
  layout_limits limits{1'000, 400'000};
  std::vector<collected_leaf> leaves;
  EXPECT_GE(expect_filtered_as_kept(all, limits, &leaves), 2 * 255)
      << "partitions not tallied again";
  for (const collected_leaf& l : leaves) {
    const layout_leaf& leaf = l.leaf;
    const bool over_001 =
        leaf.depth < 3 ? (std::uint64_t{1} >> (3 - leaf.depth)) == leaf.prefix
                       : (leaf.prefix >> (leaf.depth - 3)) == 1;
    EXPECT_FALSE(over_001)
        << "a leaf over 001: the partitions left out whole are read by it";
  }
}

// Many entries a partition: each keeps more than a file's URLs, so it is
// parked a level down, where only what is kept is tallied.
TEST(LayoutSpoolFilter, PartitionsOverAFileAreParkedBelowWithWhatIsKept) {
  const auto all = entries(60'000, 3, 2);
  layout_limits limits{100, 1'000'000};
  std::vector<collected_leaf> leaves;
  EXPECT_LT(expect_filtered_as_kept(all, limits, &leaves), 300)
      << "partitions certainly over were tallied again";
  EXPECT_GT(leaves.size(), 256u);
}

// A partition at the edge: over a file with its repeats, within one
// without them, by bytes as well as by URLs.
TEST(LayoutSpoolFilter, APartitionThatFitsOnlyWithoutItsRepeatsIsOneLeaf) {
  std::vector<entry> all;
  for (std::uint64_t i = 0; i < 300; ++i) {
    // All in partition 5, spread over its low bits.
    const std::uint64_t fp =
        (std::uint64_t{5} << 56) | (i * 0x9e3779b97f4a7c1u >> 8);
    all.push_back({fp, 100, (i % 3 == 0 ? "R" : "K") + std::to_string(i)});
  }
  for (const layout_limits limits :
       {layout_limits{200, 1'000'000}, layout_limits{1'000, 20'000}}) {
    std::vector<collected_leaf> leaves;
    expect_filtered_as_kept(all, limits, &leaves);
    EXPECT_EQ(leaves.size(), 1u);
  }
}

}  // namespace
}  // namespace sitemill::detail
