// The block walker's edges (RFC 1951 3.2): codes longer than its lookup
// table, stored blocks of every small length, two literals in one step and
// streams cut anywhere. Checked against zlib, which made the streams and
// knows nothing of the walker's buffering.
#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>

#include "write/deflate_splice.h"

namespace sitemill::detail {
namespace {

std::string zlib_raw(const std::string& in, int level, int strategy) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, level, Z_DEFLATED, -15, 8, strategy), Z_OK);
  std::string out(deflateBound(&z, in.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  return out;
}

// True when `raw` inflates cleanly, ending exactly at its last byte.
bool inflates(const std::string& raw) {
  z_stream z{};
  if (inflateInit2(&z, -15) != Z_OK) return false;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  z.avail_in = static_cast<uInt>(raw.size());
  char buf[65536];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_FINISH);
    if (rc == Z_BUF_ERROR && z.avail_out == 0) rc = Z_OK;
  }
  const bool ok = rc == Z_STREAM_END && z.avail_in == 0;
  inflateEnd(&z);
  return ok;
}

// The stream ends where its last byte ends, and that block's header bit is
// set; made non-final, the stream followed by a final empty block inflates.
void expect_walked(std::string raw, const std::string& what) {
  const auto last = find_final_block(raw);
  ASSERT_TRUE(last) << what;
  EXPECT_EQ((last->end_bit + 7) / 8, raw.size()) << what;
  EXPECT_TRUE((static_cast<unsigned char>(raw[last->header_bit / 8]) >>
               (last->header_bit % 8)) &
              1)
      << what;
  ASSERT_TRUE(make_non_final(raw)) << what;
  raw += std::string("\x03\x00", 2);  // BFINAL 1, fixed codes, end of block
  EXPECT_TRUE(inflates(raw)) << what;
}

TEST(DeflateWalk, StepsOverCodesLongerThanItsTable) {
  // Byte frequencies halving from one value to the next give Huffman codes
  // of every length up to deflate's 15 bits.
  std::mt19937 rng(3);
  std::string skewed;
  while (skewed.size() < 300'000) {
    int c = 0;
    while (c < 40 && (rng() & 1) != 0) ++c;
    skewed += static_cast<char>('A' + c);
  }
  for (int strategy : {Z_HUFFMAN_ONLY, Z_DEFAULT_STRATEGY, Z_RLE})
    expect_walked(zlib_raw(skewed, 9, strategy),
                  "strategy " + std::to_string(strategy));
}

TEST(DeflateWalk, SkipsStoredBlocksOfEveryShortLength) {
  std::mt19937 rng(5);
  for (std::size_t n = 0; n <= 70; ++n) {
    std::string in(n, '\0');
    for (char& c : in) c = static_cast<char>(rng());
    expect_walked(zlib_raw(in, 0, Z_DEFAULT_STRATEGY),
                  std::to_string(n) + " stored bytes");
  }
  std::string big(200'000, '\0');  // several full 65,535-byte blocks
  for (char& c : big) c = static_cast<char>(rng());
  expect_walked(zlib_raw(big, 0, Z_DEFAULT_STRATEGY), "200,000 stored bytes");
}

TEST(DeflateWalk, RefusesEveryCutOfAStream) {
  std::string text;
  for (int i = 0; text.size() < 20'000; ++i)
    text += "<url><loc>https://example.com/item/" + std::to_string(i * 7) +
            "</loc></url>\n";
  for (int level : {0, 1, 6, 9}) {
    const std::string raw = zlib_raw(text, level, Z_DEFAULT_STRATEGY);
    ASSERT_TRUE(find_final_block(raw)) << "level " << level;
    for (std::size_t cut = 0; cut < raw.size(); ++cut)
      EXPECT_FALSE(find_final_block(std::string_view(raw).substr(0, cut)))
          << "level " << level << ", cut at " << cut << " of " << raw.size();
  }
}

}  // namespace
}  // namespace sitemill::detail
