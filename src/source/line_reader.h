// sitemill internals: the physical lines of one input, streamed in blocks.
#ifndef SITEMILL_SOURCE_LINE_READER_H
#define SITEMILL_SOURCE_LINE_READER_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "source/input_stream.h"

namespace sitemill::detail {

/// Sizes of the reading machinery; tests shrink them to cross every boundary.
struct reader_tuning {
  /// Bytes asked of read(2) (and of the gzip decoder) at a time.
  std::size_t block_size = std::size_t{1} << 20;
  /// Longest line kept, without its line ending. A longer line is reported,
  /// not read, so memory stays bounded whatever the input holds.
  std::size_t max_line = std::size_t{1} << 20;
};

/// "line longer than 1 MiB" for the default cap (the problem text of a line
/// over `max_line` bytes).
std::string too_long_message(std::size_t max_line);

/// Splits an input into lines: '\n' ends a line, a CR before it (or before the
/// end of the input) is dropped, a UTF-8 BOM at the very start is skipped, and
/// a last line without a line ending is a line. Memory is about one block plus
/// the longest line (at most `max_line`), whatever the input size.
///
/// Not thread-safe.
class line_reader {
 public:
  struct line {
    /// The line without its ending. Valid until the next call to next().
    /// For a too-long line: its first max_line + 1 bytes, the same whatever
    /// the block size (so what a reader decides from them is too).
    std::string_view text;
    std::uint64_t number = 0;  ///< 1-based physical line number
    bool too_long = false;     ///< longer than max_line; the rest is skipped
    bool had_cr = false;       ///< ended with CRLF rather than LF
  };

  line_reader(std::unique_ptr<byte_source> source, std::string name,
              reader_tuning tuning);
  line_reader(const line_reader&) = delete;
  line_reader& operator=(const line_reader&) = delete;

  /// The next line; false at the end of the input or on an error (error()).
  [[nodiscard]] bool next(line& out);

  /// Empty, or "NAME:LINE: what went wrong" once reading has failed.
  const std::string& error() const noexcept { return error_; }

  /// The input's name in messages: its path, or "<stdin>".
  const std::string& name() const noexcept { return name_; }

  /// The line number the next line would get.
  std::uint64_t next_number() const noexcept { return number_; }

  std::size_t max_line() const noexcept { return max_line_; }

  /// Bytes of the input read so far, as stored (decoded_stream).
  std::uint64_t bytes_read() const noexcept { return stream_.raw_bytes_read(); }

 private:
  bool fill();
  bool skip_rest_of_line();
  void emit(line& out, std::size_t len, bool newline);

  decoded_stream stream_;
  std::string name_;
  std::size_t block_;
  std::size_t max_line_;
  std::unique_ptr<char[]> buf_;
  std::size_t cap_;
  std::size_t begin_ = 0;  // first byte of the next line
  std::size_t scan_ = 0;   // [begin_, scan_) is known to hold no '\n'
  std::size_t end_ = 0;    // end of the buffered bytes
  std::uint64_t number_ = 1;
  bool eof_ = false;
  bool bom_checked_ = false;
  bool skipping_ = false;  // inside a too-long line already reported
  std::string error_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_SOURCE_LINE_READER_H
