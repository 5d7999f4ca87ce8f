// sitemill internals: a small temporary file written through a stdio buffer
// and read back from its start, for work split over many files at once
// (duplicate detection's 256 partitions and their runs, the stable layout's
// partitions). spill_file (spill_file.h) is the other kind: one large
// stream, 2 MiB of blocks and a thread of its own; many of those at once
// would hold hundreds of MiB, so partitions use this one: one buffer of the
// caller's size each, the page cache doing the rest.
//
// Not thread-safe: one caller at a time.
#ifndef SITEMILL_DETAIL_BUFFERED_TEMP_FILE_H
#define SITEMILL_DETAIL_BUFFERED_TEMP_FILE_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "sitemill/result.h"

namespace sitemill::detail {

class buffered_temp_file {
 public:
  /// Creates `path` (which must not exist), removed by the destructor;
  /// `purpose` names the file in messages ("duplicate detection's spill
  /// file"). With `buffer_bytes` 0 the file has no buffer: each write() and
  /// read_some() goes to the file as is, for callers that keep their own
  /// buffers and move whole blocks (no copy through stdio's).
  static result<std::unique_ptr<buffered_temp_file>> create(
      std::string path, std::string_view purpose, std::size_t buffer_bytes);
  ~buffered_temp_file();
  buffered_temp_file(const buffered_temp_file&) = delete;
  buffered_temp_file& operator=(const buffered_temp_file&) = delete;

  [[nodiscard]] status write(const void* p, std::size_t n) {
    // Unlocked: one thread uses a file at a time, a few bytes a call.
    if (fwrite_unlocked(p, 1, n, f_) != n) return fail("write");
    bytes_ += n;
    return {};
  }
  /// Switches from writing to reading from the start.
  [[nodiscard]] status rewind();
  /// Empties the file for another use: writing starts again at its start,
  /// and reading (after rewind()) ends at what was written since. The file
  /// keeps its blocks (it is not truncated): a file reused costs a seek,
  /// where a new one costs a create, and an unlink once done, in the
  /// directory (journal work that waits behind other files' fsyncs).
  [[nodiscard]] status reuse();
  /// Reads exactly `n` bytes; false at the end or on an error (see
  /// read_error()).
  bool read(void* p, std::size_t n) {
    if (n > readable_) return false;
    readable_ -= n;
    return n == 0 || fread_unlocked(p, n, 1, f_) == 1;
  }
  /// Reads up to `n` bytes, returning how many.
  std::size_t read_some(void* p, std::size_t n) {
    const std::size_t got = fread_unlocked(p, 1, std::min(n, readable_), f_);
    readable_ -= got;
    return got;
  }
  /// The error that ended reading, if one did (not the end of the file).
  [[nodiscard]] status read_error() const;
  std::uint64_t bytes() const noexcept { return bytes_; }
  const std::string& path() const noexcept { return path_; }
  [[nodiscard]] status fail(const char* what) const;

 private:
  buffered_temp_file() = default;
  std::string path_;
  std::string purpose_;
  std::FILE* f_ = nullptr;
  std::uint64_t bytes_ = 0;
  std::size_t readable_ = 0;  // bytes written and not yet read back
  std::unique_ptr<char[]> buffer_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_BUFFERED_TEMP_FILE_H
