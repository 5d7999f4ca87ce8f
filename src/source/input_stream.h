// sitemill internals: the bytes of one input, from a file descriptor or from
// memory, inflated on the fly when they are gzip.
#ifndef SITEMILL_SOURCE_INPUT_STREAM_H
#define SITEMILL_SOURCE_INPUT_STREAM_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "detail/inflate.h"

namespace sitemill::detail {

/// Raw bytes of an input. Not thread-safe.
class byte_source {
 public:
  virtual ~byte_source() = default;
  /// Reads up to `n` (> 0) bytes into `dst` and returns the count. 0 means the
  /// end of the input, or an error when `err` is set to an errno value.
  virtual std::size_t read(char* dst, std::size_t n, int& err) = 0;
};

/// A file descriptor, read with read(2); closed on destruction when owned.
/// On a descriptor that can block (a pipe, a FIFO, a terminal, a socket) it
/// waits for data in steps (detail/fd_wait.h) before reading, so with a
/// `stop` flag a FIFO that never sends a byte is left within a step of the
/// flag; a read ends with ECANCELED once the flag is set.
class fd_source final : public byte_source {
 public:
  fd_source(int fd, bool owned,
            const std::atomic<bool>* stop = nullptr) noexcept;
  ~fd_source() override;
  fd_source(const fd_source&) = delete;
  fd_source& operator=(const fd_source&) = delete;
  std::size_t read(char* dst, std::size_t n, int& err) override;

 private:
  int fd_;
  bool owned_;
  const std::atomic<bool>* stop_;
  bool may_block_;  // not a regular file: wait in steps before reading
};

/// Bytes in memory (tests and fuzzing). Borrows `data`, which must outlive it.
class memory_source final : public byte_source {
 public:
  explicit memory_source(std::string_view data) noexcept : data_(data) {}
  std::size_t read(char* dst, std::size_t n, int& err) override;

 private:
  std::string_view data_;
};

/// The decoded bytes of a source: as they are, or inflated when the input
/// starts with gzip's magic bytes 1F 8B (several gzip members in a row, as
/// `cat a.gz b.gz` makes, are read as one stream, like gzip -d does).
/// Memory is two blocks of `block_size` bytes at most, whatever the input.
class decoded_stream {
 public:
  decoded_stream(std::unique_ptr<byte_source> source, std::size_t block_size);
  ~decoded_stream();
  decoded_stream(const decoded_stream&) = delete;
  decoded_stream& operator=(const decoded_stream&) = delete;

  /// Reads up to `n` (> 0) bytes into `dst` and returns the count; 0 at the
  /// end of the input or on an error (then error() says why).
  std::size_t read(char* dst, std::size_t n);

  /// Empty, or what went wrong ("read error: Is a directory", "gzip data is
  /// truncated"), without the file name.
  const std::string& error() const noexcept { return error_; }

  /// Bytes taken from the source so far, as stored (compressed for gzip):
  /// against the input's size on disk, how far reading has come.
  std::uint64_t raw_bytes_read() const noexcept { return raw_read_; }

 private:
  bool fill_input(std::size_t want);
  std::size_t inflate_into(char* dst, std::size_t n);
  void fail(std::string message);

  std::unique_ptr<byte_source> source_;
  std::unique_ptr<char[]>
      in_;  // raw bytes not yet consumed: [in_pos_, in_end_)
  std::size_t in_cap_;
  std::size_t in_pos_ = 0;
  std::size_t in_end_ = 0;
  bool source_eof_ = false;
  bool sniffed_ = false;
  bool done_ = false;
  std::unique_ptr<gzip_inflater> gzip_;  // set when the input is gzip
  std::string error_;
  std::uint64_t raw_read_ = 0;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_SOURCE_INPUT_STREAM_H
