// A set of URLs that remembers each in 8 bytes, for duplicate detection over
// inputs far larger than memory could hold as strings.
#ifndef SITEMILL_DETAIL_URL_SET_H
#define SITEMILL_DETAIL_URL_SET_H

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "detail/fingerprint_table.h"

namespace sitemill::detail {

/// Of `urls` URLs spread over 256 shards by hash bits, how many one shard
/// should make room for: its share and three standard deviations of the
/// binomial spread around it, so that about one shard in 700 outgrows it
/// (and then grows as usual).
inline std::size_t shard_share(std::uint64_t urls) noexcept {
  const double share = static_cast<double>(urls) / 256;
  return static_cast<std::size_t>(share + 3 * std::sqrt(share) + 8);
}

/// Remembers 64-bit fingerprints of a 128-bit hash (XXH3-128) of each URL in
/// 256 shards chosen by 8 other bits of the hash, so two different URLs are
/// mistaken for one only when 72 hash bits agree: about 1 in 10^8 for a run
/// of 10 million URLs. Shards grow by 1.5x at 80% load, so memory stays
/// between 10 and 15 bytes per URL and growth never copies more than a
/// 256th of the set at once (each shard is a fingerprint_table).
///
/// Not thread-safe.
class url_set {
 public:
  url_set();

  /// A URL's hash, computed ahead of insert() so that the slot it probes can
  /// be fetched into cache while the caller does other work.
  struct key {
    std::uint64_t fingerprint;
    std::uint8_t shard;
  };
  /// Hashes `url`. Pure: may run on any thread.
  static key hash(std::string_view url) noexcept;
  /// Starts fetching the memory insert(k) will touch first, so a batch of
  /// keys can be prefetched before any is inserted.
  void prefetch(key k) const noexcept;
  /// hash() and prefetch() in one.
  key prepare(std::string_view url) const noexcept {
    key k = hash(url);
    prefetch(k);
    return k;
  }
  /// Adds the URL behind `k`; false when it (or a URL with the same
  /// fingerprint) was there.
  bool insert(key k);
  bool insert(std::string_view url) { return insert(prepare(url)); }
  /// True when the URL behind `url` (or one with the same fingerprint) was
  /// inserted.
  bool contains(std::string_view url) const { return contains(hash(url)); }
  bool contains(key k) const;
  /// Makes room for `urls` URLs in all, spread over the shards as the hash
  /// spreads them (with room for the spread's usual unevenness), so that
  /// adding that many grows no shard: for a caller that can tell the
  /// input's size. Never shrinks.
  void reserve(std::uint64_t urls);
  std::size_t size() const noexcept { return size_; }
  /// Bytes of table memory in use.
  std::size_t memory_bytes() const noexcept;

 private:
  std::array<fingerprint_table<>, 256> shards_;
  std::size_t size_ = 0;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_URL_SET_H
