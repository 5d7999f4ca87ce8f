// The DEFLATE block walker and the splice gzip_sink builds on: checked
// against zlib's inflate, which knows nothing of how the pieces were made.
#include "write/deflate_splice.h"

#include <gtest/gtest.h>
#include <libdeflate.h>
#include <zlib.h>

#include <random>
#include <string>
#include <vector>

#include "support/libdeflate_raw.h"

namespace sitemill::detail {
namespace {

using testing::libdeflate_raw;

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

// Inflates a raw stream; "" plus a failure when it does not end cleanly
// exactly at its last byte.
std::string inflate_raw(const std::string& in) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, -15), Z_OK);
  std::string out;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  char buf[65536];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
    if (rc == Z_BUF_ERROR && z.avail_in == 0) break;
  }
  EXPECT_EQ(rc, Z_STREAM_END);
  EXPECT_EQ(z.avail_in, 0u) << "bytes after the final block";
  inflateEnd(&z);
  return out;
}

// Inputs that make every block type: compressible text (dynamic Huffman),
// a few bytes (fixed Huffman), random bytes (stored), long runs, nothing.
std::vector<std::string> inputs() {
  std::mt19937 rng(7);
  std::string text;
  while (text.size() < 700'000)
    text += "<url><loc>https://example.com/p/" + std::to_string(rng() % 5000) +
            "</loc><lastmod>2026-11-27</lastmod></url>\n";
  std::string noise(300'000, '\0');
  for (char& c : noise) c = static_cast<char>(rng());
  std::string mixed = text.substr(0, 200'000) + noise.substr(0, 100'000) +
                      std::string(150'000, 'a') + text.substr(0, 90'000);
  return {text, noise, mixed, std::string(1'000'000, 'x'), "a", "hello", ""};
}

TEST(DeflateSplice, FindsTheFinalBlockOfEveryLibdeflateLevel) {
  for (const std::string& in : inputs()) {
    for (int level : {0, 1, 4, 6, 9, 12}) {
      const std::string raw = libdeflate_raw(in, level);
      auto last = find_final_block(raw);
      ASSERT_TRUE(last) << "level " << level << ", " << in.size() << " bytes";
      EXPECT_EQ((last->end_bit + 7) / 8, raw.size());
      EXPECT_LT(last->header_bit, last->end_bit);
      // The bit found is set: it is a final block's header.
      EXPECT_TRUE((static_cast<unsigned char>(raw[last->header_bit / 8]) >>
                   (last->header_bit % 8)) &
                  1);
    }
  }
}

// Pieces compressed on their own, each but the last made non-final, joined
// in order, inflate to the pieces' input joined: whatever compressor wrote
// them, and wherever each one ended within its last byte.
TEST(DeflateSplice, JoinedPiecesInflateToTheJoinedInput) {
  const std::vector<std::string> in = inputs();
  std::string expected, joined;
  std::size_t k = 0;
  auto add = [&](std::string raw, const std::string& plain, bool last) {
    if (!last) {
      ASSERT_TRUE(make_non_final(raw)) << "piece " << k;
    }
    joined += raw;
    expected += plain;
    ++k;
  };
  for (int level : {1, 6, 12}) {
    for (const std::string& piece : in)
      add(libdeflate_raw(piece, level), piece, false);
  }
  for (int strategy : {Z_DEFAULT_STRATEGY, Z_FIXED, Z_HUFFMAN_ONLY}) {
    for (const std::string& piece : in)
      add(zlib_raw(piece, 6, strategy), piece, false);
  }
  add(zlib_raw(in[0], 0, Z_DEFAULT_STRATEGY), in[0], false);  // stored only
  add(libdeflate_raw(in[4], 6), in[4], true);
  EXPECT_EQ(inflate_raw(joined), expected);
}

TEST(DeflateSplice, ANonFinalPieceEndsOnAByteWithASyncMarker) {
  for (const std::string& in : inputs()) {
    std::string raw = libdeflate_raw(in, 6);
    const std::size_t before = raw.size();
    ASSERT_TRUE(make_non_final(raw));
    EXPECT_EQ(raw.substr(raw.size() - 4), std::string("\0\0\xff\xff", 4));
    EXPECT_LE(raw.size(), before + 5);
    EXPECT_FALSE(find_final_block(raw)) << "no final block left";
  }
}

TEST(DeflateSplice, RefusesWhatIsNotACompleteStream) {
  const std::string raw = libdeflate_raw(inputs()[0], 6);
  EXPECT_FALSE(find_final_block(raw.substr(0, raw.size() / 2)));
  EXPECT_FALSE(find_final_block(std::string()));
  EXPECT_FALSE(find_final_block(std::string("\x07", 1)))
      << "BFINAL 1, BTYPE 3 (reserved)";
  EXPECT_FALSE(find_final_block(std::string("\x01\x05\x00\x00\x00", 5)))
      << "a stored block whose LEN and NLEN disagree";
  std::string copy = raw.substr(0, raw.size() - 1);
  EXPECT_FALSE(make_non_final(copy));
  EXPECT_EQ(copy, raw.substr(0, raw.size() - 1)) << "left unchanged";
}

// A walker that is fed garbage must fail or succeed, never read out of
// bounds (the sanitizer build runs this).
TEST(DeflateSplice, SurvivesRandomBytes) {
  std::mt19937 rng(11);
  int found = 0;
  for (int i = 0; i < 20'000; ++i) {
    std::string junk(rng() % 64, '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    if (auto last = find_final_block(junk)) {
      ++found;
      EXPECT_LE(last->end_bit, junk.size() * 8);
    }
  }
  EXPECT_LT(found, 20'000);
}

// The walker's edges: codes longer than its lookup table, stored blocks of
// every short length, streams cut at every byte.

// The stream ends where its last byte ends, and that block's header bit is
// set; made non-final, the stream followed by a final empty block inflates.
void expect_walked(std::string raw, const std::string& plain,
                   const std::string& what) {
  const auto last = find_final_block(raw);
  ASSERT_TRUE(last) << what;
  EXPECT_EQ((last->end_bit + 7) / 8, raw.size()) << what;
  EXPECT_TRUE((static_cast<unsigned char>(raw[last->header_bit / 8]) >>
               (last->header_bit % 8)) &
              1)
      << what;
  ASSERT_TRUE(make_non_final(raw)) << what;
  raw += std::string("\x03\x00", 2);  // BFINAL 1, fixed codes, end of block
  EXPECT_EQ(inflate_raw(raw), plain) << what;
}

TEST(DeflateSplice, StepsOverCodesLongerThanItsTable) {
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
    expect_walked(zlib_raw(skewed, 9, strategy), skewed,
                  "strategy " + std::to_string(strategy));
}

TEST(DeflateSplice, SkipsStoredBlocksOfEveryShortLength) {
  std::mt19937 rng(5);
  for (std::size_t n = 0; n <= 70; ++n) {
    std::string in(n, '\0');
    for (char& c : in) c = static_cast<char>(rng());
    expect_walked(zlib_raw(in, 0, Z_DEFAULT_STRATEGY), in,
                  std::to_string(n) + " stored bytes");
  }
  std::string big(200'000, '\0');  // several full 65,535-byte blocks
  for (char& c : big) c = static_cast<char>(rng());
  expect_walked(zlib_raw(big, 0, Z_DEFAULT_STRATEGY), big,
                "200,000 stored bytes");
}

TEST(DeflateSplice, RefusesEveryCutOfAStream) {
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
