// The one gzip inflater (src/detail/inflate.h): RFC 1952 members, split
// input and output at every size, trailing data, corruption, truncation and
// the output cap. Checked by comparing with the bytes that were compressed.
#include "detail/inflate.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/inflate_all.h"
#include "support/run.h"

namespace sitemill::detail {
namespace {

using status = gzip_inflater::status;

using outcome = inflate_outcome;

std::string sample(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; s.size() < n; ++i)
    s += "https://www.example.com/p/" + std::to_string(i * 7919) + "\n";
  s.resize(n);
  return s;
}

TEST(GzipInflater, TellsGzipByItsMagicBytes) {
  struct row {
    std::string_view head;
    bool gzip;
  };
  const row rows[] = {{"\x1F\x8B", true},  {"\x1F\x8B\x08rest", true},
                      {"\x1F", false},     {"", false},
                      {"\x8B\x1F", false}, {"<?xml", false}};
  for (const row& r : rows) EXPECT_EQ(starts_gzip(r.head), r.gzip) << r.head;
}

// Results do not depend on how input and output are split: every boundary
// of a 1-byte buffer is crossed.
TEST(GzipInflater, GivesTheSameBytesHoweverInputAndOutputAreSplit) {
  const std::string data = sample(100'000);
  const std::string gz = testing::gzip(data);
  for (std::size_t in : {std::size_t{1}, std::size_t{2}, std::size_t{7},
                         std::size_t{4096}, gz.size()})
    for (std::size_t out :
         {std::size_t{1}, std::size_t{3}, std::size_t{65'536}}) {
      if (in == 1 && out == 1) continue;  // slow, and covered by 1 x 3
      const outcome o = inflate_all(gz, in, out);
      EXPECT_EQ(o.result, status::ok) << in << " x " << out;
      EXPECT_FALSE(o.truncated);
      EXPECT_EQ(o.out, data) << in << " x " << out;
    }
}

TEST(GzipInflater, ReadsConcatenatedMembersAsOneStream) {
  const std::string gz =
      testing::gzip("first\n") + testing::gzip("") + testing::gzip("second\n");
  for (std::size_t in : {std::size_t{1}, gz.size()}) {
    const outcome o = inflate_all(gz, in, 5);
    EXPECT_EQ(o.result, status::ok);
    EXPECT_FALSE(o.truncated);
    EXPECT_EQ(o.out, "first\nsecond\n");
  }
}

// gzip -d's "trailing garbage": after a whole member, bytes that do not
// start another one. The data before them is complete.
TEST(GzipInflater, CallsBytesAfterTheLastMemberTrailingData) {
  const std::string gz = testing::gzip("data\n");
  for (const std::string& tail :
       {std::string("junk"), std::string(512, '\0'), std::string("\n"),
        std::string("\x1F\x8B") + "not a member at all"}) {
    const outcome o = inflate_all(gz + tail, 3, 64);
    EXPECT_EQ(o.result, status::trailing_data) << tail;
    EXPECT_EQ(o.out, "data\n");
    EXPECT_FALSE(o.truncated);
  }
}

TEST(GzipInflater, ReportsCorruptDataTheSameHoweverSplit) {
  const std::string data = sample(200'000);
  std::string gz = testing::gzip(data);
  gz[gz.size() / 2] ^= 0x55;
  gz[gz.size() / 2 + 1] ^= 0x55;
  const outcome whole = inflate_all(gz, gz.size(), 65'536);
  const outcome split = inflate_all(gz, 5, 7);
  EXPECT_EQ(whole.result, status::corrupt);
  EXPECT_EQ(split.result, status::corrupt);
  // Deflate has no checksum before the member's end, so bytes before the
  // spot the decoder notices may already be wrong, and which wrong bytes
  // depends on the split (inflate.h); the verdict does not.
  EXPECT_LT(whole.out.size(), data.size());
  EXPECT_LT(split.out.size(), data.size());
}

TEST(GzipInflater, NamesTheCorruptionInItsMessage) {
  std::string gz = testing::gzip("abc");
  gz[10] = '\x07';  // the first deflate block's type: 3 is invalid
  gzip_inflater inflater;
  char buf[64];
  const auto s = inflater.inflate(gz.data(), gz.size(), buf, sizeof buf);
  ASSERT_EQ(s.result, status::corrupt);
  EXPECT_NE(std::string(inflater.message()), "");
  EXPECT_NE(std::string(inflater.message()), "ok");
}

TEST(GzipInflater, SaysAStreamCutShortIsTruncated) {
  const std::string gz = testing::gzip(sample(10'000));
  const outcome cut = inflate_all(gz.substr(0, gz.size() / 2), 100, 1000);
  EXPECT_EQ(cut.result, status::ok);
  EXPECT_TRUE(cut.truncated);
  const outcome header_only = inflate_all(gz.substr(0, 5), 100, 1000);
  EXPECT_TRUE(header_only.truncated);
  const outcome whole = inflate_all(gz, 100, 1000);
  EXPECT_FALSE(whole.truncated);
}

// The cap on output: a stream of exactly the cap is whole; one byte more is
// reported, and never more than the cap comes out.
TEST(GzipInflater, StopsAtTheOutputLimitAndGivesExactlyThatMuch) {
  const std::string data = sample(70'000);
  const std::string gz = testing::gzip(data);
  struct row {
    std::uint64_t limit;
    status result;
    std::size_t out;
  };
  const row rows[] = {
      {data.size() + 1, status::ok, data.size()},
      {data.size(), status::ok, data.size()},
      {data.size() - 1, status::output_limit, data.size() - 1},
      {1, status::output_limit, 1},
      {0, status::output_limit, 0},
  };
  for (const row& r : rows)
    for (std::size_t out : {std::size_t{1000}, std::size_t{65'536}}) {
      const outcome o = inflate_all(gz, 4096, out, r.limit);
      EXPECT_EQ(o.result, r.result) << r.limit << ", buffer " << out;
      EXPECT_EQ(o.out.size(), r.out) << r.limit << ", buffer " << out;
      EXPECT_EQ(data.compare(0, o.out.size(), o.out), 0);
    }
}

TEST(GzipInflater, KeepsAnsweringItsFirstError) {
  const std::string gz = testing::gzip("x") + "junk";
  gzip_inflater inflater;
  char buf[16];
  auto s = inflater.inflate(gz.data(), gz.size(), buf, sizeof buf);
  ASSERT_EQ(s.result, status::trailing_data);
  const std::string more = testing::gzip("y");
  s = inflater.inflate(more.data(), more.size(), buf, sizeof buf);
  EXPECT_EQ(s.result, status::trailing_data);
  EXPECT_EQ(s.consumed, 0u);
  EXPECT_EQ(s.produced, 0u);
}

}  // namespace
}  // namespace sitemill::detail
