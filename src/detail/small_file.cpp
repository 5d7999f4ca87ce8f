#include "sitemill/small_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sitemill/numbers.h"

namespace sitemill {
namespace {

std::string too_large(std::uint64_t size, std::uint64_t max_bytes) {
  return "it is " + (size > max_bytes ? human_bytes(size) : "larger") +
         ", more than the " + human_bytes(max_bytes) +
         " such a file can be; is it the right file?";
}

}  // namespace

result<std::string> read_small_file(const std::string& path,
                                    std::uint64_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return error{std::strerror(errno)};
  struct closer {
    int fd;
    ~closer() { ::close(fd); }
  } closing{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return error{std::strerror(errno)};
  if (S_ISDIR(st.st_mode)) return error{"it is a directory, not a file"};
  if (!S_ISREG(st.st_mode))
    return error{
        "it is not a regular file (a FIFO, socket or device), which could "
        "block or never end; give a file"};
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) return error{too_large(size, max_bytes)};
  std::string out;
  out.resize(static_cast<std::size_t>(size));
  std::size_t have = 0;
  for (;;) {
    // One byte more than the limit is room to see a file that grew.
    if (out.size() == have) {
      if (have > max_bytes) return error{too_large(have, max_bytes)};
      out.resize(have + 1 + (have < 4096 ? 4096 : have / 2));
    }
    const ::ssize_t n = ::read(fd, out.data() + have, out.size() - have);
    if (n < 0) {
      if (errno == EINTR) continue;
      return error{std::strerror(errno)};
    }
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
    if (have > max_bytes) return error{too_large(have, max_bytes)};
  }
  out.resize(have);
  return out;
}

}  // namespace sitemill
