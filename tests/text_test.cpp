// Diagnostic text helpers: whatever a bad input holds, a report stays
// readable, valid UTF-8 and bounded.
#include "detail/text.h"

#include <gtest/gtest.h>

#include "sitemill/numbers.h"

namespace sitemill::detail {
namespace {

std::string printable(std::string_view s, std::size_t limit = 120) {
  std::string out;
  append_printable(out, s, limit);
  return out;
}

TEST(Text, PrintableKeepsUtf8AndEscapesControlAndInvalidBytes) {
  struct {
    std::string_view in, out;
  } cases[] = {
      {"https://example.com/", "https://example.com/"},
      {"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80",
       "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"},
      {"a\tb\x7F", "a\\x09b\\x7F"},
      {"\xFF\xFE", "\\xFF\\xFE"},
      {"\xC3", "\\xC3"},                             // truncated sequence
      {"\xC0\xAF", "\\xC0\\xAF"},                    // overlong '/'
      {"\xED\xA0\x80", "\\xED\\xA0\\x80"},           // surrogate
      {"\xF4\x90\x80\x80", "\\xF4\\x90\\x80\\x80"},  // above U+10FFFF
  };
  for (const auto& c : cases) EXPECT_EQ(printable(c.in), c.out) << c.in;
}

TEST(Text, PrintableCutsLongValues) {
  EXPECT_EQ(printable(std::string(200, 'a'), 10), "aaaaaaaaaa...");
  EXPECT_EQ(printable("abc", 3), "abc");
}

TEST(Text, QuotedPrintableQuotesWhatPrintableWrites) {
  EXPECT_EQ(quoted_printable("a\tb"), "\"a\\x09b\"");
  EXPECT_EQ(quoted_printable("abcdef", 3), "\"abc...\"");
}

TEST(Text, TrimRemovesAsciiWhitespaceOnly) {
  EXPECT_EQ(trim(" \t\r\n x y \n"), "x y");
  EXPECT_EQ(trim("\xC2\xA0x"), "\xC2\xA0x");  // NBSP is not ASCII whitespace
  EXPECT_EQ(trim("   "), "");
}

TEST(Text, FormatsCountsAndHex) {
  EXPECT_EQ(with_commas(0), "0");
  EXPECT_EQ(with_commas(999), "999");
  EXPECT_EQ(with_commas(1000), "1,000");
  EXPECT_EQ(with_commas(1234567), "1,234,567");
  EXPECT_EQ(to_hex(0xabc, 6), "000abc");
  EXPECT_EQ(to_hex(0xFFFFFFFFFFFFFFFFull), "ffffffffffffffff");
}

// The progress line's sizes and times left.
TEST(Text, FormatsSizesAndTimesForPeople) {
  EXPECT_EQ(human_bytes(0), "0 B");
  EXPECT_EQ(human_bytes(1023), "1023 B");
  EXPECT_EQ(human_bytes(1536), "1.5 KiB");
  EXPECT_EQ(human_bytes(120ull << 20), "120 MiB");
  EXPECT_EQ(human_bytes((3ull << 30) + (1ull << 29)), "3.5 GiB");
  EXPECT_EQ(clock_time(-3), "0:00");
  EXPECT_EQ(clock_time(7.4), "0:07");
  EXPECT_EQ(clock_time(754), "12:34");
  EXPECT_EQ(clock_time(3723), "1:02:03");
}

}  // namespace
}  // namespace sitemill::detail
