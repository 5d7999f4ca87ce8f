// publisher::open(): the directories, the lock and the record of run tokens
// in it, an earlier build's lock; recovery.cpp repairs what killed runs left.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "publish/publish_files.h"
#include "sitemill/publish/publish.h"

namespace sitemill {

using detail::is_safe_name;
using detail::sys_error;

namespace {

// The lock file holds one line per run token whose temporaries may still be
// in the directory: the run holding the lock, and runs that were killed.
// Every line is the same length, so rewriting the first line in place never
// splits another.
constexpr std::size_t lock_line_size = 17;  // 16 hex digits and '\n'

std::vector<std::string> tokens_in(int lock_fd) {
  std::vector<std::string> tokens;
  char buf[64 * lock_line_size];
  ssize_t n = ::pread(lock_fd, buf, sizeof buf, 0);
  for (ssize_t at = 0; n > 0 && at + static_cast<ssize_t>(lock_line_size) <= n;
       at += static_cast<ssize_t>(lock_line_size)) {
    const std::string_view token(buf + at, lock_line_size - 1);
    if (buf[at + lock_line_size - 1] == '\n' && is_run_token(token))
      tokens.emplace_back(token);
  }
  return tokens;
}

}  // namespace

status publisher::record_tokens(const std::vector<std::string>& tokens) {
  std::string text;
  for (const auto& t : tokens) text += t + "\n";
  const char* p = text.data();
  std::size_t left = text.size();
  off_t at = 0;
  while (left > 0) {
    ssize_t n = ::pwrite(lock_fd_, p, left, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return error{sys_error("cannot record the run in", lock_path_, errno)};
    p += n;
    at += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::ftruncate(lock_fd_, static_cast<off_t>(text.size())) != 0 ||
      ::fsync(lock_fd_) != 0)
    return error{sys_error("cannot record the run in", lock_path_, errno)};
  return {};
}

namespace {

std::string without_trailing_slashes(std::string path) {
  if (path.empty()) path = ".";
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

bool same_directory(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 &&
         sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

}  // namespace

// mkdir -p, one level at a time, remembering what this run created; `path`
// must be a directory in the end.
status publisher::make_directories(const std::string& path) {
  for (std::size_t pos = 1; pos <= path.size(); ++pos) {
    if (pos != path.size() && path[pos] != '/') continue;
    std::string part = path.substr(0, pos);
    if (::mkdir(part.c_str(), 0755) == 0)
      created_dirs_.push_back(part);
    else if (errno != EEXIST)
      return error{sys_error("cannot create directory", part, errno)};
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return error{sys_error("cannot open", path, errno)};
  if (!S_ISDIR(st.st_mode)) return error{path + " is not a directory"};
  return {};
}

status publisher::take_lock() {
  for (int tries = 0;; ++tries) {
    int fd = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return error{sys_error("cannot create", lock_path_, errno)};
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK)
        return error{"another sitemill run is publishing to " + dir_ +
                     " (it holds " + lock_path_ + "); wait for it to finish"};
      return error{sys_error("cannot lock", lock_path_, err)};
    }
    // The run we waited for may have removed the file we locked (see
    // ~publisher): the lock counts only while the name leads to our file.
    struct stat held, named;
    if (::fstat(fd, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 &&
        held.st_dev == named.st_dev && held.st_ino == named.st_ino) {
      lock_fd_ = fd;
      return {};
    }
    ::close(fd);
    if (tries == 8)
      return error{"cannot lock " + lock_path_ + ": it keeps being replaced"};
  }
}

// An earlier build's lock in the set directory: a run of it may still hold
// it, and it records the tokens of its killed runs, whose temporaries are in
// the directory.
status publisher::take_legacy_lock(std::vector<std::string>& dead_runs) {
  const std::string path =
      dir_ + "/" + std::string(legacy_bookkeeping::lock_file_name);
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) {
    if (errno == ENOENT) return {};
    return error{sys_error("cannot open", path, errno)};
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK)
      return error{"an earlier sitemill build is publishing to " + dir_ +
                   " (it holds " + path + "); wait for it to finish"};
    return error{sys_error("cannot lock", path, err)};
  }
  legacy_lock_fd_ = fd;
  for (std::string& t : tokens_in(fd))
    if (std::find(dead_runs.begin(), dead_runs.end(), t) == dead_runs.end())
      dead_runs.push_back(std::move(t));
  return {};
}

result<std::unique_ptr<publisher>> publisher::open(
    std::string dir, std::string set, std::string bookkeeping_dir) {
  if (!is_safe_name(set))
    return error{"set name \"" + set + "\" is not a plain name"};
  dir = without_trailing_slashes(std::move(dir));
  if (bookkeeping_dir.empty()) {
    auto book = default_bookkeeping_dir(dir);
    if (!book) return error{book.err().message, "dir"};
    bookkeeping_dir = std::move(*book);
  }
  bookkeeping_dir = without_trailing_slashes(std::move(bookkeeping_dir));
  // From here on the destructor undoes what open() did if it fails.
  std::unique_ptr<publisher> p(
      new publisher(dir, std::move(bookkeeping_dir), std::move(set)));
  if (status s = p->make_directories(p->dir_); !s)
    return error{s.err().message, "dir"};
  if (status s = p->make_directories(p->book_dir_); !s) return s.err();
  if (same_directory(p->dir_, p->book_dir_))
    return error{
        "sitemill's bookkeeping cannot live in the directory it "
        "publishes to (" +
        p->dir_ + "); choose another directory for it"};
  if (status s = p->take_lock(); !s) return s.err();
  p->dir_fd_ = ::open(p->dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (p->dir_fd_ < 0) return error{sys_error("cannot open", p->dir_, errno)};
  p->book_fd_ =
      ::open(p->book_dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (p->book_fd_ < 0)
    return error{sys_error("cannot open", p->book_dir_, errno)};

  // This run's token joins the record before it makes any temporary file
  // (recovery writes some), and the dead runs' tokens leave it only once
  // their leftovers are gone.
  std::vector<std::string> tokens = tokens_in(p->lock_fd_);
  std::vector<std::string> dead = tokens;
  tokens.push_back(p->token_);
  if (status s = p->record_tokens(tokens); !s) {
    p->lock_removable_ = dead.empty();
    return s.err();
  }
  if (status s = p->take_legacy_lock(dead); !s) {
    p->lock_removable_ = tokens.size() == 1;
    return s.err();
  }
  if (status s = p->adopt_legacy_files(); !s) return s.err();
  if (status s = p->recover(dead); !s) return s.err();
  if (tokens.size() > 1)
    if (status s = p->record_tokens({p->token_}); !s) return s.err();
  if (p->legacy_lock_fd_ >= 0) {
    // Its dead runs' leftovers are gone: the proof is no longer needed.
    const std::string legacy_lock =
        p->dir_ + "/" + std::string(legacy_bookkeeping::lock_file_name);
    ::unlink(legacy_lock.c_str());
    ::close(p->legacy_lock_fd_);
    p->legacy_lock_fd_ = -1;
  }
  p->lock_removable_ = true;
  return p;
}

}  // namespace sitemill
