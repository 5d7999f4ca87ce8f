// The gzip inflater (src/detail/inflate.h) on what its decoder must check and
// must not get wrong whatever the split: each member's CRC-32 and length,
// the optional header fields of RFC 1952 2.3.1, stored blocks, members that
// end at any input boundary, every truncation and every single-byte
// corruption of a small stream. Complements inflate_test.cpp.
#include <gtest/gtest.h>
#include <zlib.h>

#include <string>
#include <vector>

#include "detail/inflate.h"
#include "support/inflate_all.h"
#include "support/run.h"

namespace sitemill::detail {
namespace {

using status = gzip_inflater::status;

using outcome = inflate_outcome;

// gzip at a chosen level (testing::gzip uses the default).
std::string gzip_level(std::string_view bytes, int level) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK)
    return {};
  std::string out(deflateBound(&zs, static_cast<uLong>(bytes.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

std::string urls(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; s.size() < n; ++i)
    s += "<url><loc>https://www.example.com/item/" + std::to_string(i * 31) +
         "</loc></url>\n";
  s.resize(n);
  return s;
}

// RFC 1952 2.3.1: the trailer is CRC-32 then ISIZE, little-endian.
TEST(GzipInflaterChecks, RefusesAWrongCrcOrLength) {
  const std::string data = urls(5'000);
  const std::string gz = testing::gzip(data);
  for (std::size_t at :
       {gz.size() - 8, gz.size() - 5, gz.size() - 4, gz.size() - 1}) {
    std::string bad = gz;
    bad[at] ^= 0x01;
    for (std::size_t in : {std::size_t{1}, bad.size()}) {
      const outcome o = inflate_all(bad, in, 4096);
      EXPECT_EQ(o.result, status::corrupt) << "byte " << at << ", in " << in;
      EXPECT_EQ(o.message, "incorrect data check") << at;
    }
  }
}

// FTEXT, FHCRC, FEXTRA, FNAME and FCOMMENT, as gzip -N and other tools
// write them, read byte by byte.
TEST(GzipInflaterChecks, ReadsEveryOptionalHeaderField) {
  const std::string data = urls(3'000);
  const std::string plain = testing::gzip(data);
  // Rebuild the header with all flags; the deflate data and trailer stay.
  std::string head("\x1F\x8B\x08\x1F\0\0\0\0\0\x03", 10);
  head += std::string("\x04\0ab\0\0", 6);  // XLEN 4, subfield ab, length 0
  head += std::string("sitemap.xml\0", 12);
  head += std::string("a comment\0", 10);
  const uLong crc = crc32(0, reinterpret_cast<const Bytef*>(head.data()),
                          static_cast<uInt>(head.size()));
  head += static_cast<char>(crc & 0xFF);
  head += static_cast<char>((crc >> 8) & 0xFF);
  const std::string gz = head + plain.substr(10);
  for (std::size_t in : {std::size_t{1}, std::size_t{3}, gz.size()}) {
    const outcome o = inflate_all(gz, in, 1000);
    EXPECT_EQ(o.result, status::ok) << in << ": " << o.message;
    EXPECT_FALSE(o.truncated);
    EXPECT_EQ(o.out, data) << in;
  }
}

TEST(GzipInflaterChecks, RefusesAWrongHeaderCrcOrReservedFlags) {
  const std::string gz = testing::gzip("<urlset/>");
  std::string hcrc = gz.substr(0, 10) + "\x01\x02" + gz.substr(10);
  hcrc[3] = '\x02';  // FHCRC, and a CRC16 that cannot match
  std::string reserved = gz;
  reserved[3] = '\x20';
  for (std::size_t in : {std::size_t{1}, gz.size() + 2}) {
    const outcome a = inflate_all(hcrc, in, 64);
    EXPECT_EQ(a.result, status::corrupt);
    EXPECT_EQ(a.message, "header crc mismatch");
    const outcome b = inflate_all(reserved, in, 64);
    EXPECT_EQ(b.result, status::corrupt);
    EXPECT_EQ(b.message, "unknown header flags set");
  }
}

// After a whole member, what is not a member header is trailing data; a
// member header that holds, followed by deflate data that does not, is a
// corrupt member (as gzip -d says), however the input is split.
TEST(GzipInflaterChecks, CallsABadMemberAfterAGoodOneCorrupt) {
  const std::string first = testing::gzip("<urlset/>\n");
  std::string second = testing::gzip(urls(3'000));
  second[10] = '\x07';  // the first deflate block's type: 3 is invalid
  for (std::size_t in : {std::size_t{1}, std::size_t{5}, first.size() + 40}) {
    const outcome o = inflate_all(first + second, in, 64);
    EXPECT_EQ(o.result, status::corrupt) << in;
    EXPECT_EQ(o.message, "invalid deflate block") << in;
    EXPECT_EQ(o.out, "<urlset/>\n") << in;
  }
  const std::string not_a_header = std::string("\x1F\x8B\x09", 3) + second;
  const outcome o = inflate_all(first + not_a_header, 3, 64);
  EXPECT_EQ(o.result, status::trailing_data);
}

// Level 0 writes stored blocks, which the decoder copies rather than
// decodes.
TEST(GzipInflaterChecks, ReadsStoredBlocks) {
  const std::string data = urls(150'000);
  const std::string gz = gzip_level(data, 0);
  for (std::size_t in : {std::size_t{7}, std::size_t{65'536}})
    for (std::size_t out : {std::size_t{5}, std::size_t{65'536}}) {
      const outcome o = inflate_all(gz, in, out);
      EXPECT_EQ(o.result, status::ok);
      EXPECT_EQ(o.out, data) << in << " x " << out;
    }
}

// Three members read with the input cut at every byte: wherever a member
// ends in a piece, the next one starts right after it.
TEST(GzipInflaterChecks, FindsTheNextMemberAtEveryInputSplit) {
  const std::string a = urls(700), b = urls(1), c = urls(2'000);
  const std::string gz = testing::gzip(a) + testing::gzip(b) + testing::gzip(c);
  for (std::size_t in = 1; in <= gz.size(); in += (in < 64 ? 1 : 37)) {
    const outcome o = inflate_all(gz, in, 256);
    EXPECT_EQ(o.result, status::ok) << in;
    EXPECT_FALSE(o.truncated) << in;
    EXPECT_EQ(o.out, a + b + c) << in;
  }
}

// Every prefix of a stream is a cut stream: nothing is called corrupt,
// what comes out is the start of the data, and the cut is reported.
TEST(GzipInflaterChecks, CallsEveryPrefixTruncated) {
  const std::string data = urls(4'000);
  const std::string gz = testing::gzip(data);
  for (std::size_t n = 1; n < gz.size(); ++n) {
    const outcome o = inflate_all(gz.substr(0, n), 64, 512);
    ASSERT_EQ(o.result, status::ok) << n << ": " << o.message;
    EXPECT_TRUE(o.truncated) << n;
    EXPECT_EQ(data.compare(0, o.out.size(), o.out), 0) << n;
  }
}

// Each byte of a small stream flipped in turn: the status and truncation are
// the same read whole or one byte at a time, and a stream that passes gives
// exactly the data (the CRC and length catch the rest).
TEST(GzipInflaterChecks, AnswersEveryCorruptionTheSameHoweverSplit) {
  const std::string data = urls(2'500);
  const std::string gz = testing::gzip(data);
  for (std::size_t at = 0; at < gz.size(); ++at)
    for (const unsigned flip : {0x01u, 0x80u, 0xFFu}) {
      std::string bad = gz;
      bad[at] = static_cast<char>(static_cast<unsigned char>(bad[at]) ^ flip);
      const outcome whole = inflate_all(bad, bad.size(), 65'536);
      const outcome split = inflate_all(bad, 1, 65'536);
      EXPECT_EQ(whole.result, split.result) << at << " ^ " << flip;
      EXPECT_EQ(whole.truncated, split.truncated) << at;
      if (whole.result == status::ok && !whole.truncated) {
        EXPECT_EQ(whole.out, data) << at << " ^ " << flip;
      }
    }
}

}  // namespace
}  // namespace sitemill::detail
