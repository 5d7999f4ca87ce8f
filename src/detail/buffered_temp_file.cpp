#include "detail/buffered_temp_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace sitemill::detail {

result<std::unique_ptr<buffered_temp_file>> buffered_temp_file::create(
    std::string path, std::string_view purpose, std::size_t buffer_bytes) {
  std::unique_ptr<buffered_temp_file> made(new buffered_temp_file());
  made->purpose_ = purpose;
  const int fd =
      ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return error{"cannot create " + path + " (" + made->purpose_ +
                 "): " + std::strerror(errno)};
  made->path_ = std::move(path);  // ours to remove from here on
  made->f_ = ::fdopen(fd, "w+b");
  if (made->f_ == nullptr) {
    ::close(fd);
    return made->fail("open").err();
  }
  if (buffer_bytes == 0) {
    std::setvbuf(made->f_, nullptr, _IONBF, 0);
  } else {
    made->buffer_ = std::make_unique<char[]>(buffer_bytes);
    std::setvbuf(made->f_, made->buffer_.get(), _IOFBF, buffer_bytes);
  }
  return made;
}

buffered_temp_file::~buffered_temp_file() {
  if (f_ != nullptr) std::fclose(f_);
  if (!path_.empty()) ::unlink(path_.c_str());
}

status buffered_temp_file::rewind() {
  if (std::fflush(f_) != 0 || std::fseek(f_, 0, SEEK_SET) != 0)
    return fail("rewind");
  readable_ = static_cast<std::size_t>(bytes_);
  return {};
}

status buffered_temp_file::reuse() {
  std::clearerr(f_);
  if (std::fseek(f_, 0, SEEK_SET) != 0) return fail("rewind");
  bytes_ = 0;
  readable_ = 0;
  return {};
}

status buffered_temp_file::read_error() const {
  if (std::ferror(f_)) return fail("read");
  return {};
}

status buffered_temp_file::fail(const char* what) const {
  return error{std::string("cannot ") + what + " " + path_ + " (" + purpose_ +
               "): " + std::strerror(errno ? errno : EIO)};
}

}  // namespace sitemill::detail
