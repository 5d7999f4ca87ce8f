#include "detail/spill_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

namespace sitemill::detail {
namespace {

// O_DIRECT wants offsets, lengths and memory aligned to the device's
// logical block; 4 KiB covers every common one.
constexpr std::size_t alignment = 4096;

// A device whose blocks are larger than `alignment` (or a file system that
// took O_DIRECT at open and refuses it for this request) answers EINVAL:
// the file goes on through the page cache, which takes any alignment.
bool leave_direct(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  return flags >= 0 && (flags & O_DIRECT) != 0 &&
         ::fcntl(fd, F_SETFL, flags & ~O_DIRECT) == 0;
}

// Writes all of [data, data + size) at `offset`; errno on failure.
int write_all(int fd, const char* data, std::size_t size,
              std::uint64_t offset) {
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::pwrite(fd, data + done, size - done,
                               static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EINVAL && leave_direct(fd)) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

// Reads up to `size` bytes at `offset` into `got`; errno on failure. Stops
// at the end of the file.
int read_some(int fd, char* data, std::size_t size, std::uint64_t offset,
              bool direct, std::size_t& got) {
  got = 0;
  while (got < size) {
    const ssize_t n =
        ::pread(fd, data + got, size - got, static_cast<off_t>(offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EINVAL && leave_direct(fd)) continue;
    if (n < 0) return errno;
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
    if (direct && got % alignment != 0) break;  // the file's padded end
  }
  return 0;
}

}  // namespace

// One job at a time: the caller hands it over, goes on with its other
// block, and waits for the job only when it needs that block again.
struct spill_file::io_thread {
  struct job {
    bool write = false;
    int fd = -1;
    char* data = nullptr;
    std::size_t size = 0;
    std::uint64_t offset = 0;
    bool direct = false;
  };

  std::mutex mu;
  std::condition_variable cv;
  job pending;
  bool busy = false;  // a job was handed over and is not done
  bool quit = false;
  int err = 0;          // of the last job
  std::size_t got = 0;  // bytes the last read got
  std::thread thread{[this] { loop(); }};

  ~io_thread() {
    {
      std::lock_guard lock(mu);
      quit = true;
    }
    cv.notify_all();
    thread.join();
  }

  void loop() {
    std::unique_lock lock(mu);
    for (;;) {
      cv.wait(lock, [this] { return quit || busy; });
      if (!busy) return;  // quit, nothing left to do
      const job j = pending;
      lock.unlock();
      std::size_t n = 0;
      const int e =
          j.write ? write_all(j.fd, j.data, j.size, j.offset)
                  : read_some(j.fd, j.data, j.size, j.offset, j.direct, n);
      lock.lock();
      err = e;
      got = n;
      busy = false;
      cv.notify_all();
    }
  }

  void start(const job& j) {
    {
      std::lock_guard lock(mu);
      pending = j;
      busy = true;
      err = 0;
      got = 0;
    }
    cv.notify_all();
  }

  // Waits for the job under way, if any; its errno (0: done) and, for a
  // read, the bytes it got.
  int wait(std::size_t* bytes = nullptr) {
    std::unique_lock lock(mu);
    cv.wait(lock, [this] { return !busy; });
    if (bytes != nullptr) *bytes = got;
    return err;
  }
};

void spill_file::aligned_free::operator()(char* p) const noexcept {
  std::free(p);
}

result<spill_file> spill_file::create(std::string path, bool bypass_cache) {
  spill_file f;
  f.path_ = std::move(path);
  f.fd_ = ::open(f.path_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (f.fd_ < 0) {
    const int err = errno;
    std::string p = std::move(f.path_);
    f.path_.clear();  // not ours to remove
    return error{"cannot create " + p + ": " + std::strerror(err)};
  }
  // Asked after the file exists: a file system that refuses O_DIRECT says
  // so here (EINVAL) and the file is used through the cache instead.
  const int flags = ::fcntl(f.fd_, F_GETFL);
  f.direct_ = bypass_cache && flags >= 0 &&
              ::fcntl(f.fd_, F_SETFL, flags | O_DIRECT) == 0;
  for (block& b : f.blocks_) {
    void* memory = nullptr;
    if (::posix_memalign(&memory, alignment, block_size) != 0)
      return f.fail("allocate a buffer for", ENOMEM).err();
    b.reset(static_cast<char*>(memory));
  }
  f.io_ = std::make_unique<io_thread>();
  return f;
}

spill_file::spill_file(spill_file&& o) noexcept { *this = std::move(o); }

spill_file& spill_file::operator=(spill_file&& o) noexcept {
  if (this == &o) return *this;
  close();
  path_ = std::move(o.path_);
  fd_ = o.fd_;
  direct_ = o.direct_;
  reading_ = o.reading_;
  blocks_[0] = std::move(o.blocks_[0]);
  blocks_[1] = std::move(o.blocks_[1]);
  current_ = o.current_;
  io_ = std::move(o.io_);  // its jobs name the blocks, which did not move
  used_ = o.used_;
  at_ = o.at_;
  size_ = o.size_;
  offset_ = o.offset_;
  consumed_ = o.consumed_;
  ahead_ = o.ahead_;
  o.fd_ = -1;
  o.path_.clear();
  return *this;
}

spill_file::~spill_file() { close(); }

void spill_file::close() noexcept {
  if (io_) {
    (void)io_->wait();  // a job under way uses fd_ and a block
    io_.reset();
  }
  if (fd_ >= 0) ::close(fd_);
  if (!path_.empty()) ::unlink(path_.c_str());
  fd_ = -1;
  path_.clear();
}

status spill_file::fail(const char* what, int err) const {
  return error{std::string("cannot ") + what + " " + path_ + ": " +
               std::strerror(err)};
}

// Hands the current block to the I/O thread (once the one before it is
// written) and goes on with the other. The last block is padded to the
// alignment on disk; size_ keeps the true length.
status spill_file::write_block(std::size_t bytes) {
  const std::size_t padded =
      direct_ ? (bytes + alignment - 1) / alignment * alignment : bytes;
  char* data = blocks_[current_].get();
  std::memset(data + bytes, 0, padded - bytes);
  if (const int e = io_->wait(); e != 0) return fail("write", e);
  io_->start({true, fd_, data, padded, offset_, direct_});
  offset_ += padded;
  current_ ^= 1;
  used_ = 0;
  return {};
}

status spill_file::append_slow(const void* data, std::size_t size) {
  if (reading_) return error{"append after rewind: " + path_};
  const char* p = static_cast<const char*>(data);
  size_ += size;
  while (size > 0) {
    const std::size_t n = std::min(size, block_size - used_);
    std::memcpy(blocks_[current_].get() + used_, p, n);
    used_ += n;
    p += n;
    size -= n;
    if (used_ == block_size)
      if (status s = write_block(block_size); !s) return s;
  }
  return {};
}

status spill_file::rewind() {
  if (!reading_) {
    if (used_ > 0)
      if (status s = write_block(used_); !s) return s;
    reading_ = true;
  }
  // The last write, or a read ahead of a pass that did not finish.
  if (const int e = io_->wait(); e != 0) return fail("write", e);
  offset_ = 0;
  consumed_ = 0;
  used_ = 0;
  at_ = 0;
  ahead_ = false;
  return {};
}

// Makes the next block current: the one read ahead if there is one, else
// read now; then starts reading the one after it into the other block.
// Only the bytes below size_ count.
status spill_file::fill() {
  std::size_t got = 0;
  if (ahead_) {
    if (const int e = io_->wait(&got); e != 0) return fail("read", e);
    current_ ^= 1;
    ahead_ = false;
  } else if (const int e = read_some(fd_, blocks_[current_].get(), block_size,
                                     offset_, direct_, got);
             e != 0) {
    return fail("read", e);
  }
  const std::uint64_t left = size_ - std::min(size_, offset_);
  used_ = static_cast<std::size_t>(std::min<std::uint64_t>(got, left));
  at_ = 0;
  offset_ += got;
  if (offset_ < size_) {
    io_->start({false, fd_, blocks_[current_ ^ 1].get(), block_size, offset_,
                direct_});
    ahead_ = true;
  }
  return {};
}

result<bool> spill_file::read(void* data, std::size_t size) {
  char* p = static_cast<char*>(data);
  std::size_t copied = 0;
  while (copied < size) {
    if (at_ == used_) {
      if (consumed_ == size_) {
        if (copied == 0) return false;
        return fail("read to the end of a record in", EIO).err();
      }
      if (status s = fill(); !s) return s.err();
      if (used_ == 0) return fail("read", EIO).err();
    }
    const std::size_t n = std::min(size - copied, used_ - at_);
    std::memcpy(p + copied, blocks_[current_].get() + at_, n);
    at_ += n;
    copied += n;
    consumed_ += n;
  }
  return true;
}

result<std::optional<std::string_view>> spill_file::read_view(
    std::size_t size, std::string& scratch) {
  if (at_ == used_ && consumed_ < size_)
    if (status s = fill(); !s) return s.err();
  if (used_ - at_ >= size) {  // in one piece: no copy
    const std::string_view view(blocks_[current_].get() + at_, size);
    at_ += size;
    consumed_ += size;
    return std::optional<std::string_view>(view);
  }
  scratch.resize(size);
  auto got = read(scratch.data(), size);
  if (!got) return got.err();
  if (!*got) return std::optional<std::string_view>();
  return std::optional<std::string_view>(scratch);
}

std::string temp_directory() {
  const char* env = std::getenv("TMPDIR");
  return env != nullptr && *env != '\0' ? env : "/tmp";
}

}  // namespace sitemill::detail
