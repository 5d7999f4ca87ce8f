#include "detail/url_set.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sitemill::detail {
namespace {

constexpr std::size_t initial_slots = 64;

// Maps a fingerprint to a slot with a multiply-shift instead of a modulo, so
// table sizes need not be powers of two (which is what lets shards grow by
// 1.5x instead of 2x).
__extension__ typedef unsigned __int128
    u128;  // GCC and Clang on 64-bit targets
inline std::size_t home(std::uint64_t fp, std::size_t n) noexcept {
  return static_cast<std::size_t>((static_cast<u128>(fp) * n) >> 64);
}

}  // namespace

url_set::url_set() {
  for (auto& s : shards_) s.slots.assign(initial_slots, 0);
}

bool url_set::insert_into(std::vector<std::uint64_t>& slots, std::uint64_t fp) {
  const std::size_t n = slots.size();
  for (std::size_t i = home(fp, n);; i = (i + 1 == n) ? 0 : i + 1) {
    if (slots[i] == fp) return false;
    if (slots[i] == 0) {
      slots[i] = fp;
      return true;
    }
  }
}

void url_set::grow(shard& s) {
  std::vector<std::uint64_t> bigger(s.slots.size() + s.slots.size() / 2, 0);
  for (std::uint64_t fp : s.slots)
    if (fp != 0) insert_into(bigger, fp);
  s.slots.swap(bigger);
}

url_set::key url_set::hash(std::string_view url) noexcept {
  const XXH128_hash_t h = XXH3_128bits(url.data(), url.size());
  // 0 marks empty slots, so a zero fingerprint is stored as 1.
  return {h.low64 == 0 ? 1 : h.low64,
          static_cast<std::uint8_t>(h.high64 >> 56)};
}

void url_set::prefetch(key k) const noexcept {
  // A million URLs make a table far larger than the cache: without this the
  // probe in insert() is a cache miss on nearly every URL.
  const shard& s = shards_[k.shard];
  const std::size_t n = s.slots.size();
  const std::size_t i = home(k.fingerprint, n);
  __builtin_prefetch(s.slots.data() + i);
  // A probe runs on past the home slot (about 3 slots at the usual load),
  // often into the next cache line.
  __builtin_prefetch(s.slots.data() + (i + 7 < n ? i + 7 : n - 1));
}

bool url_set::insert(key k) {
  const std::uint64_t fp = k.fingerprint;
  shard& s = shards_[k.shard];
  // Linear probing stays short below 80% load; grow before crossing it.
  if ((s.used + 1) * 5 > s.slots.size() * 4) grow(s);
  if (!insert_into(s.slots, fp)) return false;
  ++s.used;
  ++size_;
  return true;
}

std::size_t url_set::memory_bytes() const noexcept {
  std::size_t n = 0;
  for (const auto& s : shards_) n += s.slots.capacity() * sizeof(std::uint64_t);
  return n;
}

}  // namespace sitemill::detail
