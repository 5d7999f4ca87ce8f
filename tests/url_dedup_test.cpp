// Duplicate detection within a memory budget: the verdicts match an exact
// reference whatever the budget, partitions too large for it are split,
// and the spill files go when it does.
#include "generate/url_dedup.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <set>
#include <unordered_set>

#include "support/run.h"

namespace sitemill::detail {
namespace {

namespace fs = std::filesystem;
using testing::temp_dir;

url_dedup::temp_namer namer(const temp_dir& d) {
  return [dir = d.path(), n = 0](std::string_view what) mutable {
    return dir + "/" + std::string(what) + "." + std::to_string(n++);
  };
}

std::string url(std::uint64_t i) {
  return "https://www.example.com/p/" + std::to_string(i);
}

// Judges `urls` in order and returns, for each, whether it was kept: the
// first verdicts, then the deferred ones resolved.
std::vector<bool> judge(url_dedup& dedup,
                        const std::vector<std::string>& urls) {
  std::vector<bool> kept(urls.size());
  std::vector<std::size_t> deferred_at;  // index into urls, by number
  for (std::size_t i = 0; i < urls.size(); ++i) {
    auto v = dedup.add(url_set::hash(urls[i]));
    EXPECT_TRUE(v) << v.err().message;
    if (*v == url_dedup::verdict::first) kept[i] = true;
    if (*v == url_dedup::verdict::deferred) deferred_at.push_back(i);
  }
  EXPECT_EQ(dedup.deferred(), deferred_at.size());
  EXPECT_TRUE(dedup.resolve(false));
  for (std::size_t n = 0; n < deferred_at.size(); ++n) {
    auto repeat = dedup.is_repeat(n);
    EXPECT_TRUE(repeat);
    kept[deferred_at[n]] = !*repeat;
  }
  return kept;
}

std::vector<bool> reference(const std::vector<std::string>& urls) {
  std::unordered_set<std::string> seen;
  std::vector<bool> kept;
  for (const auto& u : urls) kept.push_back(seen.insert(u).second);
  return kept;
}

// Records with repeats at every distance: of early URLs (judged in memory)
// and of late ones (deferred), in a fixed pseudo-random order.
std::vector<std::string> with_repeats(std::size_t n, std::size_t distinct) {
  std::mt19937_64 random(42);
  std::vector<std::string> urls;
  for (std::size_t i = 0; i < n; ++i)
    urls.push_back(url(i < distinct ? i : random() % distinct));
  std::shuffle(urls.begin() + static_cast<std::ptrdiff_t>(distinct / 2),
               urls.end(), random);
  return urls;
}

TEST(UrlDedup, WithinTheBudgetEveryVerdictIsGivenAtOnce) {
  temp_dir d;
  url_dedup dedup(std::size_t{64} << 20, namer(d));
  const auto urls = with_repeats(20'000, 12'000);
  EXPECT_EQ(judge(dedup, urls), reference(urls));
  EXPECT_FALSE(dedup.spilling());
  EXPECT_EQ(dedup.deferred(), 0u);
  EXPECT_TRUE(testing::list_all(d.path()).empty()) << "spilled within budget";
}

TEST(UrlDedup, PastTheBudgetTheVerdictsAreTheSameAsInMemory) {
  for (std::size_t budget : {std::size_t{0}, std::size_t{200} << 10}) {
    SCOPED_TRACE(budget);
    temp_dir d;
    url_dedup dedup(budget, namer(d));
    const auto urls = with_repeats(120'000, 70'000);
    const std::vector<bool> kept = judge(dedup, urls);
    EXPECT_EQ(kept, reference(urls));
    EXPECT_TRUE(dedup.spilling());
    EXPECT_GT(dedup.deferred(), 0u);
    EXPECT_GT(dedup.repeats(), 0u) << "no repeat among the deferred: the "
                                      "test does not reach the disk path";
    EXPECT_GT(dedup.in_memory(), 0u);
    EXPECT_GT(dedup.disk_bytes(), dedup.deferred() * 16 - 1);
  }
}

TEST(UrlDedup, ARepeatOfAUrlJudgedInMemoryIsNotDeferred) {
  temp_dir d;
  url_dedup dedup(0, namer(d));
  ASSERT_EQ(*dedup.add(url_set::hash(url(1))), url_dedup::verdict::first);
  EXPECT_EQ(*dedup.add(url_set::hash(url(1))), url_dedup::verdict::repeat);
  EXPECT_EQ(*dedup.add(url_set::hash(url(2))), url_dedup::verdict::deferred);
  EXPECT_EQ(*dedup.add(url_set::hash(url(1))), url_dedup::verdict::repeat);
  EXPECT_EQ(dedup.deferred(), 1u);
  EXPECT_TRUE(dedup.contains_in_memory(url(1)));
  EXPECT_FALSE(dedup.contains_in_memory(url(2)));
}

// A deferred URL is judged on all 72 bits of its key, as in memory: the
// fingerprint's top 8 choose its partition, the other 56 and the shard's 8
// tell it apart there.
TEST(UrlDedup, DeferredUrlsAreToldApartByEveryBitOfTheirKey) {
  temp_dir d;
  url_dedup dedup(0, namer(d));
  ASSERT_EQ(*dedup.add({12345, 7}), url_dedup::verdict::first);
  constexpr std::uint64_t fp = 0x0123'4567'89ab'cdefu;
  constexpr std::uint64_t other_top = fp ^ (std::uint64_t{0x80} << 56);
  const std::vector<url_set::key> keys = {{fp, 1},     {fp, 2}, {other_top, 1},
                                          {fp ^ 1, 1}, {fp, 1}, {other_top, 1}};
  for (const url_set::key& k : keys)
    ASSERT_EQ(*dedup.add(k), url_dedup::verdict::deferred);
  EXPECT_NE(url_dedup::partition_of(fp), url_dedup::partition_of(other_top));
  EXPECT_EQ(url_dedup::partition_key({fp, 1}),
            url_dedup::partition_key({other_top, 1}));
  ASSERT_TRUE(dedup.resolve(false));
  std::vector<bool> repeats;
  for (std::uint64_t n = 0; n < keys.size(); ++n)
    repeats.push_back(*dedup.is_repeat(n));
  EXPECT_EQ(repeats,
            (std::vector<bool>{false, false, false, false, true, true}));
}

// A partition whose table would not fit is split on disk (here: 2M
// deferred URLs, about 7,800 per partition, against 64 KiB tables), and
// the answers can be read twice.
TEST(UrlDedup, SplitsPartitionsLargerThanTheBudgetAndRewinds) {
  temp_dir d;
  url_dedup dedup(0, namer(d));
  constexpr std::uint64_t n = 2'000'000;
  std::set<std::uint64_t> repeats;
  std::uint64_t number = 0;
  (void)dedup.add(url_set::hash(url(0)));
  for (std::uint64_t i = 1; i <= n; ++i) {
    const bool again = i % 1'000 == 0;  // repeats URL i - 500
    auto v = dedup.add(url_set::hash(url(again ? i - 500 : i)));
    ASSERT_TRUE(v);
    ASSERT_EQ(*v, url_dedup::verdict::deferred);
    if (again) repeats.insert(number);
    ++number;
  }
  ASSERT_TRUE(dedup.resolve(false));
  EXPECT_EQ(dedup.repeats(), repeats.size());
  EXPECT_GT(dedup.disk_bytes(), 2 * n * 16)
      << "every record written twice: once deferred, once split";
  for (int pass = 0; pass < 2; ++pass) {
    std::uint64_t found = 0, wrong = 0;
    for (std::uint64_t k = 0; k < number; ++k) {
      auto r = dedup.is_repeat(k);
      ASSERT_TRUE(r);
      found += *r;
      wrong += *r != repeats.contains(k);
    }
    EXPECT_EQ(found, repeats.size());
    EXPECT_EQ(wrong, 0u);
    ASSERT_TRUE(dedup.rewind());
  }
  EXPECT_LT(dedup.memory_bytes(), std::size_t{1} << 20)
      << "the split partitions' runs were not merged into one each";
}

// The same answers, asked partition by partition in any order of the
// partitions, twice, as the stable layout asks them; then all at once again.
TEST(UrlDedup, AnswersPartitionByPartitionAsWellAsInOneOrder) {
  for (const bool positions : {false, true}) {
    SCOPED_TRACE(positions);
    temp_dir d;
    url_dedup dedup(0, namer(d), positions);
    const auto urls = with_repeats(60'000, 30'000);
    std::vector<std::size_t> partition;  // by deferred number
    std::vector<std::uint64_t> position;
    for (std::size_t i = 0; i < urls.size(); ++i) {
      const url_set::key k = url_set::hash(urls[i]);
      auto v = dedup.add(k, 1000 + i);
      ASSERT_TRUE(v);
      if (*v != url_dedup::verdict::deferred) continue;
      partition.push_back(url_dedup::partition_of(k.fingerprint));
      position.push_back(i);
    }
    ASSERT_TRUE(dedup.resolve(false));
    std::vector<bool> repeats;
    std::vector<std::uint64_t> firsts;
    for (std::uint64_t n = 0; n < partition.size(); ++n) {
      repeats.push_back(*dedup.is_repeat(n));
      firsts.push_back(repeats.back() ? dedup.first_position() : 0);
    }
    ASSERT_GT(dedup.repeats(), 100u);
    std::uint64_t counted = 0;
    for (std::size_t p = 0; p < 256; ++p) counted += dedup.repeats_in(p);
    EXPECT_EQ(counted, dedup.repeats());
    for (int pass = 0; pass < 2; ++pass) {
      std::size_t wrong = 0, wrong_first = 0;
      // 7 is prime to 256: every partition once, in a shuffled order.
      for (std::size_t k = 0; k < 256; ++k) {
        const std::size_t p = (k * 7 + 255 - 5 * pass) % 256;
        ASSERT_TRUE(dedup.restart(p));
        std::uint64_t found = 0;
        for (std::uint64_t n = 0; n < partition.size(); ++n) {
          if (partition[n] != p || n % 3 == 1) continue;  // some not asked
          auto r = dedup.is_repeat_in(p, n);
          ASSERT_TRUE(r);
          wrong += *r != repeats[n];
          if (*r) wrong_first += dedup.first_position() != firsts[n];
          found += *r;
        }
        EXPECT_LE(found, dedup.repeats_in(p));
      }
      EXPECT_EQ(wrong, 0u);
      if (positions) {
        EXPECT_EQ(wrong_first, 0u);
      }
    }
    ASSERT_TRUE(dedup.rewind());
    for (std::uint64_t n = 0; n < partition.size(); ++n)
      ASSERT_EQ(*dedup.is_repeat(n), repeats[n]) << n;
  }
}

TEST(UrlDedup, RemovesItsFilesAndReportsOneItCannotMake) {
  temp_dir d;
  {
    url_dedup dedup(0, namer(d));
    for (int i = 0; i < 1000; ++i) (void)dedup.add(url_set::hash(url(i)));
    EXPECT_FALSE(testing::list_all(d.path()).empty());
  }
  EXPECT_TRUE(testing::list_all(d.path()).empty()) << "spill files left";

  url_dedup nowhere(0, [](std::string_view) {
    return std::string("/nonexistent-dir/spill");
  });
  (void)nowhere.add(url_set::hash(url(0)));
  auto v = nowhere.add(url_set::hash(url(1)));
  ASSERT_FALSE(v);
  EXPECT_NE(v.err().message.find("/nonexistent-dir/spill"), std::string::npos)
      << v.err().message;
}

}  // namespace
}  // namespace sitemill::detail
