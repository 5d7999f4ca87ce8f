#include "detail/url_set.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill::detail {

url_set::url_set() = default;

url_set::key url_set::hash(std::string_view url) noexcept {
  const XXH128_hash_t h = XXH3_128bits(url.data(), url.size());
  // 0 marks empty slots, so a zero fingerprint is stored as 1.
  return {h.low64 == 0 ? 1 : h.low64,
          static_cast<std::uint8_t>(h.high64 >> 56)};
}

void url_set::prefetch(key k) const noexcept {
  // A million URLs make a table far larger than the cache: without this the
  // probe in insert() is a cache miss on nearly every URL.
  shards_[k.shard].prefetch(k.fingerprint);
}

bool url_set::insert(key k) {
  if (!shards_[k.shard].insert(k.fingerprint).second) return false;
  ++size_;
  return true;
}

bool url_set::contains(key k) const {
  return shards_[k.shard].find(k.fingerprint) != fingerprint_table<>::npos;
}

void url_set::reserve(std::uint64_t urls) {
  for (auto& s : shards_) s.reserve(shard_share(urls));
}

std::size_t url_set::memory_bytes() const noexcept {
  std::size_t n = 0;
  for (const auto& s : shards_) n += s.memory_bytes();
  return n;
}

}  // namespace sitemill::detail
