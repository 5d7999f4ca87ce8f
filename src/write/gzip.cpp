// gzip_sink and compress_pool: one gzip member per file, streamed.
//
// A file is cut into chunks (gzip_chunk_bytes) at fixed offsets. Each chunk is
// compressed on its own into a raw DEFLATE piece (libdeflate 6 or 12, ISA-L 1
// for
// --fast; measured in benchmarks/README.md), every piece but the last is
// made non-final (deflate_splice.h), and the pieces, in order, between one
// header and one trailer are the member. So memory is a few chunks per file
// whatever its size, the chunks of one file compress on every worker at
// once, and the bytes depend on the data alone: gzip_compress(), the sink
// with a pool and the sink without one write the same member. A pool closes
// each finished file (a file_sink fsyncs) on a thread of its own, so the
// wait on the disk never holds a worker that has chunks to compress.
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "sitemill/write/sink.h"
#include "write/deflate_splice.h"

namespace sitemill {
namespace {

// RFC 1952 header: deflate, no flags, MTIME 0 ("no time stamp"), XFL 0,
// OS 255 ("unknown"), so the bytes depend on the content only.
constexpr unsigned char gzip_header[10] = {0x1f, 0x8b, 8, 0, 0,
                                           0,    0,    0, 0, 0xff};

constexpr std::size_t chunk_bytes = gzip_chunk_bytes;

// Chunks a pool holds at once, handed over and not yet written, over all
// its files: one per worker and one more queued, while each writer fills
// its next. The bound is the pool's, not a file's: with one per file, a
// writer faster than the workers (entries replayed from a spool) closed
// file after file with its chunks still queued, about 2 MiB more memory
// per 50,000-URL file (issue 31).
std::size_t chunks_in_flight_limit(std::size_t workers) { return workers + 1; }

// Compressed output goes to a per-thread buffer that is reused and never
// zero-filled: pages are touched only as far as the compressor writes.
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

std::string_view libdeflate_raw(std::string_view data, int level,
                                libdeflate_compressor*& c) {
  if (c == nullptr) c = libdeflate_alloc_compressor(level);
  if (c == nullptr) throw std::bad_alloc();
  const std::size_t bound = libdeflate_deflate_compress_bound(c, data.size());
  char* out = compressors().out.reserve(bound);
  const std::size_t n =
      libdeflate_deflate_compress(c, data.data(), data.size(), out, bound);
  // The bound makes failure impossible; 0 would mean libdeflate broke its
  // contract.
  if (n == 0)
    throw std::logic_error("libdeflate_deflate_compress exceeded its bound");
  return {out, n};
}

// ISA-L can end a piece without a final block itself (a sync flush: an
// empty stored block), which saves the walk make_non_final() would take:
// at ISA-L's speed the walk would cost as much as the compression.
std::string_view isal_raw(std::string_view data, bool last) {
  auto& level_buf = compressors().isal_level_buf;
  if (level_buf.empty()) level_buf.resize(ISAL_DEF_LVL1_DEFAULT);
  // Deflate's worst case adds 5 bytes per 64 KiB stored block; be generous.
  const std::size_t bound = data.size() + data.size() / 16 + 1024;
  char* out = compressors().out.reserve(bound);
  isal_zstream s;
  isal_deflate_init(&s);
  s.level = 1;
  s.level_buf = level_buf.data();
  s.level_buf_size = static_cast<std::uint32_t>(level_buf.size());
  s.gzip_flag = IGZIP_DEFLATE;  // raw: the member's header is ours
  s.end_of_stream = last ? 1 : 0;
  s.flush = last ? NO_FLUSH : SYNC_FLUSH;
  s.next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(data.data()));
  // avail_in is 32-bit; a chunk is gzip_chunk_bytes.
  s.avail_in = static_cast<std::uint32_t>(data.size());
  s.next_out = reinterpret_cast<std::uint8_t*>(out);
  s.avail_out = static_cast<std::uint32_t>(bound);
  if (isal_deflate(&s) != COMP_OK || s.avail_out == 0 ||
      (last ? s.internal_state.state != ZSTATE_END : s.avail_in != 0))
    throw std::logic_error("isal_deflate did not finish within its bound");
  return {out, bound - s.avail_out};
}

// One chunk, compressed on the calling thread.
struct piece {
  std::string bytes;  // raw DEFLATE, non-final unless `last`
  std::uint32_t crc = 0;
  std::size_t in_size = 0;
  bool last = false;
};

void compress_piece(std::string_view chunk, compression level, bool last,
                    piece& out) {
  std::string_view raw;
  bool ends_final = true;
  switch (level) {
    case compression::fast:
      raw = isal_raw(chunk, last);
      ends_final = last;
      break;
    case compression::best:
      raw = libdeflate_raw(chunk, 12, compressors().best);
      break;
    case compression::normal:
      raw = libdeflate_raw(chunk, 6, compressors().normal);
      break;
  }
  // Room for make_non_final()'s few bytes: appending them must not copy
  // the piece into a new allocation.
  out.bytes.reserve(raw.size() + 8);
  out.bytes.assign(raw);
  if (!last && ends_final && !detail::make_non_final(out.bytes))
    throw std::logic_error("the compressor wrote a stream that does not end");
  out.crc = static_cast<std::uint32_t>(
      libdeflate_crc32(0, chunk.data(), chunk.size()));
  out.in_size = chunk.size();
  out.last = last;
}

// Writes pieces, in order, as one member: the header before the first, the
// trailer (CRC-32 and size modulo 2^32, little-endian) after the last, and
// then closes `out` unless told not to (a pool closes it on a thread of its
// own).
class member_assembly {
 public:
  status add(sink& out, const piece& p, bool close_after_last = true) {
    if (!started_) {
      started_ = true;
      if (status s = out.write(reinterpret_cast<const char*>(gzip_header),
                               sizeof gzip_header);
          !s) {
        return s;
      }
    }
    if (status s = out.write(p.bytes.data(), p.bytes.size()); !s) return s;
    crc_ = static_cast<std::uint32_t>(
        crc32_combine(crc_, p.crc, static_cast<z_off_t>(p.in_size)));
    size_ += static_cast<std::uint32_t>(p.in_size);
    if (!p.last) return {};
    char trailer[8];
    for (int i = 0; i < 4; ++i) {
      trailer[i] = static_cast<char>(crc_ >> (8 * i));
      trailer[4 + i] = static_cast<char>(size_ >> (8 * i));
    }
    if (status s = out.write(trailer, sizeof trailer); !s) return s;
    return close_after_last ? out.close() : status{};
  }

 private:
  bool started_ = false;
  std::uint32_t crc_ = 0;
  std::uint32_t size_ = 0;
};

}  // namespace

namespace detail {

// One file being compressed by a pool. Fields below the "guarded" line
// belong to compress_pool::impl::mu; `member` and `downstream` to the one
// thread that has `writing` set (a worker, or the closer closing the file),
// or to whoever finds the stream finished with nothing outstanding, to drop
// it.
struct deflate_stream {
  std::unique_ptr<sink> downstream;
  compression level;
  member_assembly member;
  // -- guarded by compress_pool::impl::mu
  std::uint64_t pushed = 0;              // chunks handed over so far
  std::uint64_t written = 0;             // pieces written downstream, in order
  std::map<std::uint64_t, piece> ready;  // compressed, waiting their turn
  unsigned outstanding = 0;              // chunks queued or being compressed
  bool writing = false;
  bool done = false;       // the last piece is written, or the file failed
  bool abandoned = false;  // the sink went away without close()
  status error;
};

}  // namespace detail

std::string gzip_compress(std::string_view data, compression level) {
  memory_sink out;
  member_assembly member;
  piece p;
  for (std::size_t at = 0;; at += chunk_bytes) {
    const bool last = data.size() - at < chunk_bytes;
    compress_piece(data.substr(at, last ? std::string_view::npos : chunk_bytes),
                   level, last, p);
    // A memory_sink cannot fail.
    (void)member.add(out, p);
    if (last) break;
  }
  return out.data();
}

struct compress_pool::impl {
  struct job {
    std::shared_ptr<detail::deflate_stream> stream;
    std::uint64_t seq;
    std::string chunk;
    bool last;
  };

  std::mutex mu;
  std::condition_variable work_ready, idle, room;
  std::deque<job> queue;
  std::size_t running = 0;
  // Files whose last piece is written, waiting for the closer, and the one
  // it is closing. A file_sink's close() fsyncs, which takes milliseconds
  // of waiting on the disk: on a worker, that would leave a core without
  // compression to do for each file (issue 31).
  // At most max_to_close files wait, each holding its descriptor: a run of
  // many tiny files (a thousand sections) must not open them all at once
  // while the closer fsyncs; a worker with one more waits for room.
  static constexpr std::size_t max_to_close = 16;
  std::condition_variable close_ready, close_room;
  std::deque<std::shared_ptr<detail::deflate_stream>> to_close;
  std::size_t closing = 0;
  bool closer_stopping = false;
  std::thread closer;
  // Chunks pushed and not yet written or dropped, over every stream; a
  // writer waits in push_chunk() while it is at the limit.
  std::size_t in_flight = 0;
  std::size_t in_flight_limit = 1;
  bool stopping = false;
  status first_error;
  // Chunk buffers keep their capacity from file to file, so their pages
  // are faulted in once per run, not per chunk.
  std::vector<std::string> spare;
  // Compressed pieces' buffers, likewise (at most in_flight_limit).
  std::vector<std::string> spare_pieces;
  std::vector<std::thread> workers;

  // Nothing queued and no worker busy. A stream whose sink is still open
  // does not count: its chunks so far are done, and the rest is not yet
  // submitted (a failed run waits here before the writer drops its sink).
  bool all_done() const {
    return queue.empty() && running == 0 && to_close.empty() && closing == 0;
  }

  void record(const status& s) {
    if (!s && first_error) first_error = s;
  }

  // `n` chunks were written or will never be: room for a writer.
  void release(std::size_t n) {
    if (n == 0) return;
    in_flight -= n;
    room.notify_all();
  }

  void run() {
    std::unique_lock lock(mu);
    for (;;) {
      work_ready.wait(lock, [&] { return stopping || !queue.empty(); });
      if (queue.empty()) return;  // stopping, nothing left
      job j = std::move(queue.front());
      queue.pop_front();
      ++running;
      compress(j, lock);
      --running;
      if (all_done()) idle.notify_all();
    }
  }

  // Compresses one chunk (unless its file has failed or was dropped), then
  // writes every piece of its file that is next in line.
  void compress(job& j, std::unique_lock<std::mutex>& lock) {
    detail::deflate_stream& st = *j.stream;
    const bool wanted = st.error && !st.abandoned;
    piece p;
    if (wanted && !spare_pieces.empty()) {
      p.bytes = std::move(spare_pieces.back());
      spare_pieces.pop_back();
    }
    lock.unlock();
    status s;
    if (wanted) {
      try {
        compress_piece(j.chunk, st.level, j.last, p);
      } catch (const std::exception& e) {
        s = error{std::string("gzip compression failed: ") + e.what()};
      }
    }
    j.chunk.clear();
    lock.lock();
    spare.push_back(std::move(j.chunk));
    --st.outstanding;
    if (!s && st.error) st.error = s;
    if (wanted && s) {
      st.ready.emplace(j.seq, std::move(p));
    } else {
      release(1);
    }
    write_ready(j.stream, lock);
  }

  void write_ready(const std::shared_ptr<detail::deflate_stream>& stream,
                   std::unique_lock<std::mutex>& lock) {
    detail::deflate_stream& st = *stream;
    while (!st.writing && !st.done && st.error && !st.abandoned) {
      auto next = st.ready.find(st.written);
      if (next == st.ready.end()) break;
      piece p = std::move(next->second);
      st.ready.erase(next);
      st.writing = true;
      lock.unlock();
      status s = st.member.add(*st.downstream, p, false);
      lock.lock();
      p.bytes.clear();
      spare_pieces.push_back(std::move(p.bytes));
      ++st.written;
      if (!s) st.error = s;
      release(1);
      if (p.last && s) {
        // Still `writing`: the closer owns the sink until it is closed.
        close_room.wait(lock, [&] { return to_close.size() < max_to_close; });
        to_close.push_back(stream);
        close_ready.notify_one();
        return;
      }
      st.writing = false;
      if (p.last || !s) st.done = true;
    }
    if (!st.error) {
      st.done = true;
      room.notify_all();  // a writer waiting for room goes on
    }
    // A finished, failed or dropped file lets go of its sink (a file_sink
    // not closed removes its temporary file) once no worker needs it.
    if ((st.done || st.abandoned) && st.outstanding == 0 && !st.writing &&
        st.downstream) {
      record(st.error);
      release(st.ready.size());
      st.ready.clear();
      st.downstream.reset();
    }
  }

  // Closes each file whose member is complete, then lets go of its sink as
  // a worker would have.
  void close_files() {
    std::unique_lock lock(mu);
    for (;;) {
      close_ready.wait(lock,
                       [&] { return closer_stopping || !to_close.empty(); });
      if (to_close.empty()) return;  // stopping, nothing left
      std::shared_ptr<detail::deflate_stream> stream =
          std::move(to_close.front());
      to_close.pop_front();
      close_room.notify_one();
      ++closing;
      lock.unlock();
      status s = stream->downstream->close();
      lock.lock();
      --closing;
      detail::deflate_stream& st = *stream;
      st.writing = false;
      st.done = true;
      if (!s && st.error) st.error = s;
      write_ready(stream, lock);
      if (all_done()) idle.notify_all();
    }
  }

  static std::shared_ptr<detail::deflate_stream> open_stream(
      std::unique_ptr<sink> downstream, compression level) {
    auto st = std::make_shared<detail::deflate_stream>();
    st->downstream = std::move(downstream);
    st->level = level;
    return st;
  }

  // Queues a chunk; waits while in_flight_limit chunks of any file are
  // pushed and not yet written, so a writer faster than the compressors
  // cannot run ahead, neither within a file nor from file to file. The
  // wait ends: the oldest unwritten chunk of every file is queued or being
  // compressed, and workers need nothing from the writer to write it. A
  // file that has failed takes no more chunks: its error comes from wait().
  void push_chunk(const std::shared_ptr<detail::deflate_stream>& stream,
                  std::string chunk, bool last) {
    std::unique_lock lock(mu);
    detail::deflate_stream& st = *stream;
    room.wait(lock, [&] { return in_flight < in_flight_limit || st.done; });
    if (st.done) {
      chunk.clear();
      spare.push_back(std::move(chunk));
      return;
    }
    ++in_flight;
    ++st.outstanding;
    queue.push_back({stream, st.pushed++, std::move(chunk), last});
    work_ready.notify_one();
  }

  void abandon_stream(const std::shared_ptr<detail::deflate_stream>& stream) {
    std::unique_lock lock(mu);
    stream->abandoned = true;
    write_ready(stream, lock);
  }

  std::string take_buffer() {
    std::string b;
    {
      std::lock_guard lock(mu);
      if (!spare.empty()) {
        b = std::move(spare.back());
        spare.pop_back();
      }
    }
    b.reserve(chunk_bytes);
    return b;
  }
};

gzip_sink::gzip_sink(std::unique_ptr<sink> downstream, compression level,
                     compress_pool* pool)
    : level_(level),
      pool_(pool),
      stream_(compress_pool::impl::open_stream(std::move(downstream), level)) {
  if (pool_ != nullptr) {
    buffer_ = pool_->impl_->take_buffer();
  } else {
    buffer_.reserve(chunk_bytes);
  }
}

// Dropped without close(): a pool lets go of the downstream sink once no
// worker needs it; without one it goes with stream_. Either way a file_sink
// downstream is never closed, so its temporary file is removed.
gzip_sink::~gzip_sink() {
  if (pool_ != nullptr && !closed_) pool_->impl_->abandon_stream(stream_);
}

// Hands a full chunk (or the last one) to the pool, or compresses and
// writes it here without one.
status gzip_sink::flush_chunk(bool last) {
  if (pool_ != nullptr) {
    pool_->impl_->push_chunk(stream_, std::move(buffer_), last);
    if (!last) buffer_ = pool_->impl_->take_buffer();
    return {};
  }
  piece p;
  try {
    compress_piece(buffer_, level_, last, p);
  } catch (const std::exception& e) {
    return error{std::string("gzip compression failed: ") + e.what()};
  }
  buffer_.clear();
  return stream_->member.add(*stream_->downstream, p);
}

status gzip_sink::write(const char* data, std::size_t size) {
  if (closed_) return error{"gzip sink: write after close"};
  while (size != 0) {
    const std::size_t take = std::min(size, chunk_bytes - buffer_.size());
    buffer_.append(data, take);
    data += take;
    size -= take;
    if (buffer_.size() == chunk_bytes) {
      if (status s = flush_chunk(false); !s) return s;
    }
  }
  return {};
}

status gzip_sink::close() {
  if (closed_) return error{"gzip sink: closed twice"};
  closed_ = true;
  status s = flush_chunk(true);
  std::string().swap(buffer_);
  return s;
}

compress_pool::compress_pool(unsigned threads)
    : impl_(std::make_unique<impl>()) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  impl_->in_flight_limit = chunks_in_flight_limit(threads);
  for (unsigned i = 0; i < threads; ++i)
    impl_->workers.emplace_back([this] { impl_->run(); });
  impl_->closer = std::thread([this] { impl_->close_files(); });
}

compress_pool::~compress_pool() {
  {
    std::lock_guard lock(impl_->mu);
    impl_->stopping = true;
  }
  impl_->work_ready.notify_all();
  for (auto& t : impl_->workers) t.join();
  // Workers hand files to the closer until they stop; it stops after them.
  {
    std::lock_guard lock(impl_->mu);
    impl_->closer_stopping = true;
  }
  impl_->close_ready.notify_all();
  impl_->closer.join();
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
