// The stable layout's parking (stable_layout.h): one section's entries kept
// on disk by the top bits of their fingerprint, then read back file by file
// of the layout, so that what goes into which file depends on the set alone
// while memory stays flat.
//
// Each entry goes to one of 256 partition files by the next 8 bits of its
// fingerprint, and that partition's tally (URLs, bytes) grows. replay()
// plans the leaves from the 256 tallies and reads each leaf's partitions
// back together, its entries in the order they were added (a merge by
// their sequence numbers), so a file's order is the input's. A partition
// that alone holds more than a file (more than 256 files' worth of URLs in
// the section, about 12.8 million) is parked again one level down by its
// next 8 bits and planned on its own, as often as needed; 8 levels use up
// the fingerprint, and a node still over the limits there (URLs that share
// all 64 bits) is handed over as one leaf over the limits.
//
// A parked entry is its payload and a head of about 13 bytes: its number
// among the entries, as the distance from the partition's previous one;
// its fingerprint; its payload's length and its size, as their difference;
// and how many of the payload's first bytes repeat the spool's reference
// (the first payload's first 255 bytes), which are left out: a section's
// `<url><loc>` elements share their scheme and host, about 35 bytes. (Coding
// the whole payload against the reference, its tags copied, parks a third
// fewer bytes but costs more CPU than the kernel's copies it saves:
// docs/scaling.md.)
//
// Memory: one buffer of 256 slices of `buffer_bytes` (4 MiB at the
// default): while adding, each partition's slice is written out whole when
// full; while replaying, the buffer is split among the leaf's partitions
// being read (a leaf of 8 partitions reads 512 KiB at a time from each).
// A partition parked again is read through a sixteenth of it, and the
// level below takes the rest for its slices: no more memory at any depth.
// Disk: each entry's payload less its shared prefix, and its head, once
// per level. The levels below the top reuse their partition files, read,
// for the next partition parked again: 256 files in all instead of 256 a
// partition (65,536 at 10^8 URLs).
//
// Not thread-safe; generate's consumer thread owns it.
#ifndef SITEMILL_GENERATE_LAYOUT_SPOOL_H
#define SITEMILL_GENERATE_LAYOUT_SPOOL_H

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "detail/buffered_temp_file.h"
#include "generate/stable_layout.h"
#include "sitemill/result.h"

namespace sitemill::detail {

class layout_spool {
 public:
  /// Names a fresh temporary file for `what` (where the run's other
  /// temporaries go).
  using temp_namer = std::function<std::string(std::string_view what)>;
  /// An entry's mark, read from its record's two pieces (add()'s payload
  /// and tail; the tail may be empty): ORed into its leaf's tally
  /// (layout_leaf::tally.marks), which the reader gets before the leaf's
  /// first entry.
  using mark_reader = std::uint8_t (*)(std::string_view payload,
                                       std::string_view tail);
  static constexpr std::size_t default_buffer_bytes = 16 * 1024;

  /// `marks`: null marks every entry 0.
  explicit layout_spool(temp_namer names,
                        std::size_t buffer_bytes = default_buffer_bytes,
                        mark_reader marks = nullptr);
  ~layout_spool();

  /// Parks one entry: `size` is what it adds to its file (the bytes its
  /// `<url>` element takes), `payload` then `tail` the caller's record,
  /// handed back as one by replay() (two pieces so that the caller need not
  /// join them first).
  [[nodiscard]] status add(std::uint64_t fingerprint, std::uint32_t size,
                           std::string_view payload,
                           std::string_view tail = {});

  /// What replay() hands over: each leaf's begin, its entries, its end, in
  /// prefix order. A failed status stops the replay and is returned.
  class reader {
   public:
    virtual ~reader() = default;
    virtual status begin(const layout_leaf& leaf) = 0;
    /// The payload, valid until the next call.
    virtual status entry(std::string_view payload) = 0;
    virtual status end(const layout_leaf& leaf) = 0;
  };
  /// Leaves some of the first level's entries out as they are read back
  /// (generate: entries whose duplicate check waited on disk and turned
  /// out to repeat an earlier URL, url_dedup.h). Its partitions are that
  /// level's: an entry's fingerprint's top 8 bits.
  class filter {
   public:
    virtual ~filter() = default;
    /// At most how many of `partition`'s entries it leaves out.
    virtual std::uint64_t most_left_out(std::size_t partition) = 0;
    /// Starts `partition` again: leaves_out() is then asked about its
    /// entries in the order they were added.
    [[nodiscard]] virtual status restart(std::size_t partition) = 0;
    /// Whether the entry (its record, as the reader gets it) is left out.
    [[nodiscard]] virtual result<bool> leaves_out(std::size_t partition,
                                                  std::string_view record) = 0;
    /// Told of each entry left out as the entries are handed over (not
    /// while a partition is tallied again).
    [[nodiscard]] virtual status left_out(std::string_view record) = 0;
    /// What is handed over, or parked a level down, for an entry kept: the
    /// record, or what the filter makes of it in `scratch` (generate: the
    /// record less what only the filter needed).
    virtual std::string_view kept(std::string_view record,
                                  std::string& scratch) {
      (void)scratch;
      return record;
    }
  };

  /// Reads every entry back, leaf by leaf, once; the files are removed as
  /// they are read. A leaf's `prefix`/`depth` are its path from the root.
  /// With `f`, the entries it leaves out are neither handed over nor
  /// counted in any leaf's tally, so the leaves are those of the entries
  /// kept: a partition that might fit a file without the entries left out
  /// is read once first to tally what is kept.
  [[nodiscard]] status replay(const layout_limits& limits, reader& r,
                              filter* f = nullptr);

  /// Instead of replay(): hands every entry to `r.entry()` in the order
  /// they were added, with no leaves (their files are written elsewhere),
  /// removing the files as they are read.
  [[nodiscard]] status drain_in_order(reader& r);

  std::uint64_t entries() const noexcept { return entries_; }
  /// Bytes written to partition files so far, all levels.
  std::uint64_t disk_bytes() const noexcept { return *disk_bytes_; }

 private:
  struct partition;
  class run;
  struct file_pool;
  // A level below: `borrowed`, when not null, is 256 slices of
  // `buffer_bytes` of the level above's buffer, used instead of one of its
  // own.
  layout_spool(temp_namer names, std::size_t buffer_bytes, mark_reader marks,
               int depth, std::uint64_t prefix,
               std::shared_ptr<std::uint64_t> disk_bytes, std::string reference,
               std::shared_ptr<file_pool> pool, char* borrowed = nullptr);
  // The next 8 bits of a fingerprint below this level's depth.
  std::size_t partition_of(std::uint64_t fingerprint) const noexcept;
  // add() with the entry's number among those the top level was given.
  status add(std::uint64_t fingerprint, std::uint64_t sequence,
             std::uint32_t size, std::string_view payload,
             std::string_view tail);
  // Where this level's partition files come from and go back to once read:
  // the pool below the top, none at the top (its files are removed).
  file_pool* reusing() const noexcept {
    return depth_ > 0 ? pool_.get() : nullptr;
  }
  // Writes out every partition's buffer and frees it.
  status flush();
  // `window`: the bytes of the buffer the runs may use, 0 for all of it.
  status open_runs(std::size_t first, std::size_t end,
                   std::vector<std::unique_ptr<run>>& runs,
                   std::size_t window = 0);
  status merge(std::size_t first, std::size_t end, reader& r);
  // The filter's verdict on the entry `one` read last.
  result<bool> left_out(run& one);
  // What a kept entry's record is handed over as.
  std::string_view kept(std::string_view record) {
    return filter_ != nullptr ? filter_->kept(record, kept_) : record;
  }
  // The tally of partition `p`'s entries the filter keeps (a read of it).
  status tally_kept(std::size_t p);
  status park_below(std::size_t which, layout_spool& below,
                    std::size_t window);

  temp_namer names_;
  std::size_t buffer_bytes_;
  mark_reader marks_;
  int depth_;             // fingerprint bits the levels above used
  std::uint64_t prefix_;  // their value
  std::shared_ptr<std::uint64_t> disk_bytes_;  // shared by the levels
  std::shared_ptr<file_pool> pool_;  // the levels below the top's files
  std::string reference_;  // shared by the levels too
  filter* filter_ = nullptr;  // replay()'s, at the top level
  std::string kept_;  // the filter's scratch
  std::uint64_t entries_ = 0;
  std::array<prefix_tally, 256> tallies_{};
  std::vector<partition> partitions_;
  // 256 slices of buffer_bytes_, one a partition's while adding; split
  // among a leaf's partitions while replaying. Allocated at the first add,
  // or borrowed from the level above.
  std::unique_ptr<char[]> buffer_;
  char* slices_ = nullptr;  // buffer_, or the borrowed bytes
};

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_LAYOUT_SPOOL_H
