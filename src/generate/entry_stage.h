// The source -> entry stages of generate, run in parallel.
//
// One thread reads records into batches; worker threads turn each batch
// into serialised entries (normalise, parse fields, escape, format) and
// hash each URL for duplicate detection; the consumer takes the batches back
// in input order. Order is kept, so diagnostics and output are the same as
// a single-threaded run; only the work is spread over the cores.
//
// Why: on the 1M-URL benchmark the per-record work (about 300 ns) is more
// than the whole --fast budget of 333 ns per URL on one thread.
#ifndef SITEMILL_DETAIL_ENTRY_STAGE_H
#define SITEMILL_DETAIL_ENTRY_STAGE_H

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "detail/url_set.h"
#include "generate/sections.h"
#include "sitemill/date/lastmod_reading.h"
#include "sitemill/date/w3c_datetime.h"
#include "sitemill/entry/extensions.h"
#include "sitemill/source/record_reader.h"
#include "sitemill/source/site_source.h"
#include "sitemill/url/url.h"
#include "sitemill/write/writer.h"

namespace sitemill::detail {

/// A run of consecutive records from one input, and what became of them.
struct record_batch {
  std::uint64_t seq = 0;
  std::size_t input = 0;  ///< index into the stage's inputs

  // Filled by the reader: raw field text copied into one arena.
  struct raw_record {
    std::uint64_t line = 0;
    // loc, lastmod, changefreq, priority, problem, skipped, source, section,
    // foreign_xml
    std::uint32_t offset[9] = {};
    std::uint32_t length[9] = {};
    std::uint32_t ext_begin = 0, ext_end = 0;  ///< into `extensions`
  };
  std::string raw;
  std::vector<raw_record> records;
  /// Extension values, their text in `raw`; a record's are
  /// [ext_begin, ext_end) of its raw_record.
  struct raw_extension {
    extension_field_id field = 0;
    std::uint32_t item = 0;
    std::uint32_t offset = 0, length = 0;
  };
  std::vector<raw_extension> extensions;
  /// Input-level notes (unknown header columns), reported after the records.
  std::vector<record_reader::note> notes;
  bool last_of_input = false;
  /// The input's bytes read when the batch was handed on
  /// (record_reader::bytes_read()), for progress.
  std::uint64_t input_bytes = 0;

  // Filled by a worker, one result per record.
  struct result {
    bool written = false;   ///< an entry (else: rejected or skipped)
    bool skipped = false;   ///< skipped on purpose by its source: not a record
    bool filtered = false;  ///< the input's patterns leave its URL out
    /// Another shard judges it (entry_stage::input::shard): neither
    /// written nor reported here.
    bool other_shard = false;
    /// The base (url_normalizer::scope_of()) the URL lies under: the set it
    /// is written to when a run has several.
    std::uint32_t set = 0;
    /// Its section's name (generate_options::sections) in `text`; length
    /// 0: the default section.
    std::uint32_t section_offset = 0, section_length = 0;
    std::uint32_t xml_offset = 0, xml_length = 0;
    url_set::key key{};
    std::optional<w3c_datetime> lastmod;
    extension_mask uses = 0;  ///< extensions in the serialised entry
    std::optional<w3c_datetime> news_published;  ///< of its news:news
    /// Where hreflang links go in the entry's xml (after the core fields),
    /// relative to xml_offset. The entry's own hreflang alternates are not
    /// in its xml: they are [links_begin, links_end) of `links`, for
    /// generate to complete their clusters.
    std::uint32_t links_at = 0;
    std::uint32_t links_begin = 0, links_end = 0;
    std::uint32_t warnings_begin = 0, warnings_end = 0;  ///< into `messages`
    std::uint32_t field_warnings = 0;  ///< of those, invalid fields
    /// The lastmod given could not be read (one of the field warnings).
    bool lastmod_dropped = false;
    /// How a kept lastmod was read; a DST note is also one of the warnings
    /// (not a field warning), zone_assumed is left to the consumer, which
    /// says it once per input.
    lastmod_note lastmod_read = lastmod_note::none;
    std::uint32_t reject_message = 0;  ///< into `messages`, when rejected
  };
  std::string xml;
  std::vector<result> results;
  /// The hreflang alternates entries list, their text in `text`.
  struct link_ref {
    std::uint32_t hreflang_offset, hreflang_length;
    std::uint32_t href_offset, href_length;
  };
  std::vector<link_ref> links;
  std::string text;
  std::string_view text_at(std::uint32_t offset, std::uint32_t length) const {
    return std::string_view(text).substr(offset, length);
  }
  std::vector<std::string> messages;

  /// Index of the field naming a record's source document (see field()).
  static constexpr int source_field = 6;
  /// Index of a record's lastmod text as read (see field()).
  static constexpr int lastmod_field = 1;
  /// Index of a record's section field as read (see field()).
  static constexpr int section_field = 7;
  /// No bounds check: the reader placed every field inside `raw`, and this
  /// is asked several times per record.
  std::string_view field(const raw_record& r, int i) const noexcept {
    return std::string_view(raw.data() + r.offset[i], r.length[i]);
  }
  /// About how many records `bytes` of an input like this batch's hold: the
  /// bytes over what its records took each, a line ending included (for
  /// sizing duplicate detection's set once, url_dedup::expect()). 0 for an
  /// empty batch.
  std::uint64_t records_in(std::uint64_t bytes) const noexcept {
    if (records.empty()) return 0;
    return bytes * records.size() / (raw.size() + records.size());
  }
  void clear();
};

class entry_stage {
 public:
  /// One source of records: a list file, a directory, a sitemap. Opened on
  /// the reader thread when its turn comes, with the stage's stop flag, which
  /// cancel() sets: a reader that can block polls it (source_context::stop).
  struct input {
    std::function<result<std::unique_ptr<record_reader>>(
        const std::atomic<bool>* stop)>
        open;
    /// When set, a record whose URL's path below its base these patterns
    /// do not keep is `filtered` (judged on the workers, in parallel).
    std::shared_ptr<const site_patterns> patterns = nullptr;
    /// When set, each written record's section is picked by these rules
    /// (result::section_offset); otherwise every record is in the default
    /// section.
    std::shared_ptr<const section_rules> sections = nullptr;
    /// When count > 1, only the records of shard `index` (shard_of() of the
    /// normalised URL; of the raw text for a record without one) are
    /// judged; the others are `other_shard`.
    std::uint32_t shard_index = 0, shard_count = 0;
  };

  /// Called on a worker thread with a batch's `seq` just before the worker
  /// processes it; must not call the stage. Tests use it to hold one worker
  /// so batches finish out of order.
  using batch_hook = std::function<void(std::uint64_t seq)>;

  /// Starts reading `inputs` in order with `workers` entry threads (at
  /// least one). Entries are serialised for `type`; lastmods are read by
  /// `dates`, which every worker shares.
  entry_stage(std::vector<input> inputs, url_normalizer normalizer,
              document_type type, unsigned workers,
              batch_hook before_batch = {}, lastmod_reader dates = {});
  ~entry_stage();
  entry_stage(const entry_stage&) = delete;
  entry_stage& operator=(const entry_stage&) = delete;

  /// The next batch in input order; nullptr when every input has been read,
  /// reading failed (see error()) or the stage was cancelled. While it
  /// waits, `cancelled` (when given) is asked every 100 ms or so, on the
  /// calling thread; when it says yes the stage is cancelled, so a reader
  /// blocked on an input that sends nothing cannot hold the caller.
  record_batch* next(const std::function<bool()>& cancelled = {});
  /// Gives a batch from next() back for reuse.
  void release(record_batch* batch);
  /// Stops reading; next() returns nullptr soon after.
  void cancel();
  /// Why reading stopped early; empty when it did not.
  std::string error() const;

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_ENTRY_STAGE_H
