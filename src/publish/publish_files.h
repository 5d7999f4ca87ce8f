// The publisher's file work shared by its pieces (publish.cpp, opening and
// recovery, manifests): reading whole files, the manifest's JSON, and the
// operations on one directory by its descriptor. Internal to publish/.
#ifndef SITEMILL_PUBLISH_PUBLISH_FILES_H
#define SITEMILL_PUBLISH_PUBLISH_FILES_H

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/publish/publish.h"

namespace sitemill::detail {

using json = nlohmann::json;

/// "WHAT PATH: strerror(err)".
std::string sys_error(std::string_view what, const std::string& path, int err);

/// A name from a manifest or journal is only ever acted on when it names a
/// plain file directly inside the directory: a tampered manifest must not
/// make sitemill delete ../anything.
bool is_safe_name(std::string_view name) noexcept;

/// What every publish refuses before touching anything, a directory's or a
/// bucket's: an unsafe name, an entry that is not among `files`, and a file
/// that would keep the name of one in `current` (the live set) with other
/// bytes, which would change the live set before the commit (the entry and
/// fixed-name pages aside). The entry's staged file on success.
result<const staged_file*> check_staged_files(
    const std::vector<staged_file>& files, const std::string& entry,
    const std::vector<published_file>& current);

json file_to_json(const published_file& f);
/// A manifest's "files" (or a journal's "new"): an error when an entry is
/// malformed or names a path outside the directory.
result<std::vector<published_file>> files_from_json(const json& arr);
/// A manifest naming `entry` and `files`.
json manifest_json(const std::string& entry,
                   const std::vector<published_file>& files);

/// Reads the file open on `fd` to its end in blocks of `buffer`, giving each
/// to `each`, and closes it; `path` names it in errors. One loop for every
/// whole-file read of publish/: manifests and journals, digests, a set's
/// sitemap copied to a stream.
template <class Each>
status read_and_close(int fd, const std::string& path,
                      std::vector<char>& buffer, Each&& each) {
  for (;;) {
    ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return error{sys_error("cannot read", path, err)};
    }
    if (n == 0) break;
    if (status s = each(buffer.data(), static_cast<std::size_t>(n)); !s) {
      ::close(fd);
      return s;
    }
  }
  ::close(fd);
  return {};
}

/// The small file open on `fd` (a manifest or journal), whole.
result<std::string> read_and_close(int fd, const std::string& path);

/// One directory, by its descriptor: what publishing and recovery do in it.
struct dir_ops {
  int dir_fd;
  const std::string& dir;
  const std::string& token;  // of the run, for its temporary files

  std::string path(std::string_view name) const {
    return dir + "/" + std::string(name);
  }

  bool exists(const std::string& name) const {
    struct stat st;
    return ::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
           S_ISREG(st.st_mode);
  }

  /// Anything under `name` (a file, a link, a directory), not followed.
  bool present(const std::string& name) const {
    struct stat st;
    return ::fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
  }

  status sync() const {
    if (::fsync(dir_fd) != 0)
      return error{sys_error("cannot fsync", dir, errno)};
    return {};
  }

  status remove(const std::string& name) const {
    if (::unlinkat(dir_fd, name.c_str(), 0) != 0 && errno != ENOENT)
      return error{sys_error("cannot remove", path(name), errno)};
    return {};
  }

  status rename(const std::string& from_path,
                const std::string& to_name) const {
    if (::rename(from_path.c_str(), path(to_name).c_str()) != 0)
      return error{sys_error("cannot rename into place", path(to_name), errno)};
    return {};
  }

  result<json> read_json(std::string_view name) const {
    std::string p = path(name);
    int fd = ::openat(dir_fd, std::string(name).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return error{sys_error("cannot open", p, errno)};
    auto text = read_and_close(fd, p);
    if (!text) return text.err();
    json j = json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object())
      return error{p +
                   " is not valid JSON; remove it to start afresh (old files "
                   "will then be kept)"};
    return j;
  }

  // The JSON is either old or new, never half written.
  status write_json(std::string_view name, const json& j) const {
    return write_file_atomically(path(name), j.dump(1) + "\n", token);
  }
};

}  // namespace sitemill::detail

#endif  // SITEMILL_PUBLISH_PUBLISH_FILES_H
