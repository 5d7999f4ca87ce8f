// chunked_vector: indexes across chunks like a vector, and a run appended
// with append_unsplit() never spans two chunks.
#include "detail/chunked_vector.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sitemill::detail {
namespace {

TEST(ChunkedVector, IndexesEveryElementAcrossChunks) {
  chunked_vector<std::uint32_t, 4> v;  // chunks of 16
  for (std::uint32_t i = 0; i < 1000; ++i) v.push_back(i * 7);
  ASSERT_EQ(v.size(), 1000u);
  for (std::uint32_t i = 0; i < 1000; ++i) ASSERT_EQ(v[i], i * 7) << i;
  v[500] = 1;
  EXPECT_EQ(v[500], 1u);
  EXPECT_EQ(v[499], 499u * 7);
  // 63 chunks of 16 four-byte elements, plus the chunk table.
  EXPECT_GE(v.memory_bytes(), 63u * 16 * 4);
}

TEST(ChunkedVector, RunsStayWholeAndReadBack) {
  chunked_vector<char, 4> text;  // chunks of 16 bytes
  std::vector<std::pair<std::size_t, std::string>> runs;
  for (int i = 0; i < 200; ++i) {
    std::string s(static_cast<std::size_t>(i % 17), static_cast<char>('a' + i % 26));
    const std::size_t at = text.append_unsplit(std::string_view(s));
    // Never across a chunk boundary: first and last byte in one chunk.
    if (!s.empty()) {
      ASSERT_EQ(at / 16, (at + s.size() - 1) / 16) << i;
    }
    runs.emplace_back(at, s);
  }
  for (const auto& [at, s] : runs) {
    const auto run = text.run(at, s.size());
    EXPECT_EQ(std::string(run.begin(), run.end()), s);
  }
  // An empty run is empty wherever it is asked for, even past the end.
  EXPECT_TRUE(text.run(text.size(), 0).empty());
}

}  // namespace
}  // namespace sitemill::detail
