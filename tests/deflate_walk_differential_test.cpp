// find_final_block() against the walker it replaced (support/
// deflate_walk_reference.h, one code per step): the same answer, a final
// block or none, on streams of every kind, whole, cut and with bits flipped.
// The tables that step over two codes at once, the joined entries at the
// table's edge, codes longer than the table and the zero padding at the
// stream's end are all in the answer, so any slip shows as a difference.
#include <gtest/gtest.h>
#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "support/deflate_walk_reference.h"
#include "support/libdeflate_raw.h"
#include "write/deflate_splice.h"

namespace sitemill::detail {
namespace {

using testing::libdeflate_raw;

// memLevel 1 ends a block every 128 symbols: many block boundaries in a
// short stream.
std::string zlib_raw(const std::string& in, int level, int strategy,
                     int mem_level = 8) {
  z_stream z{};
  EXPECT_EQ(deflateInit2(&z, level, Z_DEFLATED, -15, mem_level, strategy),
            Z_OK);
  std::string out(deflateBound(&z, in.size()) + 1024, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  return out;
}

// A urlset as generate writes it, words and numbers varying.
std::string urlset(std::mt19937& rng, std::size_t bytes) {
  static const char* const words[] = {"store",  "blog",    "tea",    "ring",
                                      "garden", "review",  "camera", "watch",
                                      "travel", "kitchen", "sale",   "modern"};
  static const char* const freqs[] = {"daily", "weekly", "monthly", "never"};
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset "
      "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  while (xml.size() < bytes) {
    xml += "<url><loc>https://www.example.com/";
    for (int k = 1 + static_cast<int>(rng() % 4); k > 0; --k) {
      xml += words[rng() % 12];
      xml += k > 1 ? '-' : '/';
    }
    xml += std::to_string(rng() % 100000) + "</loc><lastmod>202" +
           std::to_string(rng() % 7) + "-0" + std::to_string(1 + rng() % 9) +
           "-1" + std::to_string(rng() % 10) + "</lastmod><changefreq>" +
           freqs[rng() % 4] + "</changefreq><priority>0." +
           std::to_string(rng() % 10) + "</priority></url>\n";
  }
  return xml + "</urlset>\n";
}

// Inputs for every block type and code shape: text (dynamic codes), noise
// (stored blocks), runs, a few bytes (fixed codes), nothing, and bytes whose
// frequencies halve from one to the next (codes up to 15 bits, longer than
// the walker's table).
std::vector<std::string> inputs() {
  std::mt19937 rng(31);
  std::vector<std::string> in;
  in.push_back(urlset(rng, 400'000));  // blocks of libdeflate's own length
  in.push_back(urlset(rng, 40'000));
  std::string noise(40'000, '\0');
  for (char& c : noise) c = static_cast<char>(rng());
  in.push_back(noise);
  in.push_back(in[1].substr(0, 10'000) + noise.substr(0, 5'000) +
               std::string(8'000, 'a') + in[1].substr(20'000, 10'000));
  std::string skewed;
  while (skewed.size() < 60'000) {
    int c = 0;
    while (c < 40 && (rng() & 1) != 0) ++c;
    skewed += static_cast<char>('A' + c);
  }
  in.push_back(skewed);
  in.push_back("hello, hello, hello");
  in.push_back("a");
  in.push_back("");
  return in;
}

// Every libdeflate level; zlib's stored, fixed-code and dynamic blocks,
// Huffman only and runs only, with its usual and its smallest blocks.
const std::vector<std::string>& streams() {
  static const std::vector<std::string> all = [] {
    std::vector<std::string> out;
    for (const std::string& in : inputs()) {
      for (int level = 0; level <= 12; ++level)
        out.push_back(libdeflate_raw(in, level));
      if (in.size() > 100'000) continue;  // libdeflate's levels are enough
      for (int strategy :
           {Z_DEFAULT_STRATEGY, Z_FIXED, Z_HUFFMAN_ONLY, Z_RLE}) {
        for (int level : {0, 1, 6, 9}) {
          out.push_back(zlib_raw(in, level, strategy));
          out.push_back(zlib_raw(in, level, strategy, 1));
        }
      }
    }
    return out;
  }();
  return all;
}

bool same(const std::optional<final_block>& a,
          const std::optional<final_block>& b) {
  if (!a || !b) return !a && !b;
  return a->header_bit == b->header_bit && a->end_bit == b->end_bit;
}

std::string describe(const std::optional<final_block>& b) {
  if (!b) return "none";
  return "final block at bit " + std::to_string(b->header_bit) +
         ", ending at bit " + std::to_string(b->end_bit);
}

// The walkers agree on `raw`; false (and a failure naming `what`) if not.
bool agree(std::string_view raw, const std::string& what) {
  const auto now = find_final_block(raw);
  const auto before = reference::find_final_block(raw);
  EXPECT_TRUE(same(now, before))
      << what << " (" << raw.size() << " bytes): " << describe(now)
      << ", the reference: " << describe(before);
  return same(now, before);
}

TEST(DeflateWalkDifferential, AgreesOnEveryWholeStream) {
  // Which block types ended a stream the walker accepted: all three must.
  bool final_type[3] = {};
  std::size_t k = 0;
  for (const std::string& raw : streams()) {
    const std::string what = "stream " + std::to_string(k++);
    ASSERT_TRUE(agree(raw, what));
    const auto last = find_final_block(raw);
    ASSERT_TRUE(last) << what;
    EXPECT_EQ((last->end_bit + 7) / 8, raw.size()) << what;
    std::uint64_t h = last->header_bit + 1;
    unsigned type = 0;
    for (unsigned i = 0; i < 2; ++i, ++h) {
      type |= ((static_cast<unsigned char>(raw[h / 8]) >> (h % 8)) & 1u) << i;
    }
    ASSERT_LT(type, 3u) << what;
    final_type[type] = true;
  }
  EXPECT_TRUE(final_type[0]) << "no stream ended in a stored block";
  EXPECT_TRUE(final_type[1]) << "no stream ended in a fixed-code block";
  EXPECT_TRUE(final_type[2]) << "no stream ended in a dynamic block";
}

// Cut short, a stream ends inside a header, a table, a code or its extra
// bits, wherever the cut falls; the walk must fail there as the reference
// does, never read past the end (the sanitizer build runs this).
TEST(DeflateWalkDifferential, AgreesOnStreamsCutAnywhere) {
  std::mt19937 rng(7);
  std::size_t k = 0;
  for (const std::string& raw : streams()) {
    const std::string what = "stream " + std::to_string(k++);
    const std::size_t cuts = raw.size() < 400      ? raw.size()
                             : raw.size() < 20'000 ? 40
                                                   : 10;
    for (std::size_t i = 0; i < cuts; ++i) {
      const std::size_t cut = raw.size() < 400 ? i : rng() % (raw.size() + 1);
      if (!agree(std::string_view(raw).substr(0, cut),
                 what + " cut at " + std::to_string(cut))) {
        return;
      }
    }
    // The last bytes, where the walk's zero padding begins.
    for (std::size_t back = 1; back <= std::min<std::size_t>(10, raw.size());
         ++back) {
      if (!agree(std::string_view(raw).substr(0, raw.size() - back),
                 what + " less its last " + std::to_string(back))) {
        return;
      }
    }
  }
}

// A flipped bit changes a header, a code length, a code or extra bits: the
// walk then takes another path through the stream, often a valid one.
TEST(DeflateWalkDifferential, AgreesOnStreamsWithBitsFlipped) {
  std::mt19937 rng(13);
  std::size_t k = 0;
  for (const std::string& raw : streams()) {
    const std::string what = "stream " + std::to_string(k++);
    if (raw.empty()) continue;
    const int tries = raw.size() < 20'000 ? 40 : 10;
    for (int i = 0; i < tries; ++i) {
      std::string flipped = raw;
      const int flips = 1 + static_cast<int>(rng() % 3);
      for (int f = 0; f < flips; ++f) {
        // Half of the flips in the first 500 bytes: the first block's
        // header and tables.
        const std::size_t span = i % 2 == 0
                                     ? flipped.size()
                                     : std::min<std::size_t>(500, raw.size());
        const std::size_t bit = rng() % (span * 8);
        flipped[bit / 8] =
            static_cast<char>(flipped[bit / 8] ^ (1 << (bit % 8)));
      }
      if (!agree(flipped, what + " flip " + std::to_string(i))) return;
    }
  }
}

TEST(DeflateWalkDifferential, AgreesOnRandomBytes) {
  std::mt19937 rng(17);
  for (int i = 0; i < 50'000; ++i) {
    std::string junk(rng() % 80, '\0');
    for (char& c : junk) c = static_cast<char>(rng());
    if (!agree(junk, "random bytes " + std::to_string(i))) return;
  }
}

}  // namespace
}  // namespace sitemill::detail
