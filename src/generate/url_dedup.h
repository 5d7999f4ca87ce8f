// Exact duplicate detection for generate within a memory budget.
//
// generate keeps the first record of each URL. Up to the budget, the URLs
// seen are remembered in memory (url_set: about 12 bytes each) and every
// record is judged at once. Once the set would outgrow the budget it is
// frozen: a URL found in it is still a repeat at once, but any other URL is
// *deferred*: its fingerprint and its deferred number go to one of 256
// partition files on disk (chosen by the fingerprint's top 8 bits, the
// bits the stable layout parks entries by first, so that a layout
// partition's repeats are one dedup partition's), and the caller parks its
// entry (generate's entry spool, or the stable layout) instead of writing it. After the last
// record, resolve() reads each partition back on its own and finds the
// deferred records that repeat an earlier one; the caller then writes its
// parked entries in order, asking is_repeat() of each deferred number.
//
// Why this shape: the output stays byte for byte what an unbounded run
// writes (same first records, same order, same files), whatever the
// budget, so a budget can never change a published set; and memory holds
// at most the budget (the frozen set, or one partition's table while
// resolving) plus 256 small write buffers (2 MiB) and a 512-byte read-ahead
// per partition that had repeats. A partition too large for the budget is
// split on disk into 16 by 4 more hash bits, as often as needed, and the
// repeats of its parts merged back into one run, so that no more than about
// 300 files are open at once however large the input. Each
// partition file is written in deferred order, so the repeats it yields
// come out sorted and the caller's ordered questions are a merge of those
// sorted runs.
//
// Disk: 16 bytes per deferred URL (key and number), plus 8 per
// repeat among them; the caller's parked entries are its own.
//
// With positions (where each URL was first read, an opaque number of the
// caller's: generate's input and line), every repeat can say which record
// it repeats: the in-memory set keeps a position per URL (8 more bytes
// each, within the budget), a deferred URL's goes to disk with it (24
// bytes), and a repeat among them to its run with its first's (16 bytes).
//
// Not thread-safe; generate's consumer thread owns it.
#ifndef SITEMILL_GENERATE_URL_DEDUP_H
#define SITEMILL_GENERATE_URL_DEDUP_H

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "detail/buffered_temp_file.h"
#include "detail/fingerprint_table.h"
#include "detail/url_set.h"
#include "sitemill/result.h"

namespace sitemill::detail {

class url_dedup {
 public:
  /// Names a fresh temporary file for `what` (publisher::temp_path): the
  /// partition and run files live where the run's other temporaries do.
  using temp_namer = std::function<std::string(std::string_view what)>;

  /// `budget_bytes`: the memory the in-memory set and the resolution may
  /// hold. 0 defers every URL but the first (tests); a partition's table
  /// may take 64 KiB however small the budget.
  url_dedup(std::size_t budget_bytes, temp_namer temp_path,
            bool positions = false);
  ~url_dedup();
  url_dedup(const url_dedup&) = delete;
  url_dedup& operator=(const url_dedup&) = delete;

  enum class verdict : std::uint8_t {
    first,     ///< a URL not seen before: write it now
    repeat,    ///< seen before: drop it
    deferred,  ///< unknown until resolve(): park it as number deferred()-1
  };

  /// Starts fetching what add(k) will touch.
  void prefetch(url_set::key k) const noexcept {
    if (placed_)
      (*placed_)[k.shard].prefetch(k.fingerprint);
    else
      set_.prefetch(k);
  }
  /// Sizes the in-memory set for `urls` URLs at once, for a caller that can
  /// estimate them (generate: the input's size over its first records'),
  /// so that it is not rehashed a dozen times as it fills. Within three
  /// quarters of the budget, so it never freezes the set early; an
  /// estimate too low only leaves the growing to do, as without it. The
  /// verdicts do not depend on it.
  void expect(std::uint64_t urls);
  /// Judges the URL behind `k`, read at `position` (kept only with
  /// positions). A write error of a partition file is an error (the run
  /// cannot go on exactly).
  result<verdict> add(url_set::key k, std::uint64_t position = 0);
  /// With positions, after add() said repeat or is_repeat() true: where the
  /// URL's first record was read. 0 otherwise.
  std::uint64_t first_position() const noexcept { return first_position_; }

  /// True once the in-memory set is frozen and records are deferred.
  bool spilling() const noexcept { return spilling_; }
  /// Records deferred so far.
  std::uint64_t deferred() const noexcept { return deferred_; }
  /// URLs judged first in memory (before the freeze).
  std::uint64_t in_memory() const noexcept { return in_memory_; }
  /// True when `url` was judged first in memory. Deferred URLs are not
  /// remembered here: ask the caller's parked entries.
  bool contains_in_memory(std::string_view url) const {
    if (!placed_) return set_.contains(url);
    const url_set::key k = url_set::hash(url);
    return (*placed_)[k.shard].find(k.fingerprint) != placed_table::npos;
  }

  /// After the last add(): finds the deferred records that repeat an earlier
  /// deferred one, a partition per thread on as many threads as there are
  /// cores (at most 4), which share the budget. `keep_set`: keep the
  /// in-memory set (for contains_in_memory()); otherwise it is freed first,
  /// so that resolving may use the whole budget.
  [[nodiscard]] status resolve(bool keep_set);
  /// After resolve(): whether deferred record `number` repeats an earlier
  /// one. Ask in increasing order of number; rewind() starts over.
  [[nodiscard]] result<bool> is_repeat(std::uint64_t number);
  [[nodiscard]] status rewind();
  /// Deferred records found to be repeats (after resolve()).
  std::uint64_t repeats() const noexcept { return repeats_; }

  /// After resolve(), for a reader that goes partition by partition (the
  /// stable layout, whose first level is the same 256 partitions): how
  /// many of `partition`'s deferred records repeat an earlier one.
  std::uint64_t repeats_in(std::size_t partition) const noexcept;
  /// Whether deferred record `number`, of `partition` (partition_of() its
  /// fingerprint), repeats an earlier one. Ask a partition's numbers in
  /// increasing order after restart(partition). This and is_repeat() read
  /// the same files: rewind() before asking is_repeat() again.
  [[nodiscard]] result<bool> is_repeat_in(std::size_t partition,
                                          std::uint64_t number);
  [[nodiscard]] status restart(std::size_t partition);
  /// Bytes of partition and run files written so far.
  std::uint64_t disk_bytes() const noexcept { return disk_bytes_; }
  /// Bytes of memory held now (the set and the resolution's table).
  std::size_t memory_bytes() const noexcept;

  /// The partition a deferred URL goes to: its fingerprint's top 8 bits
  /// (url_set::key::fingerprint), as the stable layout's first level.
  static std::size_t partition_of(std::uint64_t fingerprint) noexcept {
    return static_cast<std::size_t>(fingerprint >> 56);
  }
  /// What a partition tells its URLs apart by: the 56 fingerprint bits the
  /// partition does not imply, and the shard's 8, so that a deferred URL is
  /// judged on the same 72 hash bits as one in memory. Never 0 (the
  /// tables' empty slot).
  static std::uint64_t partition_key(url_set::key k) noexcept {
    const std::uint64_t key = (k.fingerprint << 8) | k.shard;
    return key == 0 ? 1 : key;
  }

 private:
  using file = buffered_temp_file;  // records, written then read
  struct cursor;  // a run of repeats being read
  result<std::unique_ptr<file>> create(std::string_view what);
  result<std::unique_ptr<file>> resolve_partition(std::unique_ptr<file> part,
                                                  int depth);
  result<std::unique_ptr<file>> split(file& part, int depth);
  result<std::unique_ptr<file>> merge(std::vector<std::unique_ptr<file>>& runs);
  status refill(cursor& c);
  auto heap_order() const;

  using placed_table = fingerprint_table<std::uint64_t>;
  std::size_t set_size() const noexcept;
  std::size_t set_memory() const noexcept;

  bool positions_;
  std::size_t record_bytes_;  // of a partition file's record
  std::size_t run_width_;     // numbers per repeat in a run: 1, or 2
  std::uint64_t first_position_ = 0;
  std::size_t budget_;
  std::size_t table_budget_;
  temp_namer temp_path_;
  url_set set_;  // without positions
  // With positions: the set, with the position of each URL's first record.
  std::unique_ptr<std::array<placed_table, 256>> placed_;
  std::size_t placed_size_ = 0;
  bool spilling_ = false;
  std::uint64_t in_memory_ = 0;
  std::uint64_t deferred_ = 0;
  // Counted by the resolving threads too.
  std::atomic<std::uint64_t> repeats_{0};
  std::atomic<std::uint64_t> disk_bytes_{0};
  std::uint64_t next_check_ = 0;  // set_.size() at which to weigh the set
  // The resolving threads' tables, while they live.
  std::atomic<std::size_t> table_bytes_{0};
  std::size_t thread_table_budget_ = 0;  // each resolving thread's share
  std::mutex create_mu_;  // temp_path_ and files_made_, for those threads
  std::vector<std::unique_ptr<file>> partitions_;  // 256, made on first use
  std::vector<std::unique_ptr<file>> runs_;        // sorted repeat numbers
  std::vector<cursor> cursors_;                    // one per run
  // By partition, after resolve(): the cursor is_repeat_in() reads its run
  // (in runs_) with; none without a run.
  std::vector<cursor> partition_cursors_;
  std::vector<std::size_t> heap_;  // cursors with numbers left, a min-heap
  std::uint64_t files_made_ = 0;                   // for unique names
};

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_URL_DEDUP_H
