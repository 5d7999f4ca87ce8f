#include "source/input_stream.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include "detail/fd_wait.h"

namespace sitemill::detail {

fd_source::fd_source(int fd, bool owned, const std::atomic<bool>* stop) noexcept
    : fd_(fd), owned_(owned), stop_(stop), may_block_(may_block(fd)) {}

fd_source::~fd_source() {
  if (owned_) ::close(fd_);
}

std::size_t fd_source::read(char* dst, std::size_t n, int& err) {
  for (;;) {
    // Checked before every block, so an endless input (/dev/zero) ends too.
    if (stop_ != nullptr && stop_->load(std::memory_order_relaxed)) {
      err = ECANCELED;
      return 0;
    }
    if (may_block_ && !wait_readable(fd_, fd_wait_step_ms)) continue;
    const ssize_t got = ::read(fd_, dst, n);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno != EINTR) {
      err = errno;
      return 0;
    }
  }
}

std::size_t memory_source::read(char* dst, std::size_t n, int& /*err*/) {
  const std::size_t got = std::min(n, data_.size());
  if (got != 0) std::memcpy(dst, data_.data(), got);
  data_.remove_prefix(got);
  return got;
}

// The raw buffer holds at least a gzip magic number and a little more, even
// when tests shrink the block size to one byte.
decoded_stream::decoded_stream(std::unique_ptr<byte_source> source,
                               std::size_t block_size)
    : source_(std::move(source)),
      in_cap_(std::max<std::size_t>(block_size, 16)) {
  in_ = std::make_unique_for_overwrite<char[]>(in_cap_);
}

decoded_stream::~decoded_stream() = default;

void decoded_stream::fail(std::string message) {
  error_ = std::move(message);
  done_ = true;
}

// Reads until at least `want` raw bytes are buffered or the source ends.
// False on a read error.
bool decoded_stream::fill_input(std::size_t want) {
  if (in_pos_ != 0) {
    std::memmove(in_.get(), in_.get() + in_pos_, in_end_ - in_pos_);
    in_end_ -= in_pos_;
    in_pos_ = 0;
  }
  while (in_end_ < want && !source_eof_) {
    int err = 0;
    const std::size_t got =
        source_->read(in_.get() + in_end_, in_cap_ - in_end_, err);
    if (err != 0) {
      fail(std::string("read error: ") + std::strerror(err));
      return false;
    }
    if (got == 0) source_eof_ = true;
    in_end_ += got;
    raw_read_ += got;
  }
  return true;
}

std::size_t decoded_stream::read(char* dst, std::size_t n) {
  if (done_) return 0;  // also after an error, even one that returned bytes
  if (!sniffed_) {
    sniffed_ = true;
    if (!fill_input(2)) return 0;
    if (starts_gzip(std::string_view(in_.get(), in_end_)))
      gzip_ = std::make_unique<gzip_inflater>();
  }
  if (gzip_) return inflate_into(dst, n);
  if (in_pos_ < in_end_) {
    const std::size_t got = std::min(n, in_end_ - in_pos_);
    std::memcpy(dst, in_.get() + in_pos_, got);
    in_pos_ += got;
    return got;
  }
  if (source_eof_) {
    done_ = true;
    return 0;
  }
  int err = 0;
  const std::size_t got = source_->read(dst, n, err);
  if (err != 0) {
    fail(std::string("read error: ") + std::strerror(err));
    return 0;
  }
  if (got == 0) {
    source_eof_ = true;
    done_ = true;
  }
  raw_read_ += got;
  return got;
}

std::size_t decoded_stream::inflate_into(char* dst, std::size_t n) {
  using status = gzip_inflater::status;
  for (;;) {
    if (in_pos_ == in_end_ && !source_eof_ && !fill_input(1)) return 0;
    const auto s =
        gzip_->inflate(in_.get() + in_pos_, in_end_ - in_pos_, dst, n);
    in_pos_ += s.consumed;
    switch (s.result) {
      case status::ok:
        break;
      case status::trailing_data:
        // The bytes decoded before the bad spot are good: hand them out
        // first, so what is read does not depend on the block size.
        fail("unexpected data after the end of the gzip data");
        return s.produced;
      case status::corrupt:
        fail(std::string("invalid gzip data: ") + gzip_->message());
        return s.produced;
      case status::no_memory:
      case status::output_limit:  // no limit is set
        fail(gzip_->message());
        return s.produced;
    }
    if (s.produced != 0) return s.produced;
    if (in_pos_ == in_end_ && source_eof_) {
      // All input taken and nothing more comes out: the end, or a cut.
      if (gzip_->truncated())
        fail("gzip data is truncated (unexpected end of file)");
      else
        done_ = true;
      return 0;
    }
    if (s.consumed == 0) {
      // The inflater takes the input it is given unless its output is full;
      // never spin on a decoder that stalls.
      fail("invalid gzip data: the decoder made no progress");
      return 0;
    }
  }
}

}  // namespace sitemill::detail
