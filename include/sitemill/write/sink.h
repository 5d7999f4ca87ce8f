// sitemill: sinks, the last stage of source -> entry -> writer -> sink.
//
// A sink takes the bytes of one output file. Like pugixml's xml_writer it has
// one method for data; close() finishes the file and reports whether every
// byte reached its destination. Errors are values, never exceptions.
#ifndef SITEMILL_SINK_H
#define SITEMILL_SINK_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "sitemill/result.h"

namespace sitemill {

/// Receives the bytes of one file, in order.
class sink {
 public:
  virtual ~sink() = default;
  /// Appends `size` bytes. After an error, later calls fail too.
  [[nodiscard]] virtual status write(const char* data, std::size_t size) = 0;
  /// Finishes the file (flush, compress, fsync as the sink requires). May
  /// complete on another thread (gzip_sink with a compress_pool): then the
  /// outcome is reported by compress_pool::wait(). Call once, write no more.
  [[nodiscard]] virtual status close() = 0;
};

/// Collects the bytes in memory, for tests and programs that embed sitemill.
class memory_sink final : public sink {
 public:
  /// Appends to a string of its own.
  memory_sink() : target_(&own_) {}
  /// Appends to `*target`, which must outlive the sink (the writer destroys
  /// sinks when their file is done, so this is how callers keep the bytes).
  explicit memory_sink(std::string* target) : target_(target) {}

  status write(const char* data, std::size_t size) override;
  status close() override;
  const std::string& data() const noexcept { return *target_; }
  bool closed() const noexcept { return closed_; }

 private:
  std::string own_;
  std::string* target_;
  bool closed_ = false;
};

/// What a file_sink wrote, known once it is closed.
struct file_digest {
  std::uint64_t bytes = 0;  ///< bytes written to the file
  std::uint64_t xxh3 =
      0;  ///< XXH3-64 of those bytes (names and compares files)
};

/// Writes to a new file through a 256 KiB buffer; close() flushes and fsyncs,
/// so a closed file is durable before anyone renames it into place.
/// The file is created exclusively (never overwrites) with mode 0644.
class file_sink final : public sink {
 public:
  static result<std::unique_ptr<file_sink>> create(std::string path);
  ~file_sink() override;
  status write(const char* data, std::size_t size) override;
  status close() override;

  const std::string& path() const noexcept { return path_; }
  /// Valid after a successful close().
  const file_digest& digest() const noexcept { return digest_; }
  /// Where digest() is also copied at close, for owners that gave the sink
  /// away.
  void report_to(file_digest* target) noexcept { report_to_ = target; }

 private:
  file_sink(std::string path, int fd);
  status flush();
  status fail(const char* what, int err);

  std::string path_;
  int fd_ = -1;
  std::string buffer_;
  struct hasher;
  std::unique_ptr<hasher> hash_;
  file_digest digest_;
  file_digest* report_to_ = nullptr;
  std::string error_;
};

/// gzip compression settings. The header carries no name and no timestamp,
/// so the same bytes in give the same bytes out on every run.
enum class compression : std::uint8_t {
  fast,    ///< ISA-L level 1: about 5x libdeflate -1, files ~15% larger
  normal,  ///< libdeflate level 6: smaller than gzip -6, ~2.6x its speed
  best,    ///< libdeflate level 12: smallest, slowest
};

/// gzip_sink compresses a file in pieces of this many bytes, each on its
/// own. Big enough that a piece's cold start (no match reaches into the
/// piece before) costs little: 0.4% of the size on a urlset heavy with
/// hreflang links and images (benchmarks/extensions_bench.sh: 57.59 MB
/// against 57.36 MB whole, where 1 MiB pieces gave 57.84 MB, more than
/// gzip -6's 57.83 MB), 0.1% on plain urlsets; small enough that the
/// pieces in flight keep memory flat.
inline constexpr std::size_t gzip_chunk_bytes = std::size_t{2} << 20;

class compress_pool;
namespace detail {
struct deflate_stream;
}  // namespace detail

/// Compresses everything written to it into one gzip member (RFC 1952) and
/// writes that to `downstream`. The member is single, never concatenated, as
/// docs/protocol.md checklist 12 asks.
///
/// The file is compressed in chunks of gzip_chunk_bytes while it is still
/// being written
/// (src/write/gzip.cpp says how the chunks become one DEFLATE stream), so
/// memory is a few chunks per file whatever its size. Without a pool a
/// chunk is compressed on the writing thread as it fills; with one, on the
/// pool's workers, several chunks of one file at once. Chunks are cut at
/// fixed offsets of the file, so the bytes depend on the data alone: the
/// same input gives the same member with a pool, without one, and from
/// gzip_compress(), on every run.
class gzip_sink final : public sink {
 public:
  /// Without a pool, close() compresses on the calling thread.
  gzip_sink(std::unique_ptr<sink> downstream, compression level,
            compress_pool* pool = nullptr);
  ~gzip_sink() override;
  status write(const char* data, std::size_t size) override;
  status close() override;

 private:
  status flush_chunk(bool last);

  compression level_;
  compress_pool* pool_;
  std::string buffer_;  // the chunk being filled
  std::shared_ptr<detail::deflate_stream> stream_;  // the member's state
  bool closed_ = false;
};

/// Worker threads that compress gzip_sinks' chunks in parallel. A writer
/// waits while one chunk per worker and one more, of any of the pool's
/// files, are handed over and not yet written, so memory stays a few chunks
/// per worker plus one per open sink, however fast the writer is and
/// however many files it has closed. Must outlive every gzip_sink given it.
/// Thread-safe.
class compress_pool {
 public:
  /// `threads` 0 means std::thread::hardware_concurrency().
  explicit compress_pool(unsigned threads = 0);
  ~compress_pool();
  compress_pool(const compress_pool&) = delete;
  compress_pool& operator=(const compress_pool&) = delete;

  /// Waits for every submitted file; the first error of any, if one failed.
  [[nodiscard]] status wait();
  unsigned threads() const noexcept;

 private:
  friend class gzip_sink;
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// Compresses `data` into one gzip member. Exposed for tests and benchmarks.
[[nodiscard]] std::string gzip_compress(std::string_view data,
                                        compression level);

}  // namespace sitemill

#endif  // SITEMILL_SINK_H
