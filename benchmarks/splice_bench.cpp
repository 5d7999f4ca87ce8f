// The walk that finds where each compressed piece's final block starts
// (find_final_block(), src/write/deflate_splice.cpp), on real pieces: the
// XML files of a `generate --no-gzip` run, cut into gzip_chunk_bytes (2 MiB)
// pieces at the offsets the gzip sink cuts them, each compressed by
// libdeflate at level 6 as a default run does. Next to it, that compression,
// the cost the walk adds to.
//
//   build/sitemill generate --no-gzip --out /tmp/plain ... urls.tsv
//   build/benchmarks/splice_bench /tmp/plain
//
// "per_piece" is the time per piece. Instructions, which do not depend on
// what else the machine runs: run it under callgrind with
// --benchmark_filter=FindFinalBlock and divide find_final_block()'s
// inclusive count by its calls (docs/performance.md).
#include <benchmark/benchmark.h>
#include <libdeflate.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "sitemill/write/sink.h"
#include "write/deflate_splice.h"

namespace {

std::string xml_dir;

struct pieces {
  std::vector<std::string> plain;       // the 2 MiB chunks
  std::vector<std::string> compressed;  // each one's raw DEFLATE stream
};

const pieces& real_pieces() {
  static const pieces p = [] {
    std::vector<std::filesystem::path> files;
    for (const auto& f : std::filesystem::directory_iterator(xml_dir)) {
      if (f.path().extension() == ".xml") files.push_back(f.path());
    }
    std::sort(files.begin(), files.end());
    pieces out;
    libdeflate_compressor* c = libdeflate_alloc_compressor(6);
    for (const auto& path : files) {
      std::ifstream in(path, std::ios::binary);
      const std::string xml{std::istreambuf_iterator<char>(in), {}};
      // Only whole chunks: the last of a file is not walked.
      for (std::size_t at = 0; xml.size() - at > sitemill::gzip_chunk_bytes;
           at += sitemill::gzip_chunk_bytes) {
        std::string chunk = xml.substr(at, sitemill::gzip_chunk_bytes);
        std::string raw(libdeflate_deflate_compress_bound(c, chunk.size()),
                        '\0');
        raw.resize(libdeflate_deflate_compress(c, chunk.data(), chunk.size(),
                                               raw.data(), raw.size()));
        out.plain.push_back(std::move(chunk));
        out.compressed.push_back(std::move(raw));
      }
    }
    libdeflate_free_compressor(c);
    if (out.plain.empty())
      throw std::runtime_error("no 2 MiB piece in the .xml files of " +
                               xml_dir);
    return out;
  }();
  return p;
}

void count(benchmark::State& state, std::size_t n) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.counters["per_piece"] = benchmark::Counter(
      static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                  benchmark::Counter::kInvert);
}

void BM_FindFinalBlock(benchmark::State& state) {
  const auto& in = real_pieces().compressed;
  for (auto _ : state) {
    for (const std::string& raw : in) {
      auto last = sitemill::detail::find_final_block(raw);
      if (!last) throw std::runtime_error("find_final_block failed");
      benchmark::DoNotOptimize(last);
    }
  }
  count(state, in.size());
}
BENCHMARK(BM_FindFinalBlock)->Unit(benchmark::kMillisecond);

// What the walk adds to: libdeflate 6 over the same pieces.
void BM_Libdeflate6(benchmark::State& state) {
  const auto& in = real_pieces().plain;
  libdeflate_compressor* c = libdeflate_alloc_compressor(6);
  std::string out(
      libdeflate_deflate_compress_bound(c, sitemill::gzip_chunk_bytes), '\0');
  for (auto _ : state) {
    for (const std::string& chunk : in) {
      benchmark::DoNotOptimize(libdeflate_deflate_compress(
          c, chunk.data(), chunk.size(), out.data(), out.size()));
    }
  }
  libdeflate_free_compressor(c);
  count(state, in.size());
}
BENCHMARK(BM_Libdeflate6)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (argc != 2) {
    std::fprintf(stderr,
                 "usage: splice_bench [benchmark flags] DIR\n"
                 "DIR: the .xml files of a `sitemill generate --no-gzip` "
                 "run\n");
    return 2;
  }
  xml_dir = argv[1];
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
