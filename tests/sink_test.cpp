// Sinks: memory, file (durable, exclusive, digested) and gzip (one member,
// reproducible header), checked by decompressing, never by golden bytes.
#include "sitemill/write/sink.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libdeflate.h>
#include <zlib.h>

#include <csignal>
#include <deque>
#include <filesystem>
#include <fstream>
#include <random>

namespace sitemill {
namespace {

// Inflates a whole gzip stream; also returns how many members it held.
std::string gunzip(const std::string& in, int* members = nullptr) {
  std::string out;
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  char buf[65536];
  int count = 0;
  for (;;) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    int rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
    if (rc == Z_STREAM_END) {
      ++count;
      if (z.avail_in == 0) break;
      inflateReset(&z);
      continue;
    }
    if (rc != Z_OK) {
      ADD_FAILURE() << "inflate failed: " << rc;
      break;
    }
  }
  inflateEnd(&z);
  if (members) *members = count;
  return out;
}

std::string sample_xml(std::size_t urls) {
  std::mt19937 rng(42);
  std::string s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset>\n";
  for (std::size_t i = 0; i < urls; ++i)
    s += "<url><loc>https://example.com/p/" + std::to_string(rng()) +
         "</loc></url>\n";
  return s + "</urlset>\n";
}

class temp_dir {
 public:
  temp_dir() {
    char tmpl[] = "/tmp/sitemill-sink-XXXXXX";
    path_ = ::mkdtemp(tmpl);
  }
  ~temp_dir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(GzipCompress, RoundTripsAtEveryLevelAsOneMember) {
  const std::string xml = sample_xml(20'000);
  for (compression level :
       {compression::fast, compression::normal, compression::best}) {
    std::string packed = gzip_compress(xml, level);
    int members = 0;
    EXPECT_EQ(gunzip(packed, &members), xml);
    EXPECT_EQ(members, 1);
    EXPECT_LT(packed.size(), xml.size() / 2);
  }
}

TEST(GzipCompress, HeaderHasNoTimestampNoNameAndIsTheSameForEveryLevel) {
  for (compression level :
       {compression::fast, compression::normal, compression::best}) {
    std::string packed = gzip_compress("hello", level);
    ASSERT_GE(packed.size(), 18u);
    EXPECT_EQ(static_cast<unsigned char>(packed[0]), 0x1f);
    EXPECT_EQ(static_cast<unsigned char>(packed[1]), 0x8b);
    EXPECT_EQ(packed[3], 0) << "FLG: no FNAME, FCOMMENT or FEXTRA";
    EXPECT_EQ(packed.substr(4, 4), std::string(4, '\0')) << "MTIME must be 0";
    EXPECT_EQ(packed.substr(0, 10),
              gzip_compress("other", compression::normal).substr(0, 10));
  }
}

TEST(GzipCompress, IsDeterministic) {
  const std::string xml = sample_xml(5'000);
  EXPECT_EQ(gzip_compress(xml, compression::normal),
            gzip_compress(xml, compression::normal));
  EXPECT_EQ(gzip_compress(xml, compression::fast),
            gzip_compress(xml, compression::fast));
}

TEST(GzipCompress, HandlesEmptyInput) {
  EXPECT_EQ(gunzip(gzip_compress("", compression::normal)), "");
  EXPECT_EQ(gunzip(gzip_compress("", compression::fast)), "");
}

TEST(GzipSink, CompressesEverythingWrittenIntoTheDownstreamSink) {
  std::string out;
  gzip_sink gz(std::make_unique<memory_sink>(&out), compression::normal);
  const std::string xml = sample_xml(1'000);
  // Many small writes, including one of size 1 and one empty.
  for (std::size_t i = 0; i < xml.size(); i += 777)
    ASSERT_TRUE(
        gz.write(xml.data() + i, std::min<std::size_t>(777, xml.size() - i)));
  ASSERT_TRUE(gz.write("", 0));
  ASSERT_TRUE(gz.close());
  EXPECT_EQ(gunzip(out), xml);
  EXPECT_FALSE(gz.write("x", 1));
  EXPECT_FALSE(gz.close());
}

TEST(CompressPool, CompressesManyFilesInParallelIntoTheRightSinks) {
  compress_pool pool(2);
  std::deque<std::string> outs;
  std::vector<std::string> inputs;
  for (int i = 0; i < 12; ++i)
    inputs.push_back(sample_xml(500 + 100 * static_cast<std::size_t>(i)));
  for (const auto& in : inputs) {
    outs.emplace_back();
    gzip_sink gz(std::make_unique<memory_sink>(&outs.back()),
                 compression::normal, &pool);
    ASSERT_TRUE(gz.write(in.data(), in.size()));
    ASSERT_TRUE(gz.close());
  }
  ASSERT_TRUE(pool.wait());
  for (std::size_t i = 0; i < inputs.size(); ++i)
    EXPECT_EQ(gunzip(outs[i]), inputs[i]);
}

constexpr compression every_level[] = {compression::fast, compression::normal,
                                       compression::best};

// A file is compressed in chunks cut at fixed offsets, so the bytes
// depend on the data alone: with a pool (chunks on several workers at once)
// or without, whatever sizes the writer's writes had, they are
// gzip_compress()'s bytes.
TEST(GzipSink, WritesTheSameMemberWithAPoolWithoutOneAndInOneShot) {
  const std::string xml = sample_xml(45'000);  // about 2.6 MB: 2 chunks
  ASSERT_GT(xml.size(), gzip_chunk_bytes);
  for (compression level : every_level) {
    const std::string one_shot = gzip_compress(xml, level);
    int members = 0;
    ASSERT_EQ(gunzip(one_shot, &members), xml);
    EXPECT_EQ(members, 1);
    for (bool with_pool : {false, true}) {
      // Writes smaller than a chunk, and one larger than the file.
      for (std::size_t step : {std::size_t{777}, std::size_t{3'000'001}}) {
        compress_pool pool(2);
        std::string out;
        {
          gzip_sink gz(std::make_unique<memory_sink>(&out), level,
                       with_pool ? &pool : nullptr);
          for (std::size_t i = 0; i < xml.size(); i += step)
            ASSERT_TRUE(
                gz.write(xml.data() + i, std::min(step, xml.size() - i)));
          ASSERT_TRUE(gz.close());
        }
        ASSERT_TRUE(pool.wait());
        EXPECT_EQ(out, one_shot) << "level " << static_cast<int>(level)
                                 << (with_pool ? ", pool" : ", no pool")
                                 << ", write size " << step;
      }
    }
  }
}

// Sizes at and around the chunk boundary: a file of exactly one chunk ends
// with an empty final piece, one byte more with a one-byte piece.
TEST(GzipSink, RoundTripsEverySizeAroundAChunk) {
  constexpr std::size_t chunk = gzip_chunk_bytes;
  std::mt19937 rng(3);
  std::string data(2 * chunk + 3, '\0');
  for (char& c : data) c = "<url>loc/ab"[rng() % 11];
  for (std::size_t size : {std::size_t{0}, std::size_t{1}, chunk - 1, chunk,
                           chunk + 1, 2 * chunk, 2 * chunk + 3}) {
    const std::string in = data.substr(0, size);
    for (compression level : every_level) {
      // The slowest level on the two sizes that differ most.
      if (level == compression::best && size != 0 && size != chunk + 1)
        continue;
      compress_pool pool(2);
      std::string out;
      {
        gzip_sink gz(std::make_unique<memory_sink>(&out), level, &pool);
        ASSERT_TRUE(gz.write(in.data(), in.size()));
        ASSERT_TRUE(gz.close());
      }
      ASSERT_TRUE(pool.wait());
      int members = 0;
      EXPECT_EQ(gunzip(out, &members), in) << size;
      EXPECT_EQ(members, 1) << size;
      EXPECT_EQ(out, gzip_compress(in, level)) << size;
    }
  }
}

// Chunks start with an empty window: the price in size is small. The
// bound is loose on purpose; benchmarks/README.md has the measurement.
TEST(GzipCompress, ChunkingCostsUnderOnePercentOfTheSize) {
  const std::string xml = sample_xml(100'000);  // about 5.7 MB
  libdeflate_compressor* c = libdeflate_alloc_compressor(6);
  std::string whole(libdeflate_gzip_compress_bound(c, xml.size()), '\0');
  whole.resize(libdeflate_gzip_compress(c, xml.data(), xml.size(),
                                        whole.data(), whole.size()));
  libdeflate_free_compressor(c);
  const std::string chunked = gzip_compress(xml, compression::normal);
  EXPECT_LT(static_cast<double>(chunked.size()),
            static_cast<double>(whole.size()) * 1.01);
}

TEST(CompressPool, StreamsSeveralFastFilesAtOnce) {
  compress_pool pool(2);
  std::deque<std::string> outs(3);
  std::vector<std::string> inputs = {sample_xml(30'000), "", sample_xml(7)};
  {
    std::vector<std::unique_ptr<gzip_sink>> sinks;
    for (auto& out : outs)
      sinks.push_back(std::make_unique<gzip_sink>(
          std::make_unique<memory_sink>(&out), compression::fast, &pool));
    // Interleave the writes, 64 KiB at a time.
    constexpr std::size_t step = 64 * 1024;
    for (std::size_t at = 0;; at += step) {
      bool any = false;
      for (std::size_t k = 0; k < sinks.size(); ++k) {
        if (at >= inputs[k].size()) continue;
        any = true;
        ASSERT_TRUE(sinks[k]->write(inputs[k].data() + at,
                                    std::min(step, inputs[k].size() - at)));
      }
      if (!any) break;
    }
    for (auto& gz : sinks) ASSERT_TRUE(gz->close());
  }
  ASSERT_TRUE(pool.wait());
  for (std::size_t k = 0; k < inputs.size(); ++k)
    EXPECT_EQ(gunzip(outs[k]), inputs[k]) << k;
}

// A run that fails drops its open sink without close(): wait() must not hang
// on it, and the file is never finished.
TEST(CompressPool, ADroppedSinkNeitherHangsNorFinishes) {
  for (compression level : every_level) {
    compress_pool pool(2);
    std::string out;
    auto gz = std::make_unique<gzip_sink>(std::make_unique<memory_sink>(&out),
                                          level, &pool);
    const std::string xml = sample_xml(45'000);  // more than a chunk
    ASSERT_TRUE(gz->write(xml.data(), xml.size()));
    EXPECT_TRUE(pool.wait()) << "an open sink is not waited for";
    gz.reset();
    EXPECT_TRUE(pool.wait());
    // Chunks written before the drop may have been compressed, but the
    // member was never finished: no trailer, so it does not inflate.
    EXPECT_LT(out.size(), gzip_compress(xml, level).size());
  }
}

class refusing_sink : public sink {
 public:
  status write(const char*, std::size_t) override { return error{"disk full"}; }
  status close() override { return {}; }
};

TEST(CompressPool, ReportsADownstreamFailureFromWait) {
  for (compression level : {compression::normal, compression::fast}) {
    compress_pool pool(2);
    {
      gzip_sink gz(std::make_unique<refusing_sink>(), level, &pool);
      ASSERT_TRUE(gz.write("abc", 3));
      ASSERT_TRUE(gz.close());  // the failure happens later, on a worker
    }
    status s = pool.wait();
    EXPECT_FALSE(s);
    EXPECT_EQ(s.message(), "disk full");
    EXPECT_TRUE(pool.wait()) << "a reported error is not reported twice";
  }
}

TEST(FileSink, WritesDurablyAndDigestsWhatItWrote) {
  temp_dir dir;
  auto f = file_sink::create(dir.file("a.xml"));
  ASSERT_TRUE(f) << f.err().message;
  file_digest seen;
  (*f)->report_to(&seen);
  std::string data = sample_xml(20'000);  // larger than the 256 KiB buffer
  ASSERT_TRUE((*f)->write(data.data(), data.size()));
  ASSERT_TRUE((*f)->close());
  EXPECT_EQ(slurp(dir.file("a.xml")), data);
  EXPECT_EQ((*f)->digest().bytes, data.size());
  EXPECT_EQ(seen.bytes, data.size());
  EXPECT_EQ(seen.xxh3, (*f)->digest().xxh3);
  EXPECT_NE(seen.xxh3, 0u);

  auto g = file_sink::create(dir.file("b.xml"));
  ASSERT_TRUE(g);
  ASSERT_TRUE((*g)->write(data.data(), data.size() - 1));
  ASSERT_TRUE((*g)->close());
  EXPECT_NE((*g)->digest().xxh3, seen.xxh3);
}

TEST(FileSink, NeverOverwritesAnExistingFile) {
  temp_dir dir;
  std::ofstream(dir.file("taken")) << "keep me";
  auto f = file_sink::create(dir.file("taken"));
  ASSERT_FALSE(f);
  EXPECT_NE(f.err().message.find(dir.file("taken")), std::string::npos);
  EXPECT_NE(f.err().message.find("File exists"), std::string::npos);
  EXPECT_EQ(slurp(dir.file("taken")), "keep me");
}

// A full disk, made real with RLIMIT_FSIZE in a child process: writes past
// the limit fail with EFBIG, and the error must name the file.
[[noreturn]] void write_past_file_size_limit(const std::string& path) {
  std::signal(SIGXFSZ, SIG_IGN);
  rlimit lim{100'000, 100'000};
  ::setrlimit(RLIMIT_FSIZE, &lim);
  auto f = file_sink::create(path);
  if (!f) std::_Exit(3);
  std::string data(1'000'000, 'x');
  status w = (*f)->write(data.data(), data.size());
  status c = w ? (*f)->close() : w;
  bool named = c.message().find(path) != std::string::npos &&
               c.message().find("cannot write") != std::string::npos;
  std::_Exit(!c && named ? 0 : 1);
}

TEST(FileSink, ReportsAWriteFailureNamingTheFile) {
  temp_dir dir;
  EXPECT_EXIT(write_past_file_size_limit(dir.file("big.xml")),
              testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace sitemill
