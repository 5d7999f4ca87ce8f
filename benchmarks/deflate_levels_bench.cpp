// Every deflate level sitemill could use, on the same ~10 MB urlset, next to
// zlib level 6 (what `gzip -6` does, the size target). This is the
// measurement behind compression::normal being libdeflate 6 and
// compression::fast being ISA-L 1: "ratio_vs_gzip6" above 1.00 misses the
// size target, so the cheapest level at or under 1.00 is the default.
//
//   build/benchmarks/deflate_levels_bench
//
// Bytes are uncompressed XML in; counters: "ratio" compressed / in,
// "ratio_vs_gzip6" compressed / zlib level 6's compressed size.
#include <benchmark/benchmark.h>
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "sitemill/entry/entry.h"
#include "sitemill/write/sink.h"
#include "sitemill/write/writer.h"
#include "write/deflate_splice.h"

namespace {

using namespace sitemill;

// A urlset like make_urls.py's: localised paths of several words, some
// queries, lastmods with and without time.
const std::string& urlset() {
  static const std::string xml = [] {
    static const char* const words[] = {
        "store", "blog",   "tea",     "ring",  "garden",  "review",   "camera",
        "watch", "travel", "kitchen", "sale",  "premium", "green",    "modern",
        "notes", "forum",  "events",  "table", "running", "configure"};
    static const char* const langs[] = {"", "de-de/", "fr-fr/", "ja-jp/"};
    static const char* const freqs[] = {"always",  "hourly", "daily", "weekly",
                                        "monthly", "yearly", "never"};
    std::mt19937 rng(2024);
    auto below = [&](unsigned n) { return static_cast<unsigned>(rng() % n); };
    auto pick = [&](auto& list) {
      return list[rng() % (sizeof list / sizeof list[0])];
    };
    std::string out;
    writer_options o;
    sitemap_writer w(
        std::move(o), [&out](std::size_t) -> result<std::unique_ptr<sink>> {
          return std::unique_ptr<sink>(std::make_unique<memory_sink>(&out));
        });
    entry_builder builder(
        *url_normalizer::with_base("https://www.example.com/"));
    url_entry e;
    std::vector<field_warning> warnings;
    for (int i = 0; i < 50'000; ++i) {
      std::string loc = "https://www.example.com/";
      loc += pick(langs);
      for (int k = 1 + static_cast<int>(rng() % 5); k > 0; --k) {
        loc += pick(words);
        loc += k > 1 ? "-" : "/";
      }
      loc += std::to_string(i);
      if (rng() % 7 == 0) loc += "?sort=" + std::string(pick(words)) + "&q=1";
      char date[32];
      std::snprintf(date, sizeof date, "20%02u-%02u-%02uT%02u:%02u:%02uZ",
                    18 + below(7), 1 + below(12), 1 + below(28), below(24),
                    below(60), below(60));
      char priority[4] = {'0', '.', static_cast<char>('0' + rng() % 10), 0};
      if (builder.build_loc(loc, e).problem != url_problem::ok)
        throw std::runtime_error("bad generated URL " + loc);
      builder.build_fields(date, pick(freqs), priority, e, warnings);
      if (w.add(e) != add_status::added) throw std::runtime_error(w.error());
    }
    if (!w.finish()) throw std::runtime_error(w.error());
    return out;
  }();
  return xml;
}

std::size_t zlib_size(const std::string& in, int level) {
  uLongf n = compressBound(static_cast<uLong>(in.size()));
  std::vector<Bytef> out(n);
  if (compress2(out.data(), &n, reinterpret_cast<const Bytef*>(in.data()),
                static_cast<uLong>(in.size()), level) != Z_OK)
    throw std::runtime_error("zlib compress2 failed");
  return n;
}

std::size_t gzip6_size() {
  static const std::size_t n = zlib_size(urlset(), 6);
  return n;
}

void report(benchmark::State& state, std::size_t out_size) {
  const std::string& in = urlset();
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(in.size()));
  state.counters["ratio"] =
      static_cast<double>(out_size) / static_cast<double>(in.size());
  state.counters["ratio_vs_gzip6"] =
      static_cast<double>(out_size) / static_cast<double>(gzip6_size());
}

void BM_Zlib(benchmark::State& state) {
  const std::string& in = urlset();
  std::size_t n = 0;
  for (auto _ : state) n = zlib_size(in, static_cast<int>(state.range(0)));
  report(state, n);
}
BENCHMARK(BM_Zlib)->Arg(6)->Unit(benchmark::kMillisecond);

void BM_Libdeflate(benchmark::State& state) {
  const std::string& in = urlset();
  libdeflate_compressor* c =
      libdeflate_alloc_compressor(static_cast<int>(state.range(0)));
  std::vector<char> out(libdeflate_deflate_compress_bound(c, in.size()));
  std::size_t n = 0;
  for (auto _ : state)
    n = libdeflate_deflate_compress(c, in.data(), in.size(), out.data(),
                                    out.size());
  libdeflate_free_compressor(c);
  report(state, n);
}
BENCHMARK(BM_Libdeflate)->DenseRange(1, 9)->Unit(benchmark::kMillisecond);

void BM_Isal(benchmark::State& state) {
  const std::string& in = urlset();
  const auto level = static_cast<std::uint32_t>(state.range(0));
  const std::size_t level_buf_size[] = {
      0, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};
  std::vector<std::uint8_t> level_buf(level_buf_size[level]);
  std::vector<std::uint8_t> out(in.size() + in.size() / 8 + 1024);
  std::size_t n = 0;
  for (auto _ : state) {
    isal_zstream s;
    isal_deflate_init(&s);
    s.level = level;
    s.level_buf = level_buf.data();
    s.level_buf_size = static_cast<std::uint32_t>(level_buf.size());
    s.end_of_stream = 1;
    s.flush = NO_FLUSH;
    s.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(in.data()));
    s.avail_in = static_cast<std::uint32_t>(in.size());
    s.next_out = out.data();
    s.avail_out = static_cast<std::uint32_t>(out.size());
    if (isal_deflate(&s) != COMP_OK) throw std::runtime_error("isal_deflate");
    n = out.size() - s.avail_out;
  }
  report(state, n);
}
BENCHMARK(BM_Isal)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

// What sitemill writes: gzip_compress() cuts the file into chunks,
// compresses each on its own and joins them (src/write/gzip.cpp). The
// ratio against BM_Libdeflate/6 and BM_Isal/1 is the price of streaming.
void BM_Chunked(benchmark::State& state) {
  const std::string& in = urlset();
  const auto level = static_cast<compression>(state.range(0));
  std::size_t n = 0;
  for (auto _ : state) n = gzip_compress(in, level).size();
  report(state, n);
  state.SetLabel(level == compression::fast     ? "fast"
                 : level == compression::normal ? "normal"
                                                : "best");
}
BENCHMARK(BM_Chunked)
    ->Arg(static_cast<int>(compression::fast))
    ->Arg(static_cast<int>(compression::normal))
    ->Arg(static_cast<int>(compression::best))
    ->Unit(benchmark::kMillisecond);

// The walk that finds where a piece's final block starts, on libdeflate 6's
// output for one chunk (gzip_chunk_bytes); bytes counted are its uncompressed
// bytes, to compare with BM_Libdeflate/6's rate.
void BM_FindFinalBlock(benchmark::State& state) {
  const std::string chunk = urlset().substr(0, gzip_chunk_bytes);
  libdeflate_compressor* c = libdeflate_alloc_compressor(6);
  std::string raw(libdeflate_deflate_compress_bound(c, chunk.size()), '\0');
  raw.resize(libdeflate_deflate_compress(c, chunk.data(), chunk.size(),
                                         raw.data(), raw.size()));
  libdeflate_free_compressor(c);
  for (auto _ : state) {
    auto last = detail::find_final_block(raw);
    if (!last) throw std::runtime_error("find_final_block failed");
    benchmark::DoNotOptimize(last);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(chunk.size()));
}
BENCHMARK(BM_FindFinalBlock)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
