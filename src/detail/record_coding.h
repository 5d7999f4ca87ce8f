// sitemill internals: how the temporary records generate parks on disk (the
// entry spool, the stable layout's partitions) keep their numbers and text
// small. Such a file is written and read once each, at gigabytes a run past
// the memory budget, so its bytes are its cost.
//
// - Varints: 7 bits a byte, low first (LEB128), so that the small numbers
//   records are made of (sizes, distances, indexes) take a byte or two.
// - Zigzag: a signed difference as an unsigned varint (0, -1, 1, -2 ...).
// - A shared prefix: a record leaves out the bytes its text shares with a
//   reference text (the file's first record's), since a section's entries
//   start alike (`<url><loc>https://host/`).
#ifndef SITEMILL_DETAIL_RECORD_CODING_H
#define SITEMILL_DETAIL_RECORD_CODING_H

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace sitemill::detail {

/// The most bytes put_varint() writes.
inline constexpr std::size_t max_varint = 10;

/// Writes `v` at `p`; returns the byte after it.
inline char* put_varint(char* p, std::uint64_t v) noexcept {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

/// Reads a varint from [p, end) and moves `p` past it. False when the
/// bytes end first or hold more than 64 bits (a cut or changed record).
inline bool get_varint(const char*& p, const char* end,
                       std::uint64_t& v) noexcept {
  v = 0;
  for (int shift = 0; p < end && shift < 64; shift += 7) {
    const auto byte = static_cast<unsigned char>(*p++);
    v |= std::uint64_t{byte & 0x7fu} << shift;
    if (byte < 0x80) return true;
  }
  return false;
}

inline std::uint64_t zigzag(std::int64_t v) noexcept {
  return (static_cast<std::uint64_t>(v) << 1) ^
         static_cast<std::uint64_t>(v >> 63);
}
inline std::int64_t unzigzag(std::uint64_t v) noexcept {
  return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
}

/// The bytes `a` and `b` start with in common, at most `limit`.
inline std::size_t common_prefix(std::string_view a, std::string_view b,
                                 std::size_t limit) noexcept {
  const std::size_t n = std::min({a.size(), b.size(), limit});
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) {
      const std::uint64_t d = x ^ y;
      if constexpr (std::endian::native == std::endian::little)
        return i + static_cast<std::size_t>(std::countr_zero(d)) / 8;
      else
        return i + static_cast<std::size_t>(std::countl_zero(d)) / 8;
    }
  }
  while (i < n && a[i] == b[i]) ++i;
  return i;
}

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_RECORD_CODING_H
