// compress_pool holds a few chunks over all its files, not a few per file:
// a writer that closes file after file faster than the workers write them
// waits, so memory does not grow with the files it has closed (issue 31:
// 2 MiB more per 50,000-URL file while a spool was replayed).
#include <gtest/gtest.h>
#include <zlib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "sitemill/write/sink.h"

namespace sitemill {
namespace {

// Every write of every file waits until the test opens the gate, so nothing
// a pool was handed can be written before then.
struct gate {
  std::mutex mu;
  std::condition_variable cv;
  bool open = false;
  std::size_t writes_waiting = 0;
};

class gated_sink : public sink {
 public:
  gated_sink(gate& g, std::string& out) : gate_(g), out_(out) {}
  status write(const char* data, std::size_t size) override {
    std::unique_lock lock(gate_.mu);
    ++gate_.writes_waiting;
    gate_.cv.notify_all();
    gate_.cv.wait(lock, [&] { return gate_.open; });
    out_.append(data, size);
    return {};
  }
  status close() override { return {}; }

 private:
  gate& gate_;
  std::string& out_;
};

// One gzip member of at most a chunk, inflated.
std::string inflate_all(const std::string& in) {
  std::string out(gzip_chunk_bytes + 1, '\0');
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 16 + MAX_WBITS), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
  out.resize(z.total_out);
  inflateEnd(&z);
  return out;
}

TEST(CompressPoolBound, AWriterClosingFileAfterFileWaitsForTheWorkers) {
  constexpr std::size_t files = 8;
  compress_pool pool(1);  // holds 2 chunks: one per worker and one more
  gate g;
  std::deque<std::string> outs(files);
  // Exactly one chunk per file: close() hands over an empty last chunk, so
  // each file is two chunks, and the old bound of three chunks per file
  // never made this writer wait.
  std::string text;
  for (std::size_t i = 0; text.size() < gzip_chunk_bytes; ++i)
    text += "<url><loc>https://www.example.com/p/" + std::to_string(i) +
            "</loc></url>\n";
  text.resize(gzip_chunk_bytes);

  std::atomic<std::size_t> closed{0};
  std::atomic<bool> failed{false};
  std::thread writer([&] {
    for (std::size_t k = 0; k < files; ++k) {
      gzip_sink gz(std::make_unique<gated_sink>(g, outs[k]), compression::fast,
                   &pool);
      if (!gz.write(text.data(), text.size()) || !gz.close()) failed = true;
      {
        std::lock_guard lock(g.mu);
        ++closed;
      }
      g.cv.notify_all();
    }
  });

  {
    std::unique_lock lock(g.mu);
    // The worker is writing file 0's first piece, which cannot finish.
    g.cv.wait(lock, [&] { return g.writes_waiting > 0; });
    // Whether the writer waits cannot be seen, only that it has not got
    // past the bound; the pause gives an unbounded writer time to be caught
    // (it closes eight files in milliseconds), and a bounded one passes
    // however long it is.
    g.cv.wait_for(lock, std::chrono::milliseconds(500),
                  [&] { return closed.load() == files; });
  }
  // File 0's two chunks fill the pool; file 1's first push must wait.
  EXPECT_LE(closed.load(), 1u)
      << "the writer ran ahead of a pool that could write nothing";

  {
    std::lock_guard lock(g.mu);
    g.open = true;
  }
  g.cv.notify_all();
  writer.join();
  EXPECT_FALSE(failed.load());
  EXPECT_EQ(closed.load(), files);
  ASSERT_TRUE(pool.wait());
  for (std::size_t k = 0; k < files; ++k)
    EXPECT_EQ(inflate_all(outs[k]), text) << "file " << k;
}

}  // namespace
}  // namespace sitemill
