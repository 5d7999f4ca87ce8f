// classify_path_and_query() picks its implementation by the CPU: plain
// x86-64 (SSE2) or SSSE3's byte shuffle. Both are held here to the
// definition (the byte loop of clean_url_test.cpp, restated) one by one,
// whichever the machine would pick, on every byte at every position and on
// generated paths with dots, slashes and non-ASCII bytes across the blocks.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>

#include "url/clean_url.h"

namespace sitemill::detail {
namespace {

path_class definition(std::string_view s) {
  constexpr std::string_view extra = "-._~!$&'()*+,;=:@/?";
  bool high = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      high = true;
      continue;
    }
    const bool kept =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9') ||
        extra.find(static_cast<char>(c)) != std::string_view::npos;
    if (!kept) return path_class::other;
    if (c == '.' && i > 0 && s[i - 1] == '/') return path_class::other;
  }
  return high ? path_class::non_ascii : path_class::clean;
}

void expect_both(std::string_view s) {
  const path_class want = definition(s);
  ASSERT_EQ(classify_path_and_query_baseline(s), want) << s;
  if (ssse3_available()) {
    ASSERT_EQ(classify_path_and_query_ssse3(s), want) << s;
  }
  ASSERT_EQ(classify_path_and_query(s), want) << s;
}

TEST(CleanUrlIsa, EachImplementationSeesEveryByteAtEveryPosition) {
  for (std::size_t len = 1; len <= 40; ++len)
    for (std::size_t at = 0; at < len; ++at)
      for (int b = 0; b < 256; ++b) {
        std::string s(len, 'x');
        s[at] = static_cast<char>(b);
        expect_both(s);
        // After a slash, so a '.' there is a dot segment.
        if (at > 0) {
          s[at - 1] = '/';
          expect_both(s);
        }
      }
}

TEST(CleanUrlIsa, EachImplementationAgreesOnGeneratedPaths) {
  std::mt19937_64 rng(16);
  const std::string alphabet =
      "abcXYZ019/./..?&=%#'~_-;:@!$()*+, \"<>[]\\^`{|}\x7F\x01\xC3\xA9\xE2";
  for (int i = 0; i < 200000; ++i) {
    std::string s;
    const std::size_t len = rng() % 100;
    for (std::size_t k = 0; k < len; ++k)
      s += rng() % 4 == 0 ? alphabet[rng() % alphabet.size()]
                          : static_cast<char>('a' + rng() % 26);
    expect_both(s);
  }
}

}  // namespace
}  // namespace sitemill::detail
