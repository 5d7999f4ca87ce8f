// sitemill internals: the one table of URL fingerprints, behind generate's
// duplicate detection (url_set.h) and check's duplicate-url rule
// (check/context.h).
#ifndef SITEMILL_DETAIL_FINGERPRINT_TABLE_H
#define SITEMILL_DETAIL_FINGERPRINT_TABLE_H

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace sitemill::detail {

/// Maps a fingerprint to one of `n` slots with a multiply-shift instead of a
/// modulo, so table sizes need not be powers of two (which is what lets a
/// table grow by 1.5x instead of 2x).
inline std::size_t home_slot(std::uint64_t fp, std::size_t n) noexcept {
  __extension__ typedef unsigned __int128 u128;  // GCC and Clang, 64-bit
  return static_cast<std::size_t>((static_cast<u128>(fp) * n) >> 64);
}

/// Nonzero 64-bit fingerprints (0 marks an empty slot; callers store a zero
/// hash as 1), each with a `Payload` unless it is void, in one array probed
/// linearly. Grows by 1.5x before 80% load, so the array stays 53% to 80%
/// full: 10 to 15 bytes per fingerprint, plus the payloads' share. The
/// payloads live in a second array so that a probe reads fingerprints only.
///
/// Not thread-safe.
template <class Payload = void>
class fingerprint_table {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  /// `initial_slots` (at least 2) are allocated at once, so prefetch() never
  /// meets an empty array.
  explicit fingerprint_table(std::size_t initial_slots = 64)
      : slots_(initial_slots, 0) {
    if constexpr (has_payload) payloads_.resize(initial_slots);
  }

  /// Starts fetching the memory a probe for `fp` reads first.
  void prefetch(std::uint64_t fp) const noexcept {
    const std::size_t n = slots_.size();
    const std::size_t i = home_slot(fp, n);
    __builtin_prefetch(slots_.data() + i);
    // A probe runs on past the home slot (about 3 slots at the usual load),
    // often into the next cache line.
    __builtin_prefetch(slots_.data() + (i + 7 < n ? i + 7 : n - 1));
  }

  /// The slot that holds `fp`, or npos.
  std::size_t find(std::uint64_t fp) const noexcept {
    const std::size_t n = slots_.size();
    for (std::size_t i = home_slot(fp, n);; i = (i + 1 == n) ? 0 : i + 1) {
      if (slots_[i] == fp) return i;
      if (slots_[i] == 0) return npos;
    }
  }

  /// Adds `fp` unless it is there; the slot that holds it, and whether it
  /// was added (a new slot's payload is value-initialised).
  std::pair<std::size_t, bool> insert(std::uint64_t fp) {
    // Linear probing stays short below 80% load; grow before crossing it.
    if ((used_ + 1) * 5 > slots_.size() * 4) grow();
    const std::pair<std::size_t, bool> r = place(slots_, fp);
    used_ += r.second;
    return r;
  }

  /// Makes room for `entries` fingerprints in all, so that inserting up to
  /// that many never grows the array again: one rehash now instead of one
  /// per 1.5x. Does nothing when the array is already that large.
  void reserve(std::size_t entries) {
    const std::size_t wanted = entries + entries / 4 + 2;  // under 80% load
    if (wanted > slots_.size()) resize(wanted);
  }

  /// The payload of slot `i` (from find() or insert()).
  template <class P = Payload>
  requires(!std::is_void_v<P>) P& payload(std::size_t i) noexcept {
    return payloads_[i];
  }

  std::size_t size() const noexcept { return used_; }
  /// Bytes of array memory in use.
  std::size_t memory_bytes() const noexcept {
    std::size_t n = slots_.capacity() * sizeof(std::uint64_t);
    if constexpr (has_payload) n += payloads_.capacity() * sizeof(Payload);
    return n;
  }

 private:
  static constexpr bool has_payload = !std::is_void_v<Payload>;
  struct none {};
  using payload_array = std::conditional_t<
      has_payload, std::vector<std::conditional_t<has_payload, Payload, char>>,
      none>;

  static std::pair<std::size_t, bool> place(std::vector<std::uint64_t>& slots,
                                            std::uint64_t fp) {
    const std::size_t n = slots.size();
    for (std::size_t i = home_slot(fp, n);; i = (i + 1 == n) ? 0 : i + 1) {
      if (slots[i] == fp) return {i, false};
      if (slots[i] == 0) {
        slots[i] = fp;
        return {i, true};
      }
    }
  }

  // Rare (a few dozen times per table), so kept out of insert()'s code.
  [[gnu::noinline]] void grow() { resize(slots_.size() + slots_.size() / 2); }

  void resize(std::size_t slots) {
    std::vector<std::uint64_t> bigger(slots, 0);
    payload_array moved{};
    if constexpr (has_payload) moved.resize(bigger.size());
    for (std::size_t j = 0; j < slots_.size(); ++j) {
      if (slots_[j] == 0) continue;
      const std::size_t i = place(bigger, slots_[j]).first;
      if constexpr (has_payload) moved[i] = std::move(payloads_[j]);
    }
    slots_.swap(bigger);
    if constexpr (has_payload) payloads_.swap(moved);
  }

  std::vector<std::uint64_t> slots_;
  [[no_unique_address]] payload_array payloads_;
  std::size_t used_ = 0;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_FINGERPRINT_TABLE_H
