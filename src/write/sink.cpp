#include "sitemill/write/sink.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill {

status memory_sink::write(const char* data, std::size_t size) {
  if (closed_) return error{"memory sink: write after close"};
  target_->append(data, size);
  return {};
}

status memory_sink::close() {
  closed_ = true;
  return {};
}

namespace {
// Large enough that a 50 MiB file costs ~200 write(2) calls, small enough
// to stay in L2 while the writer fills it.
constexpr std::size_t file_buffer_size = 256 * 1024;
}  // namespace

struct file_sink::hasher {
  XXH3_state_t state;
};

result<std::unique_ptr<file_sink>> file_sink::create(std::string path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    return error{"cannot create " + path + ": " + std::strerror(errno)};
  return std::unique_ptr<file_sink>(new file_sink(std::move(path), fd));
}

file_sink::file_sink(std::string path, int fd)
    : path_(std::move(path)), fd_(fd), hash_(std::make_unique<hasher>()) {
  buffer_.reserve(file_buffer_size);
  XXH3_64bits_reset(&hash_->state);
}

file_sink::~file_sink() {
  if (fd_ >= 0) ::close(fd_);
}

status file_sink::fail(const char* what, int err) {
  error_ = std::string(what) + " " + path_ + ": " + std::strerror(err);
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  return error{error_};
}

status file_sink::flush() {
  const char* p = buffer_.data();
  std::size_t left = buffer_.size();
  while (left > 0) {
    ssize_t n = ::write(fd_, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("cannot write", errno);
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  XXH3_64bits_update(&hash_->state, buffer_.data(), buffer_.size());
  digest_.bytes += buffer_.size();
  buffer_.clear();
  return {};
}

status file_sink::write(const char* data, std::size_t size) {
  if (!error_.empty()) return error{error_};
  if (fd_ < 0) return error{"write after close: " + path_};
  while (size > 0) {
    std::size_t room = file_buffer_size - buffer_.size();
    std::size_t n = size < room ? size : room;
    buffer_.append(data, n);
    data += n;
    size -= n;
    if (buffer_.size() == file_buffer_size)
      if (status s = flush(); !s) return s;
  }
  return {};
}

status file_sink::close() {
  if (!error_.empty()) return error{error_};
  if (fd_ < 0) return error{"closed twice: " + path_};
  if (status s = flush(); !s) return s;
  // fsync before the publisher renames: a crash must never publish a name
  // whose bytes are still only in the page cache.
  if (::fsync(fd_) != 0) return fail("cannot fsync", errno);
  int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return fail("cannot close", errno);
  digest_.xxh3 = XXH3_64bits_digest(&hash_->state);
  if (report_to_ != nullptr) *report_to_ = digest_;
  return {};
}

}  // namespace sitemill
