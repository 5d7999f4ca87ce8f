// sitemill internals: a temporary file written once from start to end and
// then read once (or a few times) from start to end, bypassing the page
// cache where the file system allows it (O_DIRECT).
//
// Why: generate parks up to gigabytes of entries on disk (the entry spool)
// that nothing reads again but the same run. Through the page cache, every
// byte is copied into freshly allocated cache pages, and on the 2-core VM
// the project is measured on that copy cost 3.1 s of kernel time per 1.3 GB
// (`dd bs=1M count=1300`), against 0.13 s with O_DIRECT (0.63 s of wall
// time, the disk's); reading back: 0.09 s. Caching the data also pushes
// out pages other programs need. Where O_DIRECT is refused (tmpfs, some
// network file systems) the same code reads and writes through the cache.
//
// Blocks of 1 MiB, aligned as O_DIRECT needs; the last one is padded on
// disk and its true length kept here. Two blocks and a thread of its own:
// while the caller fills one block, the other is written, and while the
// caller reads one, the next is read ahead, so the disk's time (about 6 s
// to write and 10 s to read 13 GB on the VM) hides behind the caller's
// work instead of adding to it. 2 MiB of memory.
//
// Not thread-safe: one caller at a time (the I/O thread is its own).
#ifndef SITEMILL_DETAIL_SPILL_FILE_H
#define SITEMILL_DETAIL_SPILL_FILE_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "sitemill/result.h"

namespace sitemill::detail {

/// Where a temporary file goes when its caller names no directory: $TMPDIR
/// when set and not empty, else /tmp.
std::string temp_directory();

class spill_file {
 public:
  static constexpr std::size_t block_size = std::size_t{1} << 20;

  /// Creates `path`, which must not exist; the destructor removes it.
  /// `bypass_cache` false keeps to the page cache (tests of that path; the
  /// file systems that refuse O_DIRECT take it anyway).
  static result<spill_file> create(std::string path, bool bypass_cache = true);
  spill_file(spill_file&& other) noexcept;
  spill_file& operator=(spill_file&& other) noexcept;
  ~spill_file();

  /// Appends; only before the first rewind().
  [[nodiscard]] status append(const void* data, std::size_t size) {
    // Most appends are a few dozen bytes into a block with room: inline.
    // Nothing to append (an entry without its loc) may come with no data
    // pointer at all, which memcpy may not be given.
    if (size == 0) return reading_ ? append_slow(data, size) : status{};
    if (!reading_ && size < block_size - used_) {
      std::memcpy(blocks_[current_].get() + used_, data, size);
      used_ += size;
      size_ += size;
      return {};
    }
    return append_slow(data, size);
  }
  /// Writes what is buffered and starts reading from the first byte; may be
  /// called again to read once more.
  [[nodiscard]] status rewind();
  /// Reads exactly `size` bytes: true; false at the end of the file (with
  /// nothing read); an error when the file ends inside them or cannot be
  /// read.
  [[nodiscard]] result<bool> read(void* data, std::size_t size);
  /// The next `size` bytes where they lie, when they lie whole in the
  /// block being read: no copy, and valid until the next read. nullptr
  /// otherwise, having read nothing: read() or read_view() then.
  const char* try_view(std::size_t size) noexcept {
    if (used_ - at_ < size) return nullptr;
    const char* p = blocks_[current_].get() + at_;
    at_ += size;
    consumed_ += size;
    return p;
  }
  /// As read(), but without a copy where it can: the bytes where they lie
  /// in the file's block when they lie in one piece, else copied into
  /// `scratch`. The view lasts until the next read or read_view. nullopt at
  /// the end of the file (with nothing read).
  [[nodiscard]] result<std::optional<std::string_view>> read_view(
      std::size_t size, std::string& scratch);

  /// Bytes appended.
  std::uint64_t size() const noexcept { return size_; }
  /// While reading: the bytes not read yet (a length read from the file is
  /// checked against it before anything is read or allocated for it).
  std::uint64_t unread() const noexcept { return size_ - consumed_; }
  /// True when the page cache is bypassed.
  bool direct() const noexcept { return direct_; }
  const std::string& path() const noexcept { return path_; }

 private:
  spill_file() = default;
  status fail(const char* what, int err) const;
  status append_slow(const void* data, std::size_t size);
  status write_block(std::size_t bytes);
  status fill();
  void close() noexcept;

  struct aligned_free {
    void operator()(char* p) const noexcept;
  };
  using block = std::unique_ptr<char, aligned_free>;
  struct io_thread;  // does one pread or pwrite at a time, in the background

  std::string path_;
  int fd_ = -1;
  bool direct_ = false;
  bool reading_ = false;
  block blocks_[2];
  int current_ = 0;  // the block the caller fills or reads
  std::unique_ptr<io_thread> io_;
  std::size_t used_ = 0;        // bytes in the current block
  std::size_t at_ = 0;          // next byte of the current block to read
  std::uint64_t size_ = 0;      // logical bytes appended
  std::uint64_t offset_ = 0;    // file offset of the next block
  std::uint64_t consumed_ = 0;  // logical bytes read so far
  bool ahead_ = false;          // a read of the next block is under way
};

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_SPILL_FILE_H
