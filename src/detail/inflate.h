// sitemill internals: the one gzip inflater, for everything that reads
// input that may be gzipped (the sitemap parser, the list readers).
#ifndef SITEMILL_DETAIL_INFLATE_H
#define SITEMILL_DETAIL_INFLATE_H

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>

struct inflate_state;  // ISA-L's (isa-l/igzip_lib.h)

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
/// The decoder is ISA-L's igzip inflate, not zlib's: on sitemaps it runs
/// 2.5 to 3 times as fast (the bench's gzipped 50,000-URL file: 270M
/// instructions against zlib's 668M, callgrind), and it is already linked
/// for `--fast` gzip output. The member header (RFC 1952 2.3.1, with its
/// optional fields and header CRC) is read here, byte by byte, because
/// ISA-L 2.30 miscounts a header CRC split across inputs; ISA-L inflates
/// the deflate data and checks the trailer's CRC-32 and length.
///
/// Memory: ISA-L's state (about 86 KiB), whatever the input. Not
/// thread-safe; one inflater per stream.
class gzip_inflater {
 public:
  static constexpr std::uint64_t no_limit =
      std::numeric_limits<std::uint64_t>::max();

  enum class status : std::uint8_t {
    ok,  ///< every input byte taken, or the output buffer is full
    /// After at least one whole member, bytes that do not begin another
    /// one with a valid header (padding, junk): the data before them is
    /// complete. Whether that is a warning or an error is the caller's
    /// call.
    trailing_data,
    corrupt,       ///< not valid gzip; message() says what was wrong
    output_limit,  ///< the stream inflates to more than max_output bytes
    no_memory,     ///< the decoder could not allocate its state
  };

  explicit gzip_inflater(std::uint64_t max_output = no_limit) noexcept
      : max_output_(max_output) {}
  ~gzip_inflater();
  gzip_inflater(const gzip_inflater&) = delete;
  gzip_inflater& operator=(const gzip_inflater&) = delete;

  struct step {
    std::size_t consumed = 0;  ///< input bytes taken
    std::size_t produced = 0;  ///< bytes written to `out`
    status result = status::ok;
  };

  /// Inflates from `in` into `out` until all of `in` is taken, `out` is
  /// full, or the stream ends in one of the statuses above. Bytes produced
  /// before the status are counted in `produced`. When `out` came back
  /// full, call again (with no new input if there is none): the decoder may
  /// hold more output. For a valid stream the bytes do not depend on how
  /// input and output were split, and the status never does; but a corrupt
  /// or cut stream gives wrong bytes before the bad spot (deflate has no
  /// checksum before a member's end), and which and how many depends on the
  /// split: read fixed-size blocks where that matters, as sitemap_parser
  /// does.
  step inflate(const char* in, std::size_t in_size, char* out,
               std::size_t out_size) noexcept;

  /// At the end of the input: true when it ended inside a member (the data
  /// was cut short). Drain first: call inflate() until `out` is not filled.
  bool truncated() const noexcept { return in_member_ && state_ == status::ok; }

  /// Bytes produced so far.
  std::uint64_t total_out() const noexcept { return total_out_; }

  /// What the decoder saw in a corrupt stream ("invalid deflate block"), or
  /// a description of the status; never null.
  const char* message() const noexcept;

 private:
  std::uint64_t max_output_;
  std::uint64_t total_out_ = 0;
  struct state_deleter {
    void operator()(inflate_state* s) const noexcept;
  };
  std::unique_ptr<inflate_state, state_deleter> st_;  // made at first use
  // The member header, read before its deflate data.
  enum class part : std::uint8_t {
    fixed,
    xlen,
    extra,
    name,
    comment,
    hcrc,
    body
  };
  /// Reads header bytes from `in`; `used` counts them. Answers 0 when more
  /// are needed or the body starts, else an ISA-L error code.
  int read_header(const char* in, std::size_t size, std::size_t& used) noexcept;
  void next_part() noexcept;
  /// Sets the sticky status for decoder or header error `rc`.
  void fail(int rc, step& s) noexcept;

  bool in_member_ = false;  // inside a member, not at its end
  std::uint64_t members_done_ = 0;
  part part_ = part::fixed;
  std::uint8_t flags_ = 0;        // the header's FLG byte
  std::uint32_t part_seen_ = 0;   // bytes of the current part read
  std::uint32_t extra_len_ = 0;   // XLEN
  std::uint32_t header_crc_ = 0;  // CRC-32 of the header bytes so far
  std::uint16_t hcrc_ = 0;        // the stored CRC16, as read
  status state_ = status::ok;
  const char* message_ = nullptr;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_INFLATE_H
