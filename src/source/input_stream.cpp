#include "source/input_stream.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

namespace sitemill::detail {

fd_source::~fd_source() {
  if (owned_) ::close(fd_);
}

std::size_t fd_source::read(char* dst, std::size_t n, int& err) {
  for (;;) {
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

decoded_stream::~decoded_stream() {
  if (zs_init_) inflateEnd(&zs_);
}

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
  }
  return true;
}

std::size_t decoded_stream::read(char* dst, std::size_t n) {
  if (done_) return 0;  // also after an error, even one that returned bytes
  if (!sniffed_) {
    sniffed_ = true;
    if (!fill_input(2)) return 0;
    gzip_ = in_end_ >= 2 && static_cast<unsigned char>(in_[0]) == 0x1F &&
            static_cast<unsigned char>(in_[1]) == 0x8B;
    if (gzip_) {
      // 15 + 32: the largest window, and zlib detects the gzip header itself.
      if (inflateInit2(&zs_, 15 + 32) != Z_OK) {
        fail("cannot start the gzip decoder");
        return 0;
      }
      zs_init_ = true;
    }
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
  return got;
}

std::size_t decoded_stream::inflate_into(char* dst, std::size_t n) {
  // zlib counts in uInt; a block is far below that, but stay exact.
  n = std::min<std::size_t>(n, std::numeric_limits<uInt>::max());
  for (;;) {
    if (member_done_) {
      // Another member may follow (gzip -d reads concatenated members);
      // anything else after a complete member is not gzip data.
      if (!fill_input(2)) return 0;
      if (in_end_ == 0) {
        done_ = true;
        return 0;
      }
      if (in_end_ < 2 || static_cast<unsigned char>(in_[0]) != 0x1F ||
          static_cast<unsigned char>(in_[1]) != 0x8B) {
        fail("unexpected data after the end of the gzip data");
        return 0;
      }
      inflateReset(&zs_);
      member_done_ = false;
    }
    if (in_pos_ == in_end_ && !source_eof_) {
      if (!fill_input(1)) return 0;
    }
    zs_.next_in = reinterpret_cast<Bytef*>(in_.get() + in_pos_);
    zs_.avail_in = static_cast<uInt>(in_end_ - in_pos_);
    zs_.next_out = reinterpret_cast<Bytef*>(dst);
    zs_.avail_out = static_cast<uInt>(n);
    const int rc = inflate(&zs_, Z_NO_FLUSH);
    const std::size_t consumed = (in_end_ - in_pos_) - zs_.avail_in;
    in_pos_ = in_end_ - zs_.avail_in;
    const std::size_t produced = n - zs_.avail_out;
    if (rc == Z_STREAM_END) {
      member_done_ = true;
    } else if (rc == Z_NEED_DICT || rc == Z_DATA_ERROR || rc == Z_MEM_ERROR) {
      // The bytes decoded before the bad spot are good: hand them out first,
      // so what is read does not depend on the block size.
      fail(rc == Z_MEM_ERROR
               ? std::string("out of memory in the gzip decoder")
               : std::string("invalid gzip data: ") +
                     (zs_.msg != nullptr ? zs_.msg : "corrupt stream"));
      return produced;
    } else if (consumed == 0 && produced == 0) {
      // No progress: fine while more input can come, otherwise the stream
      // stopped before its end. (zlib always takes all the input it is
      // given, so a stall with input left would be a decoder bug; never
      // spin on it.)
      if (in_pos_ == in_end_ && source_eof_) {
        fail("gzip data is truncated (unexpected end of file)");
        return 0;
      }
      if (in_pos_ != in_end_) {
        fail("invalid gzip data: the decoder made no progress");
        return 0;
      }
    }
    if (produced != 0) return produced;
  }
}

}  // namespace sitemill::detail
