// The parser against hostile input (docs/protocol.md checklist 25, E32): no
// entity is expanded and no file or URL is read (XXE, billion laughs,
// XInclude), and decompression stops at the byte cap (gzip bombs, endless
// documents). Each case is generated in the test, so the data stays small.
#include <gtest/gtest.h>
#include <zlib.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <string>

#include "parser_support.h"
#include "sitemill/limits.h"
#include "sitemill/parse/sitemap_parser.h"

namespace sitemill {
namespace {

using testing::parse;
using testing::parse_run;

// Generous enough for sanitizer builds; a hung or expanding parser takes
// far longer.
constexpr auto time_limit = std::chrono::seconds(15);

// A line of /etc/passwd that must never surface in what the parser reports.
std::string passwd_marker() {
  std::ifstream in("/etc/passwd");
  std::string line;
  std::getline(in, line);
  return line.empty() ? "root:x:0:0" : line.substr(0, line.find(':', 5));
}

bool mentions(const parse_run& run, const std::string& needle) {
  for (const auto& e : run.entries)
    if (e.loc.text.find(needle) != std::string::npos) return true;
  for (const auto& d : run.diagnostics)
    if (d.message.find(needle) != std::string::npos) return true;
  return false;
}

TEST(ParserSecurity, NeverExpandsAnExternalEntity) {
  // crawler-commons testSitemapXXE, in its three forms.
  const std::string marker = passwd_marker();
  const std::string body =
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url>"
      "<loc>https://www.example.com/&xxe;</loc></url></urlset>";
  for (const std::string& doc : {
           "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "
           "\"file:///etc/passwd\">]>\n" +
               body,
           "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [<!ENTITY % p SYSTEM "
           "\"file:///etc/passwd\"> %p;]>\n" +
               body,
           "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "
           "\"http://127.0.0.1:9/x\">]>\n" +
               body,
       }) {
    SCOPED_TRACE(doc.substr(0, 90));
    const parse_run run = parse(doc);
    EXPECT_TRUE(run.has("dtd-entity")) << run.describe();
    EXPECT_TRUE(run.entries.empty());
    EXPECT_FALSE(run.summary.complete);
    EXPECT_FALSE(mentions(run, marker));
  }
}

TEST(ParserSecurity, NeverLoadsAnExternalDtd) {
  const std::string marker = passwd_marker();
  const parse_run run = parse(
      "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset SYSTEM "
      "\"file:///etc/passwd\">\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>"
      "https://www.example.com/</loc></url></urlset>");
  EXPECT_TRUE(run.has("doctype")) << run.describe();
  // Had /etc/passwd been read as a DTD, it would not parse as one.
  EXPECT_FALSE(run.has("not-well-formed")) << run.describe();
  EXPECT_EQ(run.entries.size(), 1u);
  EXPECT_FALSE(mentions(run, marker));
}

TEST(ParserSecurity, StopsABillionLaughsAtTheFirstDeclaration) {
  // USP test_billion_laughs_attack, and the quadratic variant.
  std::string lol =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [\n<!ENTITY lol0 \"lol\">\n";
  for (int i = 1; i <= 9; ++i)
    lol += "<!ENTITY lol" + std::to_string(i) + " \"" + [&] {
      std::string refs;
      for (int k = 0; k < 10; ++k) refs += "&lol" + std::to_string(i - 1) + ";";
      return refs;
    }() + "\">\n";
  lol +=
      "]>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
      "<url><loc>https://www.example.com/&lol9;</loc></url></urlset>";
  const std::string quadratic =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [<!ENTITY a \"" +
      std::string(50'000, 'a') + "\">]>\n<urlset><url><loc>" +
      [] {
        std::string refs;
        for (int k = 0; k < 50'000; ++k) refs += "&a;";
        return refs;
      }() +
      "</loc></url></urlset>";
  for (const std::string& doc : {lol, quadratic}) {
    const auto start = std::chrono::steady_clock::now();
    const parse_run run = parse(doc);
    EXPECT_LT(std::chrono::steady_clock::now() - start, time_limit);
    EXPECT_TRUE(run.has("dtd-entity")) << run.describe();
    EXPECT_EQ(run.count("dtd-entity"), 1u);
    EXPECT_TRUE(run.entries.empty());
    EXPECT_LE(run.summary.bytes, doc.size());
  }
}

TEST(ParserSecurity, LeavesXIncludeUnprocessed) {
  // crawler-commons testSitemapXIncludeDisabled.
  const std::string marker = passwd_marker();
  const parse_run run = parse(
      "<?xml version=\"1.0\"?>\n<urlset "
      "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" "
      "xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n<url><loc>"
      "https://www.example.com/</loc><xi:include href=\"file:///etc/passwd\" "
      "parse=\"text\"/></url>\n<xi:include href=\"file:///etc/passwd\"/>\n"
      "</urlset>");
  EXPECT_EQ(run.locs(), std::vector<std::string>{"https://www.example.com/"});
  EXPECT_TRUE(run.has("extension-unknown-namespace")) << run.describe();
  EXPECT_FALSE(run.summary.schema_valid);
  EXPECT_TRUE(run.summary.complete);
  EXPECT_FALSE(mentions(run, marker));
}

// A gzip stream that inflates `head`, then `block` `copies` times, then
// `tail`, written without ever holding the inflated bytes: each part is a
// full-flushed raw deflate segment (no reference to what came before), so
// the block's compressed bytes can simply be repeated. CRC and length are
// combined, so the stream is valid to its end.
std::string gzip_bomb(const std::string& head, const std::string& block,
                      std::size_t copies, const std::string& tail) {
  z_stream zs{};
  deflateInit2(&zs, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
  auto segment = [&](const std::string& in, int flush) {
    std::string out(deflateBound(&zs, static_cast<uLong>(in.size())) + 64,
                    '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    deflate(&zs, flush);
    out.resize(out.size() - zs.avail_out);
    return out;
  };
  std::string gz("\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff", 10);
  gz += segment(head, Z_FULL_FLUSH);
  const std::string repeated = segment(block, Z_FULL_FLUSH);
  for (std::size_t i = 0; i < copies; ++i) gz += repeated;
  gz += segment(tail, Z_FINISH);
  deflateEnd(&zs);
  auto crc_of = [](const std::string& s) {
    return crc32(0, reinterpret_cast<const Bytef*>(s.data()),
                 static_cast<uInt>(s.size()));
  };
  uLong crc = crc_of(head);
  const uLong block_crc = crc_of(block);
  for (std::size_t i = 0; i < copies; ++i)
    crc = crc32_combine(crc, block_crc, static_cast<z_off_t>(block.size()));
  crc = crc32_combine(crc, crc_of(tail), static_cast<z_off_t>(tail.size()));
  const std::uint64_t size = head.size() + block.size() * copies + tail.size();
  for (int i = 0; i < 4; ++i) gz += static_cast<char>((crc >> (8 * i)) & 0xFF);
  for (int i = 0; i < 4; ++i) gz += static_cast<char>((size >> (8 * i)) & 0xFF);
  return gz;
}

TEST(ParserSecurity, StopsAGzipBombAtTheCap) {
  // 1 GiB of XML (a few URLs, then whitespace) in about 1 MB of gzip.
  const std::string head =
      "<?xml version=\"1.0\"?>\n<urlset "
      "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>"
      "https://www.example.com/</loc></url>\n";
  const std::string bomb =
      gzip_bomb(head, std::string(1 << 20, ' '), 1024, "</urlset>\n");
  ASSERT_LT(bomb.size(), 2u << 20);
  const auto start = std::chrono::steady_clock::now();
  const parse_run run = parse(bomb);
  EXPECT_LT(std::chrono::steady_clock::now() - start, time_limit);
  EXPECT_TRUE(run.has("decompressed-too-large")) << run.describe();
  EXPECT_TRUE(run.has("too-large"));
  EXPECT_EQ(run.summary.bytes, parse_options{}.max_bytes);
  EXPECT_TRUE(run.summary.gzipped);
  EXPECT_FALSE(run.summary.complete);
  EXPECT_EQ(run.summary.entries, 1u);  // what was read before the cap counts

  // The same bomb is read whole with a cap above its size: the stream is
  // valid, so the cap alone stopped it above.
  parse_options tiny;
  tiny.max_bytes = 4096;
  const parse_run small = parse(gzip_bomb(head, "  ", 10, "</urlset>\n"), tiny);
  EXPECT_TRUE(small.summary.complete) << small.describe();
  EXPECT_TRUE(small.diagnostics.empty()) << small.describe();
}

TEST(ParserSecurity, StopsAZeroBombAtOnce) {
  const std::string bomb = gzip_bomb("", std::string(1 << 20, '\0'), 1024, "");
  const parse_run run = parse(bomb);
  EXPECT_TRUE(run.has("binary-content")) << run.describe();
  EXPECT_FALSE(run.summary.complete);
  EXPECT_LE(run.summary.bytes, 1u << 20);  // one output block, not a gigabyte
}

TEST(ParserSecurity, StopsAnEndlessPlainDocumentAtTheCap) {
  // 200 MB offered 1 MiB at a time; reading stops just above 50 MiB.
  std::string block;
  while (block.size() < (1 << 20))
    block += "<url><loc>https://www.example.com/</loc></url>\n";
  // Entries are counted, not kept: a million copies would cost more than
  // the parse.
  struct counter : parse_handler {
    parse_run& run;
    explicit counter(parse_run& r) : run(r) {}
    void on_diagnostic(const diagnostic& d) override {
      run.diagnostics.push_back(d);
    }
  };
  parse_run run;
  counter r(run);
  sitemap_parser parser(r);
  const std::string head =
      "<?xml version=\"1.0\"?>\n<urlset "
      "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  parser.feed(head.data(), head.size());
  std::uint64_t offered = head.size();
  bool stopped = false;
  const auto start = std::chrono::steady_clock::now();
  while (offered < 200'000'000 && !stopped) {
    stopped = !parser.feed(block.data(), block.size());
    offered += block.size();
  }
  run.summary = parser.finish();
  EXPECT_LT(std::chrono::steady_clock::now() - start, time_limit);
  EXPECT_TRUE(stopped);
  EXPECT_LT(offered, 60'000'000u);
  EXPECT_TRUE(run.has("input-too-large")) << run.describe().substr(0, 2000);
  EXPECT_TRUE(run.has("too-large"));
  EXPECT_EQ(run.count("too-many-entries"), 1u);
  EXPECT_EQ(run.summary.bytes, parse_options{}.max_bytes);
  EXPECT_GT(run.summary.entries, max_urls_per_sitemap);
  EXPECT_FALSE(run.summary.complete);
}

}  // namespace
}  // namespace sitemill
