#include "detail/fd_wait.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>

namespace sitemill::detail {

int open_for_reading(const char* path) noexcept {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return fd;
  if (const int flags = ::fcntl(fd, F_GETFL); flags >= 0)
    ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return fd;
}

bool may_block(int fd) noexcept {
  struct stat st {};
  return ::fstat(fd, &st) == 0 && !S_ISREG(st.st_mode);
}

bool wait_readable(int fd, int timeout_ms) noexcept {
  pollfd p{fd, POLLIN, 0};
  return ::poll(&p, 1, timeout_ms) > 0;
}

}  // namespace sitemill::detail
