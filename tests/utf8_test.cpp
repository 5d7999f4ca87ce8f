// The one UTF-8 validator (Unicode 15 table 3-7). It replaced four copies
// (text helpers, URL normalisation, the text sitemap reader, the directory
// source), which agreed on every input of up to three bytes and on every
// four-byte lead and second byte; the table below pins what they agreed on.
#include "detail/utf8.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace sitemill::detail {
namespace {

using namespace std::literals;

struct Case {
  std::string_view bytes;
  std::size_t length;  // of the sequence at bytes[0]; 0 when ill-formed
};

// Table 3-7, one line per lead byte class and each end of its ranges.
constexpr Case kCases[] = {
    {"\x00"sv, 1},
    {"A", 1},
    {"\x7F", 1},
    {"\x80", 0},  // a continuation byte cannot lead
    {"\xBF", 0},
    {"\xC0\x80", 0},  // C0 and C1 only make overlong forms
    {"\xC1\xBF", 0},
    {"\xC2\x80", 2},  // U+0080
    {"\xDF\xBF", 2},  // U+07FF
    {"\xC2\x7F", 0},
    {"\xC2\xC0", 0},
    {"\xC2", 0},          // truncated
    {"\xE0\xA0\x80", 3},  // U+0800: E0 A0 is the lowest second byte
    {"\xE0\x9F\xBF", 0},  // overlong U+07FF
    {"\xE0\xBF\xBF", 3},
    {"\xE1\x80\x80", 3},
    {"\xEC\xBF\xBF", 3},
    {"\xED\x80\x80", 3},
    {"\xED\x9F\xBF", 3},  // U+D7FF: ED 9F is the highest second byte
    {"\xED\xA0\x80", 0},  // U+D800, a surrogate
    {"\xED\xBF\xBF", 0},  // U+DFFF
    {"\xEE\x80\x80", 3},  // U+E000
    {"\xEF\xBF\xBF", 3},  // U+FFFF
    {"\xE1\x80\x7F", 0},
    {"\xE1\x80\xC0", 0},
    {"\xE1\x80", 0},  // truncated
    {"\xE0\xA0", 0},
    {"\xE1", 0},
    {"\xF0\x90\x80\x80", 4},  // U+10000: F0 90 is the lowest second byte
    {"\xF0\x8F\xBF\xBF", 0},  // overlong U+FFFF
    {"\xF0\xBF\xBF\xBF", 4},
    {"\xF1\x80\x80\x80", 4},
    {"\xF3\xBF\xBF\xBF", 4},
    {"\xF4\x80\x80\x80", 4},
    {"\xF4\x8F\xBF\xBF", 4},  // U+10FFFF: F4 8F is the highest second byte
    {"\xF4\x90\x80\x80", 0},  // U+110000
    {"\xF1\x80\x80\x7F", 0},
    {"\xF1\x80\x7F\x80", 0},
    {"\xF0\x90\x80", 0},  // truncated
    {"\xF0\x90", 0},
    {"\xF4", 0},
    {"\xF5\x80\x80\x80", 0},  // F5 to FF lead nothing
    {"\xF8\x88\x80\x80", 0},
    {"\xFE", 0},
    {"\xFF", 0},
};

TEST(Utf8, SequenceLengthFollowsTable3_7) {
  for (const Case& c : kCases) {
    const std::string_view s = c.bytes;
    EXPECT_EQ(utf8_sequence_length(s, 0), c.length)
        << testing::PrintToString(s);
    EXPECT_EQ(is_valid_utf8(s), c.length == s.size())
        << testing::PrintToString(s);
  }
}

TEST(Utf8, SequenceLengthReadsAtTheGivenPosition) {
  const std::string_view s = "a\xC3\xA9z\xE2\x82";
  EXPECT_EQ(utf8_sequence_length(s, 0), 1u);
  EXPECT_EQ(utf8_sequence_length(s, 1), 2u);
  EXPECT_EQ(utf8_sequence_length(s, 2), 0u);  // inside the sequence
  EXPECT_EQ(utf8_sequence_length(s, 3), 1u);
  EXPECT_EQ(utf8_sequence_length(s, 4), 0u);  // cut off by the end
}

// The eight-byte ASCII skip must not step over a bad byte or split a
// sequence, wherever either falls.
TEST(Utf8, ValidatesAroundEveryWordBoundary) {
  for (std::size_t at = 0; at < 24; ++at) {
    std::string s(24, 'a');
    s.insert(at, "\xE2\x82\xAC");  // U+20AC
    EXPECT_TRUE(is_valid_utf8(s)) << at;
    s[at + 2] = 'a';  // the sequence loses its last byte
    EXPECT_FALSE(is_valid_utf8(s)) << at;
    std::string bad(24, 'a');
    bad[at] = '\x80';
    EXPECT_FALSE(is_valid_utf8(bad)) << at;
    EXPECT_FALSE(is_valid_utf8(std::string(at, 'a') + "\xF0\x9F\x98"))
        << at;  // truncated at the very end
  }
  EXPECT_TRUE(is_valid_utf8(""));
}

// An independent decoder: a code point's value, then the rules stated as
// ranges of code points rather than of bytes.
bool reference_valid(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80       ? 1
                    : c >> 5 == 6  ? 2
                    : c >> 4 == 14 ? 3
                    : c >> 3 == 30 ? 4
                                   : 0;
    if (n == 0 || s.size() - i < n) return false;
    std::uint32_t cp = n == 1 ? c : c & (0x7F >> n);
    for (std::size_t k = 1; k < n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = cp << 6 | (b & 0x3F);
    }
    constexpr std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n;
  }
  return true;
}

TEST(Utf8, AgreesWithADecoderOnEveryStringOfUpToThreeBytes) {
  std::size_t disagreements = 0;
  std::string first;
  char b[3];
  auto check = [&](std::size_t n) {
    const std::string_view s(b, n);
    if (is_valid_utf8(s) != reference_valid(s) && disagreements++ == 0)
      first = testing::PrintToString(s);
  };
  for (int x = 0; x < 256; ++x) {
    b[0] = static_cast<char>(x);
    check(1);
    for (int y = 0; y < 256; ++y) {
      b[1] = static_cast<char>(y);
      check(2);
      for (int z = 0; z < 256; ++z) {
        b[2] = static_cast<char>(z);
        check(3);
      }
    }
  }
  EXPECT_EQ(disagreements, 0u) << "first: " << first;
}

TEST(Utf8, AgreesWithADecoderOnEveryFourByteLeadAndSecondByte) {
  constexpr unsigned char tails[] = {0x00, 0x7F, 0x80, 0x8F, 0x90,
                                     0xBF, 0xC0, 0xF4, 0xFF};
  std::size_t disagreements = 0;
  char b[4];
  for (int x = 0; x < 256; ++x)
    for (int y = 0; y < 256; ++y)
      for (unsigned char z : tails)
        for (unsigned char w : tails) {
          b[0] = static_cast<char>(x);
          b[1] = static_cast<char>(y);
          b[2] = static_cast<char>(z);
          b[3] = static_cast<char>(w);
          const std::string_view s(b, 4);
          if (is_valid_utf8(s) != reference_valid(s)) ++disagreements;
        }
  EXPECT_EQ(disagreements, 0u);
}

}  // namespace
}  // namespace sitemill::detail
