#include "url/clean_url.h"

#include <array>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <tmmintrin.h>  // SSSE3, used where the CPU has it
#endif

namespace sitemill::detail {
namespace {

[[maybe_unused]] path_class scalar_scan(std::string_view s) noexcept {
  char previous = 0;
  bool high = false;
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) {
      high = true;
    } else if (!kept_bytes[static_cast<unsigned char>(c)]) {
      return path_class::other;
    }
    if (c == '.' && previous == '/') return path_class::other;
    previous = c;
  }
  return high ? path_class::non_ascii : path_class::clean;
}

#if defined(__SSE2__)
// Printable ASCII (0x21-0x7E) minus " # % < > [ \ ] ^ ` { | }: 16 bytes
// tested with a dozen compares instead of 16 table loads.
inline int dirty_mask(__m128i v) noexcept {
  auto eq = [&](char c) { return _mm_cmpeq_epi8(v, _mm_set1_epi8(c)); };
  // Signed compares: bytes >= 0x80 are negative, so they fail "> 0x20".
  const __m128i printable =
      _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(0x20)),
                    _mm_cmplt_epi8(v, _mm_set1_epi8(0x7F)));
  __m128i bad = _mm_or_si128(_mm_or_si128(eq('"'), eq('#')),
                             _mm_or_si128(eq('%'), eq('<')));
  bad = _mm_or_si128(bad, _mm_or_si128(eq('>'), eq('`')));
  bad = _mm_or_si128(bad, eq('^'));
  // [ \ ] is 0x5B-0x5D and { | } is 0x7B-0x7D: v & ~0x20 folds both onto
  // 0x5B-0x5D, where no other printable byte lands ('^' and '~' fold to
  // 0x5E).
  const __m128i folded = _mm_andnot_si128(_mm_set1_epi8(0x20), v);
  const __m128i above = _mm_cmpgt_epi8(folded, _mm_set1_epi8(0x5A));
  const __m128i below = _mm_cmplt_epi8(folded, _mm_set1_epi8(0x5E));
  bad = _mm_or_si128(bad, _mm_and_si128(above, below));
  return _mm_movemask_epi8(_mm_andnot_si128(bad, printable)) ^ 0xFFFF;
}

// Checks 16 bytes of which only the lanes in `live` are new (the lanes
// below them hold the bytes that precede); adds its non-ASCII lanes to
// `high`.
template <int (*Dirty)(__m128i)>
[[gnu::always_inline]] inline bool block_is_clean(__m128i v, unsigned live,
                                                  unsigned carry,
                                                  unsigned& high) noexcept {
  // The top bit of each byte is the non-ASCII mask.
  const auto non_ascii = static_cast<unsigned>(_mm_movemask_epi8(v));
  if ((static_cast<unsigned>(Dirty(v)) & ~non_ascii & live) != 0) return false;
  high |= non_ascii & live;
  const auto slashes = static_cast<unsigned>(
      _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('/'))));
  const auto dots = static_cast<unsigned>(
      _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('.'))));
  return ((((slashes << 1) | carry) & dots & live) == 0);
}
#endif

#if defined(__SSE2__)
// The bytes of `s` in 16-byte blocks, each judged by Dirty (the lanes
// holding a byte a path does not keep as it is, bytes >= 0x80 aside): the
// one loop behind both instruction sets. Each block's lanes below the new
// ones hold the bytes before them, so "/." across a boundary is seen
// without carrying state.
template <int (*Dirty)(__m128i)>
[[gnu::always_inline]] inline path_class scan_blocks(
    std::string_view s) noexcept {
  const char* p = s.data();
  const std::size_t size = s.size();
  unsigned high = 0;   // any byte >= 0x80 so far
  unsigned carry = 0;  // 1 when the block before ended with '/'
  bool clean = true;
  std::size_t at = 0;
  for (; clean && at + 16 <= size; at += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    clean = block_is_clean<Dirty>(v, 0xFFFF, carry, high);
    carry = p[at + 15] == '/' ? 1 : 0;
  }
  if (clean && at < size) {
    const std::size_t rest = size - at;
    if (size >= 16) {
      // The last 16 bytes, overlapping what was checked: no copy needed.
      const __m128i v =
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + size - 16));
      clean =
          block_is_clean<Dirty>(v, 0xFFFFu << (16 - rest) & 0xFFFF, 0, high);
    } else {
      // Shorter than a block: pad with a clean byte that is neither '/' nor
      // '.'.
      char tail[16];
      std::memset(tail, 'a', sizeof tail);
      std::memcpy(tail, p, size);
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(tail));
      clean = block_is_clean<Dirty>(v, 0xFFFF, 0, high);
    }
  }
  if (!clean) return path_class::other;
  return high != 0 ? path_class::non_ascii : path_class::clean;
}

// SSSE3's byte shuffle looks up both nibbles of 16 bytes at once: a byte is
// dirty when the bit of its high nibble (0-7) is set in its low nibble's
// entry. Bytes >= 0x80 have no bit (the caller tells them apart).
[[gnu::target("ssse3")]] int dirty_mask_ssse3(__m128i v) noexcept {
  // By low nibble, the high nibbles (bit n: 0xn_) of the dirty bytes:
  // 0x00-0x1F all, then 0x20 space " # %, < >, [ \ ] ^, `, { | } and DEL.
  const __m128i by_low =
      _mm_setr_epi8(0x47, 0x03, 0x07, 0x07, 0x03, 0x07, 0x03, 0x03, 0x03, 0x03,
                    0x03, static_cast<char>(0xA3), static_cast<char>(0xAB),
                    static_cast<char>(0xA3), 0x2B, static_cast<char>(0x83));
  const __m128i by_high = _mm_setr_epi8(
      1, 2, 4, 8, 16, 32, 64, static_cast<char>(0x80), 0, 0, 0, 0, 0, 0, 0, 0);
  const __m128i nibble = _mm_set1_epi8(0x0F);
  const __m128i low = _mm_and_si128(v, nibble);
  const __m128i high = _mm_and_si128(_mm_srli_epi16(v, 4), nibble);
  const __m128i hit = _mm_and_si128(_mm_shuffle_epi8(by_low, low),
                                    _mm_shuffle_epi8(by_high, high));
  return _mm_movemask_epi8(_mm_cmpeq_epi8(hit, _mm_setzero_si128())) ^ 0xFFFF;
}

int dirty_mask_sse2(__m128i v) noexcept { return dirty_mask(v); }

bool has_ssse3() noexcept {
  static const bool yes = __builtin_cpu_supports("ssse3");
  return yes;
}
#endif

}  // namespace

path_class classify_path_and_query_baseline(std::string_view s) noexcept {
#if defined(__SSE2__)
  return scan_blocks<dirty_mask_sse2>(s);
#else
  return scalar_scan(s);
#endif
}

#if defined(__SSE2__)
[[gnu::target("ssse3")]] path_class classify_path_and_query_ssse3(
    std::string_view s) noexcept {
  return scan_blocks<dirty_mask_ssse3>(s);
}
#endif

path_class classify_path_and_query(std::string_view s) noexcept {
#if defined(__SSE2__)
  // About half the instructions per block where the CPU has SSSE3 (every
  // x86-64 CPU since 2006; the build's baseline is plain x86-64).
  if (has_ssse3()) return classify_path_and_query_ssse3(s);
  return scan_blocks<dirty_mask_sse2>(s);
#else
  return scalar_scan(s);
#endif
}

bool ssse3_available() noexcept {
#if defined(__SSE2__)
  return has_ssse3();
#else
  return false;
#endif
}

}  // namespace sitemill::detail
