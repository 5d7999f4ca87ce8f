// sitemill internals: the one gzip inflater, for everything that reads
// input that may be gzipped (the sitemap parser, the list readers).
#ifndef SITEMILL_DETAIL_INFLATE_H
#define SITEMILL_DETAIL_INFLATE_H

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

namespace sitemill::detail {

/// True when `head` starts with gzip's magic bytes 1F 8B (RFC 1952 2.3.1):
/// how every reader tells gzip input from plain, never by a file name.
constexpr bool starts_gzip(std::string_view head) noexcept {
  return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1F &&
         static_cast<unsigned char>(head[1]) == 0x8B;
}

/// Inflates a gzip stream pushed in pieces of any size into buffers of any
/// size. Members written one after another (`cat a.gz b.gz`) are read as one
/// stream, as `gzip -d` does. Output stops at `max_output` bytes, so a gzip
/// bomb costs no more than the cap. Errors are values, and sticky: once
/// inflate() answers anything but `ok`, it answers the same from then on.
///
/// Memory: zlib's state (about 44 KiB), whatever the input. Not
/// thread-safe; one inflater per stream.
class gzip_inflater {
 public:
  static constexpr std::uint64_t no_limit =
      std::numeric_limits<std::uint64_t>::max();

  enum class status : std::uint8_t {
    ok,  ///< every input byte taken, or the output buffer is full
    /// After at least one whole member, bytes that do not begin another
    /// one (padding, junk): the data before them is complete. Whether that
    /// is a warning or an error is the caller's call.
    trailing_data,
    corrupt,       ///< not valid gzip; message() says what zlib saw
    output_limit,  ///< the stream inflates to more than max_output bytes
    no_memory,     ///< zlib could not allocate its state
  };

  explicit gzip_inflater(std::uint64_t max_output = no_limit) noexcept
      : max_output_(max_output) {}
  ~gzip_inflater();
  gzip_inflater(const gzip_inflater&) = delete;
  gzip_inflater& operator=(const gzip_inflater&) = delete;

  struct step {
    std::size_t consumed = 0;  ///< input bytes taken
    std::size_t produced = 0;  ///< bytes written to `out`, all valid
    status result = status::ok;
  };

  /// Inflates from `in` into `out` until all of `in` is taken, `out` is
  /// full, or the stream ends in one of the statuses above. Bytes produced
  /// before a bad spot are good and are counted in `produced` (so what is
  /// read does not depend on how the input was split). When `out` came back
  /// full, call again (with no new input if there is none): zlib may hold
  /// more output.
  step inflate(const char* in, std::size_t in_size, char* out,
               std::size_t out_size) noexcept;

  /// At the end of the input: true when it ended inside a member (the data
  /// was cut short). Drain first: call inflate() until `out` is not filled.
  bool truncated() const noexcept { return in_member_ && state_ == status::ok; }

  /// Bytes produced so far.
  std::uint64_t total_out() const noexcept { return total_out_; }

  /// zlib's words for a corrupt stream ("invalid block type"), or a
  /// description of the status; never null.
  const char* message() const noexcept;

 private:
  std::uint64_t max_output_;
  std::uint64_t total_out_ = 0;
  z_stream zs_{};
  bool started_ = false;
  bool in_member_ = false;      // inside a member, not at its end
  bool member_output_ = false;  // the current member produced bytes
  std::uint64_t members_done_ = 0;
  int magic_left_ = 0;  // magic bytes of the current member not yet seen
  status state_ = status::ok;
  const char* message_ = nullptr;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_INFLATE_H
