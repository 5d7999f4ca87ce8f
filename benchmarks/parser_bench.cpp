// sitemap_parser throughput over a ~50 MB urlset generated in memory
// (deterministic): bytes/s of uncompressed XML and entries/s, with the
// schema checks on (sitemill check) and off (generate --from-sitemap), from
// gzip, and with extension content (image and hreflang alternates) that is
// validated against the bundled schemas; and each read by xml_scanner (what
// parse_file and the walker use for files) against libxml2 (streams).
// Goal: >= 300 MB/s with checks on, one core, a quiet machine.
#include <benchmark/benchmark.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "parse/document_parser.h"
#include "sitemill/parse/sitemap_parser.h"

namespace {

using sitemill::parse_options;
using sitemill::parsed_entry;

// Just under the protocol's 52,428,800 bytes, so no size error is made.
constexpr std::size_t target_size = 52'000'000;

// Counts and touches what it is given, as the checker would, without
// keeping it.
struct counting_handler : sitemill::parse_handler {
  std::uint64_t entries = 0, bytes = 0, diagnostics = 0;
  void on_entry(const parsed_entry& e) override {
    ++entries;
    bytes += e.loc.text.size() + e.lastmod.text.size();
  }
  void on_diagnostic(const sitemill::diagnostic&) override { ++diagnostics; }
};

// Realistic entries: a few hundred categories, long slugs, a full lastmod,
// changefreq and priority; optionally an image and two hreflang alternates.
// `flush(text)` receives the document in pieces of about 1 MB.
template <class Flush>
void generate_urlset(bool extensions, Flush flush) {
  std::string doc =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset "
      "xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"";
  if (extensions) {
    doc +=
        " xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\""
        " xmlns:xhtml=\"http://www.w3.org/1999/xhtml\"";
  }
  doc += ">\n";
  std::size_t flushed = 0;
  std::uint32_t x = 12345;
  char buf[1024];
  static const char* const freqs[] = {"daily", "weekly", "monthly", "yearly"};
  for (std::uint32_t i = 0; flushed + doc.size() < target_size - 2048; ++i) {
    x = x * 1103515245u + 12345u;
    const unsigned category = x % 500, slug = (x >> 8) % 100'000;
    int n = std::snprintf(
        buf, sizeof buf,
        "  <url>\n    <loc>https://www.example.com/catalog/category-%u/"
        "product-%u-some-longer-slug-%u.html</loc>\n    <lastmod>2024-%02u-"
        "%02uT%02u:%02u:%02u+00:00</lastmod>\n    <changefreq>%s</changefreq>"
        "\n    <priority>0.%u</priority>\n",
        category, i, slug, 1 + (x >> 3) % 12, 1 + (x >> 5) % 28, (x >> 7) % 24,
        (x >> 9) % 60, (x >> 11) % 60, freqs[(x >> 13) % 4], (x >> 15) % 10);
    doc.append(buf, static_cast<std::size_t>(n));
    if (extensions) {
      n = std::snprintf(
          buf, sizeof buf,
          "    <image:image>\n      <image:loc>https://cdn.example.com/img/"
          "%u/%u.jpg</image:loc>\n    </image:image>\n    <xhtml:link "
          "rel=\"alternate\" hreflang=\"de\" href=\"https://www.example.de/"
          "p/%u\"/>\n    <xhtml:link rel=\"alternate\" hreflang=\"en-GB\" "
          "href=\"https://www.example.co.uk/p/%u\"/>\n",
          category, i, i, i);
      doc.append(buf, static_cast<std::size_t>(n));
    }
    doc += "  </url>\n";
    if (doc.size() > (1 << 20)) {
      flush(doc);
      flushed += doc.size();
      doc.clear();
    }
  }
  doc += "</urlset>\n";
  flush(doc);
}

std::string make_urlset(bool extensions) {
  std::string doc;
  doc.reserve(target_size);
  generate_urlset(extensions, [&](const std::string& piece) { doc += piece; });
  return doc;
}

std::string gzip(const std::string& data) {
  z_stream zs{};
  deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&zs, static_cast<uLong>(data.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

const std::string& plain_urlset() {
  static const std::string doc = make_urlset(false);
  return doc;
}

// The document in memory through the parser, with xml_scanner (a document
// that can be read again) or libxml2 (a stream).
sitemill::parse_summary parse(const std::string& input,
                              sitemill::parse_handler& handler,
                              const parse_options& options, bool scanner) {
  if (!scanner) return sitemill::parse_bytes(input, handler, options);
  sitemill::detail::document_parser parser(handler, options,
                                           [&](const auto& sink) {
                                             sink(input.data(), input.size());
                                             return true;
                                           });
  parser.feed(input.data(), input.size());
  return parser.finish();
}

void run(benchmark::State& state, const std::string& input,
         std::size_t uncompressed, bool checks, bool scanner = false) {
  parse_options options;
  options.schema_checks = checks;
  std::uint64_t entries = 0;
  for (auto _ : state) {
    counting_handler handler;
    const auto summary = parse(input, handler, options, scanner);
    benchmark::DoNotOptimize(handler.bytes);
    if (!summary.complete) state.SkipWithError("the document did not parse");
    entries = summary.entries;
  }
  state.SetBytesProcessed(
      static_cast<std::int64_t>(state.iterations() * uncompressed));
  state.counters["entries/s"] =
      benchmark::Counter(static_cast<double>(entries * state.iterations()),
                         benchmark::Counter::kIsRate);
  state.counters["MB"] = static_cast<double>(uncompressed) / 1e6;
}

// Peak resident memory so far, in bytes (Linux).
std::uint64_t peak_rss() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with("VmHWM:")) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

// Memory stays flat: parse_file reads a 52 MB sitemap in blocks, and the
// peak resident size grows by the parser's buffers only. Registered first,
// before other benchmarks hold whole documents in memory.
void BM_ParseFileMemory(benchmark::State& state) {
  const auto path =
      std::filesystem::temp_directory_path() /
      ("sitemill_parser_bench_" + std::to_string(::getpid()) + ".xml");
  std::uint64_t size = 0;
  {
    std::ofstream out(path, std::ios::binary);
    generate_urlset(false, [&](const std::string& piece) {
      out << piece;
      size += piece.size();
    });
  }
  const std::uint64_t before = peak_rss();
  for (auto _ : state) {
    counting_handler handler;
    auto summary = sitemill::parse_file(path.string(), handler);
    if (!summary || !summary->complete) state.SkipWithError("parse failed");
  }
  const std::uint64_t after = peak_rss();
  state.counters["peak_rss_growth_MB"] =
      static_cast<double>(after - before) / 1e6;
  state.counters["peak_rss_MB"] = static_cast<double>(after) / 1e6;
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
  std::filesystem::remove(path);
}
BENCHMARK(BM_ParseFileMemory)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_ParseUrlset(benchmark::State& state) {
  const std::string& doc = plain_urlset();
  run(state, doc, doc.size(), state.range(0) != 0, state.range(1) != 0);
}
BENCHMARK(BM_ParseUrlset)
    ->ArgNames({"checks", "scanner"})
    ->Args({1, 0})
    ->Args({0, 0})
    ->Args({1, 1})
    ->Args({0, 1})
    ->Unit(benchmark::kMillisecond);

void BM_ParseUrlsetGzip(benchmark::State& state) {
  static const std::string gz = gzip(plain_urlset());
  run(state, gz, plain_urlset().size(), true, state.range(0) != 0);
}
BENCHMARK(BM_ParseUrlsetGzip)
    ->ArgName("scanner")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

void BM_ParseUrlsetWithExtensions(benchmark::State& state) {
  static const std::string doc = make_urlset(true);
  run(state, doc, doc.size(), true, state.range(0) != 0);
}
BENCHMARK(BM_ParseUrlsetWithExtensions)
    ->ArgName("scanner")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
