#include "sitemill/publish/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <string_view>

#include "detail/text.h"

namespace sitemill {
namespace {

error os_error(const std::string& path, std::string_view what) {
  std::string message = path;
  message.append(": ");
  message.append(what);
  message.append(": ");
  message.append(std::strerror(errno));
  return error{std::move(message)};
}

// Writing through the link keeps it a link: rename() over the link itself
// would replace it with a regular file.
std::string follow_link(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved) == nullptr) return path;
  return resolved;
}

}  // namespace

status write_file_atomically(const std::string& given_path,
                             std::string_view bytes) {
  const std::string path = follow_link(given_path);
  const std::size_t slash = path.rfind('/');
  const std::string dir =
      slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const std::string name =
      slash == std::string::npos ? path : path.substr(slash + 1);

  struct stat old {};
  const bool exists = ::stat(path.c_str(), &old) == 0;

  // O_EXCL on a random name instead of mkstemp(): mkstemp's 0600 would need
  // the umask to restore a new file's mode, and reading the umask changes it.
  std::random_device random;
  std::string temp;
  int fd = -1;
  for (int tries = 0; tries < 16 && fd < 0; ++tries) {
    temp = dir + std::string(temp_file_prefix) + name + "-" +
           detail::to_hex(static_cast<std::uint64_t>(random()) << 32 | random(),
                          16);
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST)
      return os_error(path, "cannot create a temporary file beside it");
  }
  if (fd < 0) return os_error(path, "cannot create a temporary file beside it");

  auto fail = [&](std::string_view what) {
    const error e = os_error(path, what);
    ::close(fd);
    ::unlink(temp.c_str());
    return e;
  };
  std::string_view rest = bytes;
  while (!rest.empty()) {
    const ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("cannot write");
    }
    rest.remove_prefix(static_cast<std::size_t>(n));
  }
  if (exists && ::fchmod(fd, old.st_mode & 07777) != 0) {
    return fail("cannot copy the permissions");
  }
  if (::fsync(fd) != 0) return fail("cannot flush to disk");
  if (::close(fd) != 0) {
    fd = -1;
    const error e = os_error(path, "cannot write");
    ::unlink(temp.c_str());
    return e;
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const error e = os_error(path, "cannot replace");
    ::unlink(temp.c_str());
    return e;
  }
  // The rename is durable only once the directory entry is on disk, and the
  // publisher's journal must be durable before anything it describes moves.
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0 || ::fsync(dir_fd) != 0) {
    const error e =
        os_error(path, "replaced, but cannot flush its directory to disk");
    if (dir_fd >= 0) ::close(dir_fd);
    return e;
  }
  ::close(dir_fd);
  return status::ok();
}

}  // namespace sitemill
