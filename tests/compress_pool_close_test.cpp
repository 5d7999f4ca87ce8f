// compress_pool closes finished files on a thread of its own: a close that
// waits on the disk (a file_sink's fsync) never holds a worker, and what a
// close reports still comes out of wait().
#include <gtest/gtest.h>
#include <libdeflate.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include "sitemill/write/sink.h"

namespace sitemill {
namespace {

// What a gated_sink holds, shared with the test: the pool destroys a sink
// once it is closed. Read under its lock: the pool's threads write it.
class gate {
 public:
  explicit gate(bool gated) : released_(!gated) {}
  void write(const char* data, std::size_t size) {
    std::lock_guard lock(mu_);
    bytes_.append(data, size);
    changed_.notify_all();
  }
  // Blocks until release() when gated, as an fsync on a slow disk does.
  void close() {
    std::unique_lock lock(mu_);
    entered_ = true;
    changed_.notify_all();
    changed_.wait(lock, [&] { return released_; });
  }
  void release() {
    std::lock_guard lock(mu_);
    released_ = true;
    changed_.notify_all();
  }
  // Each waits at most `limit`, a guard that only keeps a broken pool from
  // hanging the suite.
  bool wait_close_entered(std::chrono::seconds limit) {
    std::unique_lock lock(mu_);
    return changed_.wait_for(lock, limit, [&] { return entered_; });
  }
  bool wait_bytes(std::size_t n, std::chrono::seconds limit) {
    std::unique_lock lock(mu_);
    return changed_.wait_for(lock, limit, [&] { return bytes_.size() >= n; });
  }
  bool close_entered() {
    std::lock_guard lock(mu_);
    return entered_;
  }
  std::string bytes() {
    std::lock_guard lock(mu_);
    return bytes_;
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  std::string bytes_;
  bool entered_ = false;
  bool released_;
};

class gated_sink : public sink {
 public:
  explicit gated_sink(std::shared_ptr<gate> g) : gate_(std::move(g)) {}
  status write(const char* data, std::size_t size) override {
    gate_->write(data, size);
    return {};
  }
  status close() override {
    gate_->close();
    return {};
  }

 private:
  std::shared_ptr<gate> gate_;
};

class failing_close_sink : public sink {
 public:
  status write(const char*, std::size_t) override { return {}; }
  status close() override { return error{"cannot fsync: no space left"}; }
};

std::string text(std::size_t bytes, unsigned seed) {
  std::mt19937 rng(seed);
  std::string s;
  while (s.size() < bytes)
    s += "<url><loc>https://example.com/p/" + std::to_string(rng() % 100'000) +
         "</loc></url>\n";
  return s;
}

std::string gunzip(const std::string& member, std::size_t size) {
  libdeflate_decompressor* d = libdeflate_alloc_decompressor();
  std::string out(size, '\0');
  std::size_t got = 0;
  const auto r = libdeflate_gzip_decompress(d, member.data(), member.size(),
                                            out.data(), out.size(), &got);
  libdeflate_free_decompressor(d);
  EXPECT_EQ(r, LIBDEFLATE_SUCCESS);
  out.resize(got);
  return out;
}

TEST(CompressPoolClose, AFileWaitingOnItsCloseHoldsNoWorker) {
  // One worker: were the close on it, the second file could never be
  // compressed while the first one's close waits.
  compress_pool pool(1);
  auto first_gate = std::make_shared<gate>(true);
  auto second_gate = std::make_shared<gate>(false);
  // Released before the pool is destroyed, whatever fails: its closer joins.
  struct release_at_exit {
    std::shared_ptr<gate> g;
    ~release_at_exit() { g->release(); }
  } const guard{first_gate};
  const std::string first = text(3 * gzip_chunk_bytes + 100, 1);
  const std::string second = text(2 * gzip_chunk_bytes + 7, 2);
  {
    gzip_sink gz(std::make_unique<gated_sink>(first_gate), compression::normal,
                 &pool);
    ASSERT_TRUE(gz.write(first.data(), first.size()));
    ASSERT_TRUE(gz.close());
  }
  ASSERT_TRUE(first_gate->wait_close_entered(std::chrono::seconds(120)));
  // Written from a thread of its own: were the close on the worker, this
  // writer would wait for room that never comes.
  std::thread writer([&] {
    gzip_sink gz(std::make_unique<gated_sink>(second_gate), compression::normal,
                 &pool);
    EXPECT_TRUE(gz.write(second.data(), second.size()));
    EXPECT_TRUE(gz.close());
  });
  // The second file is compressed and written whole while the first one's
  // close still waits; its own close queues behind that one.
  EXPECT_TRUE(
      second_gate->wait_bytes(gzip_compress(second, compression::normal).size(),
                              std::chrono::seconds(120)));
  EXPECT_FALSE(second_gate->close_entered());
  first_gate->release();
  writer.join();
  ASSERT_TRUE(pool.wait());
  EXPECT_TRUE(second_gate->close_entered());
  EXPECT_EQ(gunzip(first_gate->bytes(), first.size()), first);
  EXPECT_EQ(gunzip(second_gate->bytes(), second.size()), second);
}

// Counts the sinks alive (handed to the pool, not yet closed and destroyed)
// and the most at once; each close takes a while, as an fsync does.
struct sink_census {
  std::mutex mu;
  int alive = 0;
  int peak = 0;
};

class slow_close_sink : public sink {
 public:
  explicit slow_close_sink(sink_census& c) : census_(c) {
    std::lock_guard lock(census_.mu);
    census_.peak = std::max(census_.peak, ++census_.alive);
  }
  ~slow_close_sink() override {
    std::lock_guard lock(census_.mu);
    --census_.alive;
  }
  status write(const char*, std::size_t) override { return {}; }
  status close() override {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    return {};
  }

 private:
  sink_census& census_;
};

TEST(CompressPoolClose, FilesWaitingForTheirCloseAreBounded) {
  // Tiny files (a thousand small sections) are written far faster than
  // they are closed: were the files waiting for the closer unbounded, each
  // would hold its descriptor and a run would open them all at once. At
  // most 16 wait, one is being closed, and the worker, the writer and the
  // chunks in flight hold a few more.
  sink_census census;
  {
    compress_pool pool(1);
    for (int i = 0; i < 200; ++i) {
      gzip_sink gz(std::make_unique<slow_close_sink>(census),
                   compression::normal, &pool);
      const std::string xml = text(100, static_cast<unsigned>(i));
      ASSERT_TRUE(gz.write(xml.data(), xml.size()));
      ASSERT_TRUE(gz.close());
    }
    ASSERT_TRUE(pool.wait());
  }
  EXPECT_EQ(census.alive, 0);
  EXPECT_LE(census.peak, 16 + 1 + 4);
  EXPECT_GE(census.peak, 2) << "the closer kept up with every file: the "
                               "test no longer shows files waiting";
}

TEST(CompressPoolClose, ACloseThatFailsIsReportedByWait) {
  compress_pool pool(2);
  {
    gzip_sink gz(std::make_unique<failing_close_sink>(), compression::normal,
                 &pool);
    const std::string xml = text(gzip_chunk_bytes + 5, 3);
    ASSERT_TRUE(gz.write(xml.data(), xml.size()));
    ASSERT_TRUE(gz.close());  // the close happens later, on the pool
  }
  const status s = pool.wait();
  EXPECT_FALSE(s);
  EXPECT_EQ(s.message(), "cannot fsync: no space left");
  EXPECT_TRUE(pool.wait()) << "a reported error is not reported twice";
}

}  // namespace
}  // namespace sitemill
