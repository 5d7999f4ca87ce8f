// gzip_sink and compress_pool: one gzip member per file, files compressed in
// parallel. libdeflate for the normal and best levels (smaller than gzip -6,
// ~2.6x faster than zlib), ISA-L level 1 for --fast; measured in
// benchmarks/README.md.
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "sitemill/limits.h"
#include "sitemill/write/sink.h"

namespace sitemill {
namespace {

// RFC 1952 header: deflate, no flags, MTIME 0 ("no time stamp"), XFL 0,
// OS 255 ("unknown"), so the bytes depend on the content only.
constexpr unsigned char gzip_header[10] = {0x1f, 0x8b, 8, 0, 0,
                                           0,    0,    0, 0, 0xff};

// Compressed output goes to a per-thread buffer that is reused and never
// zero-filled: pages are touched only as far as the compressor writes, so a
// 10 MiB bound costs the ~1.7 MiB actually produced.
struct output_buffer {
  std::unique_ptr<char[]> data;
  std::size_t capacity = 0;
  char* reserve(std::size_t n) {
    if (n > capacity) {
      data.reset(new char[n]);
      capacity = n;
    }
    return data.get();
  }
};

struct thread_compressors {
  libdeflate_compressor* normal = nullptr;
  libdeflate_compressor* best = nullptr;
  std::vector<std::uint8_t> isal_level_buf;
  output_buffer out;
  ~thread_compressors() {
    if (normal) libdeflate_free_compressor(normal);
    if (best) libdeflate_free_compressor(best);
  }
};

// One set per thread: libdeflate compressors are not thread-safe and cost
// ~1 MiB each to allocate, so workers keep theirs.
thread_compressors& compressors() {
  thread_local thread_compressors c;
  return c;
}

std::string_view libdeflate_gzip(std::string_view data, int level,
                                 libdeflate_compressor*& c) {
  if (c == nullptr) c = libdeflate_alloc_compressor(level);
  if (c == nullptr) throw std::bad_alloc();
  const std::size_t bound = libdeflate_gzip_compress_bound(c, data.size());
  char* out = compressors().out.reserve(bound);
  std::size_t n =
      libdeflate_gzip_compress(c, data.data(), data.size(), out, bound);
  // The bound makes failure impossible; 0 would mean libdeflate broke its
  // contract.
  if (n == 0)
    throw std::logic_error("libdeflate_gzip_compress exceeded its bound");
  // libdeflate writes the same fixed header fields except XFL (a hint for
  // the level); set ours so every level writes the same header bytes.
  std::memcpy(out, gzip_header, sizeof gzip_header);
  return {out, n};
}

std::string_view isal_gzip(std::string_view data) {
  auto& level_buf = compressors().isal_level_buf;
  if (level_buf.empty()) level_buf.resize(ISAL_DEF_LVL1_DEFAULT);
  // Deflate's worst case adds 5 bytes per 64 KiB stored block; be generous.
  const std::size_t bound =
      sizeof gzip_header + data.size() + data.size() / 16 + 1024;
  char* out = compressors().out.reserve(bound);
  std::memcpy(out, gzip_header, sizeof gzip_header);

  isal_zstream s;
  isal_deflate_init(&s);
  s.level = 1;
  s.level_buf = level_buf.data();
  s.level_buf_size = static_cast<std::uint32_t>(level_buf.size());
  s.gzip_flag =
      IGZIP_GZIP_NO_HDR;  // we wrote the header; ISA-L adds the trailer
  s.end_of_stream = 1;
  s.flush = NO_FLUSH;
  s.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(data.data()));
  // avail_in is 32-bit; a sitemap is at most 50 MiB, far below that.
  s.avail_in = static_cast<std::uint32_t>(data.size());
  s.next_out = reinterpret_cast<std::uint8_t*>(out) + sizeof gzip_header;
  s.avail_out = static_cast<std::uint32_t>(bound - sizeof gzip_header);
  if (isal_deflate(&s) != COMP_OK || s.internal_state.state != ZSTATE_END)
    throw std::logic_error("isal_deflate did not finish within its bound");
  return {out, bound - s.avail_out};
}

// Compresses into this thread's output buffer; valid until the next call.
std::string_view compress_here(std::string_view data, compression level) {
  switch (level) {
    case compression::fast:
      return isal_gzip(data);
    case compression::best:
      return libdeflate_gzip(data, 12, compressors().best);
    case compression::normal:
      break;
  }
  return libdeflate_gzip(data, 6, compressors().normal);
}

status compress_and_write(std::string_view data, compression level,
                          sink& downstream) {
  std::string_view packed = compress_here(data, level);
  if (status s = downstream.write(packed.data(), packed.size()); !s) return s;
  return downstream.close();
}

// Chunks of a streamed file: big enough that a hand-off costs nothing per
// byte, small enough that a few in flight keep memory flat.
constexpr std::size_t stream_chunk = 1 << 20;
constexpr std::size_t stream_queue_limit = 4 * stream_chunk;

}  // namespace

namespace detail {

// One --fast file, compressed by ISA-L chunk by chunk on the pool's workers
// while the writer is still filling it. ISA-L's output depends on how its
// input is fed, so gzip_sink always feeds whole stream_chunk pieces (cut at
// fixed offsets of the file, whatever the writes): the bytes depend on the
// data alone (tests/sink_test.cpp). Fields below the "guarded" line belong
// to the pool's mutex; the ISA-L state to whichever worker has `busy` set.
struct deflate_stream {
  std::unique_ptr<sink> downstream;
  isal_zstream z;
  std::vector<std::uint8_t> level_buf;
  bool started = false;
  status error;
  // -- guarded by compress_pool::impl::mu
  std::deque<std::string> chunks;  // to compress, in order
  std::size_t queued_bytes = 0;
  bool closing = false;    // the last chunk has been pushed
  bool abandoned = false;  // the sink went away without close()
  bool busy = false;       // a worker is on it
  bool in_ready = false;   // waiting in the ready queue
};

namespace {

status write_all(sink& out, const std::uint8_t* data, std::size_t size) {
  return out.write(reinterpret_cast<const char*>(data), size);
}

// Feeds `chunk` (the last one when `last`) through the stream's deflate
// state and writes what comes out downstream. Runs on a worker.
status deflate_chunk(deflate_stream& st, std::string_view chunk, bool last) {
  if (!st.started) {
    st.started = true;
    st.level_buf.resize(ISAL_DEF_LVL1_DEFAULT);
    isal_deflate_init(&st.z);
    st.z.level = 1;
    st.z.level_buf = st.level_buf.data();
    st.z.level_buf_size = static_cast<std::uint32_t>(st.level_buf.size());
    st.z.gzip_flag = IGZIP_GZIP_NO_HDR;  // our header, ISA-L's trailer
    if (status s = write_all(*st.downstream, gzip_header, sizeof gzip_header);
        !s) {
      return s;
    }
  }
  constexpr std::size_t out_size = 256 * 1024;
  char* out = compressors().out.reserve(out_size);
  st.z.next_in =
      reinterpret_cast<std::uint8_t*>(const_cast<char*>(chunk.data()));
  st.z.avail_in = static_cast<std::uint32_t>(chunk.size());
  st.z.end_of_stream = last ? 1 : 0;
  st.z.flush = NO_FLUSH;
  for (;;) {
    st.z.next_out = reinterpret_cast<std::uint8_t*>(out);
    st.z.avail_out = static_cast<std::uint32_t>(out_size);
    if (isal_deflate(&st.z) != COMP_OK)
      return error{"gzip compression failed (isal_deflate)"};
    const std::size_t produced = out_size - st.z.avail_out;
    if (produced != 0) {
      if (status s = write_all(*st.downstream,
                               reinterpret_cast<std::uint8_t*>(out), produced);
          !s) {
        return s;
      }
    }
    const bool drained = st.z.avail_in == 0 && st.z.avail_out != 0;
    if (last ? st.z.internal_state.state == ZSTATE_END : drained) break;
  }
  return last ? st.downstream->close() : status{};
}

}  // namespace
}  // namespace detail

std::string gzip_compress(std::string_view data, compression level) {
  return std::string(compress_here(data, level));
}

struct compress_pool::impl {
  struct job {
    std::string data;
    std::unique_ptr<sink> downstream;
    compression level;
  };

  std::mutex mu;
  std::condition_variable work_ready, worker_free, idle, stream_room;
  std::deque<job> queue;
  // Streams with a chunk (or their end) to compress and no worker on them.
  std::deque<std::shared_ptr<detail::deflate_stream>> ready;
  std::size_t running = 0;
  bool stopping = false;
  status first_error;
  // Uncompressed buffers keep their capacity from file to file (and chunk
  // to chunk), so their pages are faulted in once per run, not per file.
  std::vector<std::string> spare;
  std::vector<std::thread> workers;

  // Nothing queued and no worker busy. A stream whose sink is still open
  // does not count: its chunks so far are done, and the rest is not yet
  // submitted (a failed run waits here before the writer drops its sink).
  bool all_done() const {
    return queue.empty() && ready.empty() && running == 0;
  }

  void record(const status& s) {
    if (!s && first_error) first_error = s;
  }

  void run() {
    std::unique_lock lock(mu);
    for (;;) {
      work_ready.wait(
          lock, [&] { return stopping || !queue.empty() || !ready.empty(); });
      if (!ready.empty()) {
        run_stream_step(lock);
      } else if (!queue.empty()) {
        run_whole_file(lock);
      } else {
        return;  // stopping, nothing left
      }
      if (all_done()) idle.notify_all();
    }
  }

  void run_whole_file(std::unique_lock<std::mutex>& lock) {
    job j = std::move(queue.front());
    queue.pop_front();
    ++running;
    lock.unlock();
    status s;
    try {
      s = compress_and_write(j.data, j.level, *j.downstream);
    } catch (const std::exception& e) {
      s = error{std::string("gzip compression failed: ") + e.what()};
    }
    j.downstream.reset();
    j.data.clear();
    lock.lock();
    spare.push_back(std::move(j.data));
    record(s);
    --running;
    worker_free.notify_one();
  }

  // One chunk (or the end) of one stream; the stream goes back to the ready
  // queue if more has arrived meanwhile.
  void run_stream_step(std::unique_lock<std::mutex>& lock) {
    std::shared_ptr<detail::deflate_stream> st = std::move(ready.front());
    ready.pop_front();
    st->in_ready = false;
    st->busy = true;
    std::string chunk;
    bool last = false;
    if (!st->chunks.empty()) {
      chunk = std::move(st->chunks.front());
      st->chunks.pop_front();
      st->queued_bytes -= chunk.size();
      last = st->closing && st->chunks.empty();
      stream_room.notify_all();
    }
    const bool abandoned = st->abandoned;
    ++running;
    lock.unlock();
    status s;
    if (abandoned) {
      st->downstream.reset();  // drops the temporary file
    } else if (st->error) {
      try {
        s = detail::deflate_chunk(*st, chunk, last);
      } catch (const std::exception& e) {
        s = error{std::string("gzip compression failed: ") + e.what()};
      }
      if (!s) st->error = s;
    }
    const bool finished = abandoned || last;
    if (finished) st->downstream.reset();
    chunk.clear();
    lock.lock();
    if (chunk.capacity() != 0) spare.push_back(std::move(chunk));
    st->busy = false;
    --running;
    if (finished) {
      record(st->error);
      st->chunks.clear();
    } else if (!st->chunks.empty() || st->abandoned) {
      st->in_ready = true;
      ready.push_back(std::move(st));
      work_ready.notify_one();
    }
  }

  // Queues `st` for a worker unless one has it or it is already queued.
  void make_ready(const std::shared_ptr<detail::deflate_stream>& st) {
    if (st->busy || st->in_ready) return;
    st->in_ready = true;
    ready.push_back(st);
    work_ready.notify_one();
  }

  // Hands a file over only when a worker is free to take it, so memory holds
  // at most one file per worker plus the one the writer is filling.
  void submit(job j) {
    std::unique_lock lock(mu);
    worker_free.wait(lock,
                     [&] { return queue.size() + running < workers.size(); });
    queue.push_back(std::move(j));
    work_ready.notify_one();
  }

  static std::shared_ptr<detail::deflate_stream> open_stream(
      std::unique_ptr<sink> downstream) {
    auto st = std::make_shared<detail::deflate_stream>();
    st->downstream = std::move(downstream);
    return st;
  }

  // Queues a chunk; waits while the stream already has stream_queue_limit
  // bytes queued, so a writer faster than the compressor cannot run ahead.
  void push_chunk(const std::shared_ptr<detail::deflate_stream>& stream,
                  std::string chunk, bool last) {
    std::unique_lock lock(mu);
    stream_room.wait(lock,
                     [&] { return stream->queued_bytes < stream_queue_limit; });
    stream->queued_bytes += chunk.size();
    stream->chunks.push_back(std::move(chunk));
    if (last) stream->closing = true;
    make_ready(stream);
  }

  void abandon_stream(const std::shared_ptr<detail::deflate_stream>& stream) {
    std::lock_guard lock(mu);
    stream->abandoned = true;
    make_ready(stream);
  }

  std::string take_buffer() {
    std::lock_guard lock(mu);
    if (spare.empty()) return {};
    std::string b = std::move(spare.back());
    spare.pop_back();
    return b;
  }

  void return_buffer(std::string buffer) {
    buffer.clear();
    std::lock_guard lock(mu);
    spare.push_back(std::move(buffer));
  }
};

gzip_sink::gzip_sink(std::unique_ptr<sink> downstream, compression level,
                     compress_pool* pool)
    : downstream_(std::move(downstream)), level_(level), pool_(pool) {
  if (pool_ == nullptr) return;
  buffer_ = pool_->impl_->take_buffer();
  if (level_ == compression::fast)
    stream_ = pool_->impl_->open_stream(std::move(downstream_));
}

gzip_sink::~gzip_sink() {
  if (pool_ == nullptr || closed_) return;
  if (stream_) pool_->impl_->abandon_stream(stream_);
  pool_->impl_->return_buffer(std::move(buffer_));
}

status gzip_sink::write(const char* data, std::size_t size) {
  if (closed_) return error{"gzip sink: write after close"};
  if (stream_) {
    while (size != 0) {
      if (buffer_.capacity() < stream_chunk) buffer_.reserve(stream_chunk);
      const std::size_t take = std::min(size, stream_chunk - buffer_.size());
      buffer_.append(data, take);
      data += take;
      size -= take;
      if (buffer_.size() == stream_chunk) {
        pool_->impl_->push_chunk(stream_, std::move(buffer_), false);
        buffer_ = pool_->impl_->take_buffer();
      }
    }
    return {};
  }
  // Reserving a whole sitemap's worth up front costs address space only
  // (pages are faulted in as they are written), where growing by doubling
  // copied and faulted each file about twice: ~70% of a run's page faults.
  if (buffer_.capacity() < max_bytes_per_sitemap)
    buffer_.reserve(max_bytes_per_sitemap);
  buffer_.append(data, size);
  return {};
}

status gzip_sink::close() {
  if (closed_) return error{"gzip sink: closed twice"};
  closed_ = true;
  if (pool_ == nullptr) {
    status s = compress_and_write(buffer_, level_, *downstream_);
    std::string().swap(buffer_);
    return s;
  }
  if (stream_) {
    pool_->impl_->push_chunk(stream_, std::move(buffer_), true);
    return {};
  }
  pool_->impl_->submit({std::move(buffer_), std::move(downstream_), level_});
  return {};
}

compress_pool::compress_pool(unsigned threads)
    : impl_(std::make_unique<impl>()) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < threads; ++i)
    impl_->workers.emplace_back([this] { impl_->run(); });
}

compress_pool::~compress_pool() {
  {
    std::lock_guard lock(impl_->mu);
    impl_->stopping = true;
  }
  impl_->work_ready.notify_all();
  for (auto& t : impl_->workers) t.join();
}

unsigned compress_pool::threads() const noexcept {
  return static_cast<unsigned>(impl_->workers.size());
}

status compress_pool::wait() {
  std::unique_lock lock(impl_->mu);
  impl_->idle.wait(lock, [&] { return impl_->all_done(); });
  status s = impl_->first_error;
  impl_->first_error = status{};
  return s;
}

}  // namespace sitemill
