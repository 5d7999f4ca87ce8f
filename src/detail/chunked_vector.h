// sitemill internals: an append-only array in fixed chunks, for tables that
// grow with the input. A std::vector that doubles holds the old and the new
// array at once while it copies (up to 3x its size) and up to 2x its size
// after; chunks are never copied, so the peak is the size plus one chunk.
#ifndef SITEMILL_DETAIL_CHUNKED_VECTOR_H
#define SITEMILL_DETAIL_CHUNKED_VECTOR_H

#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

namespace sitemill::detail {

/// Elements in chunks of 2^ChunkBits; index i is chunk i >> ChunkBits.
/// Not thread-safe.
template <class T, unsigned ChunkBits>
class chunked_vector {
  static_assert(std::is_trivially_copyable_v<T>,
                "chunks are raw arrays: no constructors run on growth");

 public:
  static constexpr std::size_t chunk_size = std::size_t{1} << ChunkBits;

  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }

  T& operator[](std::size_t i) noexcept {
    return chunks_[i >> ChunkBits][i & (chunk_size - 1)];
  }
  const T& operator[](std::size_t i) const noexcept {
    return chunks_[i >> ChunkBits][i & (chunk_size - 1)];
  }

  void push_back(const T& value) {
    if ((size_ & (chunk_size - 1)) == 0) add_chunk();
    (*this)[size_++] = value;
  }

  /// Appends `run` so that it does not span two chunks (it starts a new
  /// chunk when the current one has too little room), so [index, index +
  /// run.size()) is contiguous; returns index. A run must fit one chunk.
  std::size_t append_unsplit(std::span<const T> run) {
    const std::size_t room =
        (size_ & (chunk_size - 1)) == 0 ? 0
                                        : chunk_size - (size_ & (chunk_size - 1));
    if (run.size() > room) {
      size_ += room;  // the rest of the chunk stays unused
      add_chunk();
    }
    const std::size_t at = size_;
    if (!run.empty()) std::memcpy(&(*this)[at], run.data(), run.size() * sizeof(T));
    size_ += run.size();
    return at;
  }
  /// The run at [at, at + n), from append_unsplit().
  std::span<const T> run(std::size_t at, std::size_t n) const noexcept {
    if (n == 0) return {};
    return {&(*this)[at], n};
  }

  /// Bytes of memory held.
  std::size_t memory_bytes() const noexcept {
    return chunks_.size() * chunk_size * sizeof(T) +
           chunks_.capacity() * sizeof(chunks_[0]);
  }

 private:
  void add_chunk() {
    // Uninitialised on purpose: every element is written before it is read.
    chunks_.push_back(std::make_unique_for_overwrite<T[]>(chunk_size));
  }

  std::vector<std::unique_ptr<T[]>> chunks_;
  std::size_t size_ = 0;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_CHUNKED_VECTOR_H
