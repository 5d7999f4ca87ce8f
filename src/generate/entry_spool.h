// Serialised entries parked on disk, for generate runs whose entries cannot
// be written in reading order: an hreflang cluster is only complete once the
// last page naming one of its members has been read, and duplicate detection
// past its memory budget decides only at the end (url_dedup.h; the stable
// layout's first section parks those entries itself, set_writers.h). Entries go
// to a temporary file in the output directory, in order, and are read back
// in the same order, so memory stays flat however many entries wait. The
// file is written and read in 1 MiB blocks that bypass the page cache where
// the file system allows it (detail/spill_file.h): only this run reads it.
//
// A record is small because there are 10^8 of them past the memory budget
// (detail/record_coding.h): its length, then varints (the line and the
// deferred number as differences from the previous record's, sizes, small
// indexes), the fingerprint and dates as they are, the loc, and the xml less
// the bytes it shares with the first record's (`<url><loc>https://host/`).
// 81 bytes an entry of the scale benchmark's 10^8 URLs, where a fixed
// 48-byte head made it 147 (8.0 GB against 14.7 on disk, written and read;
// measured before the stable layout parked such entries itself, as
// `--layout sequential` still waits them here).
//
// Not thread-safe; generate's consumer thread owns it.
#ifndef SITEMILL_GENERATE_ENTRY_SPOOL_H
#define SITEMILL_GENERATE_ENTRY_SPOOL_H

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "detail/spill_file.h"
#include "generate/hreflang_clusters.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/entry/extensions.h"
#include "sitemill/result.h"

namespace sitemill::detail {

/// One entry as it waits.
struct spooled_entry {
  /// Normalised, to find its cluster; may be left empty (and is then read
  /// back empty) while no cluster needs it, since it is in `xml` too.
  std::string_view loc;
  std::string_view xml;        ///< the <url> element without its hreflang links
  std::uint32_t links_at = 0;  ///< where in `xml` the links go
  std::optional<w3c_datetime> lastmod;
  extension_mask uses = 0;  ///< extensions in `xml`
  std::optional<w3c_datetime> news_published;
  /// Where it was read (the caller's input index and line), for issues
  /// about it found once the clusters are known; no_input when unknown.
  static constexpr std::uint32_t no_input = 0xffffffff;
  std::uint32_t input = no_input;
  std::uint64_t line = 0;
  /// The set it is written to (a run with several base URLs has several).
  std::uint32_t set = 0;
  /// Its section (section_table's number; 0: the default section).
  std::uint32_t section = 0;
  /// Its URL's fingerprint (url_set::key), which places it under the
  /// stable layout (set_writers::add).
  std::uint64_t fingerprint = 0;
  /// Its number among the records duplicate detection deferred
  /// (url_dedup.h), or not_deferred: a deferred entry is written only if
  /// it turns out not to repeat an earlier one.
  static constexpr std::uint64_t not_deferred = ~std::uint64_t{0};
  std::uint64_t deferred = not_deferred;
  /// A deferred entry's own hreflang alternates, which join their clusters
  /// only once it is known to be written. Empty for the others (theirs
  /// joined when they were spooled).
  std::span<const hreflang_clusters::link> links;
};

class entry_spool {
 public:
  /// Creates `path` (which must not exist); removed by the destructor.
  static result<entry_spool> create(std::string path);
  entry_spool(entry_spool&& other) noexcept;
  entry_spool& operator=(entry_spool&&) = delete;
  ~entry_spool();

  [[nodiscard]] status add(const spooled_entry& e);
  /// Switches from adding to reading, from the first entry.
  [[nodiscard]] status rewind();
  /// The next entry, views valid until the next call; std::nullopt at the
  /// end. A read error ends reading: see error().
  std::optional<spooled_entry> next();
  const std::string& error() const noexcept { return error_; }
  std::uint64_t entries() const noexcept { return entries_; }
  /// Bytes written to the file.
  std::uint64_t bytes() const noexcept { return file_.size(); }

 private:
  explicit entry_spool(spill_file file);
  status fail(const status& why);
  status corrupt();
  bool read(void* data, std::size_t size, bool first = false);
  bool read_links(std::uint32_t count);

  spill_file file_;
  std::uint64_t entries_ = 0;
  // The first record's xml, at most 255 bytes: what the others leave out.
  std::string reference_;
  // The previous record's line and deferred number, written and read.
  std::uint64_t last_line_ = 0, last_deferred_ = 0;
  std::uint64_t read_line_ = 0, read_deferred_ = 0;
  std::string buffer_;  // a record read whole, when it is not viewed
  std::string xml_;     // next()'s xml, its shared prefix put back
  std::string loc_;     // next()'s loc, when links follow its record
  std::string link_bytes_;
  std::vector<hreflang_clusters::link> links_;  // next()'s, into link_bytes_
  std::string error_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_ENTRY_SPOOL_H
