// Duplicate detection with positions (generate_options::report_duplicates):
// every repeat names where its URL was first read, whatever the budget:
// in memory, frozen, on disk, and across split partitions.
#include <gtest/gtest.h>

#include <random>
#include <unordered_map>

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

// For each record: 0 when kept, else the position the dedup says it
// repeats (unknown_first when it says none). Record i is at position i + 1.
constexpr std::uint64_t unknown_first = ~std::uint64_t{0};

std::uint64_t first_of(const url_dedup& dedup) {
  return dedup.first_position() == 0 ? unknown_first : dedup.first_position();
}

std::vector<std::uint64_t> judge(url_dedup& dedup,
                                 const std::vector<std::string>& urls) {
  std::vector<std::uint64_t> firsts(urls.size());
  std::vector<std::size_t> deferred_at;
  for (std::size_t i = 0; i < urls.size(); ++i) {
    auto v = dedup.add(url_set::hash(urls[i]), i + 1);
    EXPECT_TRUE(v) << v.err().message;
    if (*v == url_dedup::verdict::repeat) firsts[i] = first_of(dedup);
    if (*v == url_dedup::verdict::deferred) deferred_at.push_back(i);
  }
  EXPECT_TRUE(dedup.resolve(false));
  for (std::size_t n = 0; n < deferred_at.size(); ++n) {
    auto repeat = dedup.is_repeat(n);
    EXPECT_TRUE(repeat);
    if (*repeat) firsts[deferred_at[n]] = first_of(dedup);
  }
  return firsts;
}

std::vector<std::uint64_t> reference(const std::vector<std::string>& urls) {
  std::unordered_map<std::string, std::uint64_t> first;
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < urls.size(); ++i) {
    auto [at, added] = first.try_emplace(urls[i], i + 1);
    out.push_back(added ? 0 : at->second);
  }
  return out;
}

std::vector<std::string> with_repeats(std::size_t n, std::size_t distinct) {
  std::mt19937_64 random(7);
  std::vector<std::string> urls;
  for (std::size_t i = 0; i < n; ++i)
    urls.push_back("https://shop.example.com/p/" +
                   std::to_string(i < distinct ? i : random() % distinct));
  std::shuffle(urls.begin() + static_cast<std::ptrdiff_t>(distinct / 2),
               urls.end(), random);
  return urls;
}

TEST(UrlDedupPositions, EveryRepeatNamesItsFirstRecordWhateverTheBudget) {
  const auto urls = with_repeats(30'000, 18'000);
  const auto expected = reference(urls);
  // In memory; frozen early (repeats of frozen URLs and among deferred
  // ones); everything deferred, with partitions split (budget 0).
  for (const std::size_t budget :
       {std::size_t{64} << 20, std::size_t{300} << 10, std::size_t{0}}) {
    SCOPED_TRACE(budget);
    temp_dir d;
    url_dedup dedup(budget, namer(d), /*positions=*/true);
    EXPECT_EQ(judge(dedup, urls), expected);
    EXPECT_EQ(dedup.spilling(), budget != (std::size_t{64} << 20));
  }
}

TEST(UrlDedupPositions, WithoutPositionsTheVerdictsAreTheSame) {
  const auto urls = with_repeats(10'000, 6'000);
  for (const std::size_t budget : {std::size_t{64} << 10, std::size_t{0}}) {
    temp_dir a, b;
    url_dedup with(budget, namer(a), true), without(budget, namer(b), false);
    const auto placed = judge(with, urls);
    const auto plain = judge(without, urls);
    ASSERT_EQ(placed.size(), plain.size());
    for (std::size_t i = 0; i < urls.size(); ++i) {
      EXPECT_EQ(placed[i] != 0, plain[i] != 0) << i;
      EXPECT_NE(placed[i], unknown_first) << i;
      // No positions kept: a repeat's first is unknown.
      EXPECT_TRUE(plain[i] == 0 || plain[i] == unknown_first) << i;
    }
  }
}

}  // namespace
}  // namespace sitemill::detail
