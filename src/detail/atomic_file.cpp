#include "sitemill/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
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

std::uint64_t random_bits() {
  std::random_device random;
  return static_cast<std::uint64_t>(random()) << 32 | random();
}

bool is_lower_hex(char c) noexcept {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

constexpr std::size_t token_digits = 16;

}  // namespace

std::string new_run_token() {
  return detail::to_hex(random_bits(), static_cast<int>(token_digits));
}

std::string temp_file_name(std::string_view token, std::string_view what) {
  std::string name(temp_file_prefix);
  name.append(token);
  name += '-';
  name.append(what);
  return name;
}

std::vector<std::string> temp_files_in(const std::string& dir,
                                       std::span<const std::string> tokens) {
  std::vector<std::string> names;
  if (tokens.empty()) return names;
  DIR* dp = ::opendir(dir.c_str());
  if (dp == nullptr) return names;
  while (const dirent* e = ::readdir(dp)) {
    const std::string_view token = temp_file_token(e->d_name);
    if (!token.empty() &&
        std::find(tokens.begin(), tokens.end(), token) != tokens.end())
      names.emplace_back(e->d_name);
  }
  ::closedir(dp);
  return names;
}

bool is_run_token(std::string_view text) noexcept {
  return text.size() == token_digits &&
         std::all_of(text.begin(), text.end(), is_lower_hex);
}

std::string_view temp_file_token(std::string_view name) noexcept {
  if (!name.starts_with(temp_file_prefix)) return {};
  name.remove_prefix(temp_file_prefix.size());
  if (name.size() <= token_digits || name[token_digits] != '-') return {};
  const std::string_view token = name.substr(0, token_digits);
  return is_run_token(token) ? token : std::string_view{};
}

result<staged_write> stage_write(const std::string& given_path,
                                 std::string_view bytes,
                                 std::string_view token) {
  staged_write out;
  out.target = follow_link(given_path);
  const std::string& path = out.target;
  const std::size_t slash = path.rfind('/');
  const std::string dir =
      slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name =
      slash == std::string::npos ? path : path.substr(slash + 1);

  struct stat old {};
  const bool exists = ::stat(path.c_str(), &old) == 0;

  // O_EXCL on a random name instead of mkstemp(): mkstemp's 0600 would need
  // the umask to restore a new file's mode, and reading the umask changes it.
  // The random part after the name keeps two writes of one run apart.
  std::string& temp = out.temp;
  int fd = -1;
  for (int tries = 0; tries < 16 && fd < 0; ++tries) {
    temp = dir + temp_file_name(token.empty() ? new_run_token() : token,
                                name + "-" + detail::to_hex(random_bits(), 8));
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
    const error e = os_error(path, "cannot write");
    ::unlink(temp.c_str());
    return e;
  }
  return out;
}

status commit_staged_write(const staged_write& staged) {
  const std::string& path = staged.target;
  if (::rename(staged.temp.c_str(), path.c_str()) != 0) {
    const error e = os_error(path, "cannot replace");
    ::unlink(staged.temp.c_str());
    return e;
  }
  // The rename is durable only once the directory entry is on disk, and the
  // publisher's journal must be durable before anything it describes moves.
  const std::size_t slash = path.rfind('/');
  const std::string dir =
      slash == std::string::npos ? "." : path.substr(0, slash + 1);
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

status write_file_atomically(const std::string& path, std::string_view bytes,
                             std::string_view token) {
  auto staged = stage_write(path, bytes, token);
  if (!staged) return staged.err();
  return commit_staged_write(*staged);
}

}  // namespace sitemill
