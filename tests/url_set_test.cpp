// The duplicate detector: exact for distinct URLs at scale, bounded memory.
#include "detail/url_set.h"

#include <gtest/gtest.h>

#include <string>

namespace sitemill::detail {
namespace {

TEST(UrlSet, RemembersWhatWasInserted) {
  url_set s;
  EXPECT_TRUE(s.insert("https://example.com/a"));
  EXPECT_TRUE(s.insert("https://example.com/b"));
  EXPECT_FALSE(s.insert("https://example.com/a"));
  EXPECT_TRUE(s.insert("https://example.com/a/"));
  EXPECT_TRUE(s.insert(""));
  EXPECT_FALSE(s.insert(""));
  EXPECT_EQ(s.size(), 4u);
}

TEST(UrlSet, KeepsEveryOneOfAMillionDistinctUrlsAcrossGrowth) {
  url_set s;
  std::string url;
  for (int i = 0; i < 1'000'000; ++i) {
    url = "https://example.com/page/" + std::to_string(i);
    ASSERT_TRUE(s.insert(url)) << url;
  }
  for (int i = 0; i < 1'000'000; i += 997) {
    url = "https://example.com/page/" + std::to_string(i);
    ASSERT_FALSE(s.insert(url)) << url;
  }
  EXPECT_EQ(s.size(), 1'000'000u);
  // The budget: at most 16 bytes per URL for duplicate detection.
  EXPECT_LE(s.memory_bytes(), 16u * 1'000'000u);
  EXPECT_GE(s.memory_bytes(), 8u * 1'000'000u);
}

TEST(UrlSet, ContainsWhatWasInserted) {
  url_set set;
  EXPECT_FALSE(set.contains("https://example.com/a"));
  EXPECT_TRUE(set.insert("https://example.com/a"));
  EXPECT_TRUE(set.contains("https://example.com/a"));
  EXPECT_FALSE(set.contains("https://example.com/b"));
}

}  // namespace
}  // namespace sitemill::detail
