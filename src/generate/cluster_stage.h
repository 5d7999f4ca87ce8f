// hreflang cluster completion as a stage of generate: the run hands it every
// entry it cannot write at once, and it decides when entries may be written
// and writes those it parked once every input is read.
//
// Entries are written as they come until the first one lists hreflang
// alternates. From then on every entry is parked in the entry spool, so that
// once all inputs are read each page of a cluster can be written with the
// whole cluster. What was written before is read back from its temporary
// files into the spool first, since any of those pages may be named later.
// Entries whose duplicate check waits on disk (url_dedup.h) are parked in the
// same spool, clusters or not, and are dropped when they are written if they
// turn out to repeat an earlier URL; except where the first section's stable
// layout takes them at once (set_writers::parks_deferred()), parked by
// fingerprint with their deferral, and this stage decides their fate as the
// layout is read back (fate_of()): one disk pass instead of two.
//
// Not thread-safe; generate's consumer thread owns it.
#ifndef SITEMILL_GENERATE_CLUSTER_STAGE_H
#define SITEMILL_GENERATE_CLUSTER_STAGE_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "detail/url_set.h"
#include "generate/entry_spool.h"
#include "generate/entry_stage.h"
#include "generate/hreflang_clusters.h"
#include "generate/set_writers.h"
#include "generate/url_dedup.h"
#include "sitemill/entry/entry.h"
#include "sitemill/parse/sitemap_parser.h"

namespace sitemill::detail {

class cluster_stage {
 public:
  /// What the stage needs of the run it serves.
  class host {
   public:
    virtual ~host() = default;
    /// A temporary path for the spool, in the output directory.
    virtual std::string temp_path(std::string_view what) = 0;
    /// The sets' writers (one per base URL), numbered as entries' `set`.
    virtual std::uint32_t sets() const = 0;
    virtual set_writers& writers(std::uint32_t set) = 0;
    /// Closes every set's files and waits for their compression.
    virtual status finish_writers() = 0;
    virtual void issue(bool reject, const std::string& input,
                       std::uint64_t line, std::string reason) = 0;
    /// A parked entry the run counted as written is not written after all:
    /// it repeats an earlier URL (`duplicate`), or is too large with its
    /// cluster (issue() said so).
    virtual void not_written(std::uint32_t set, bool duplicate) = 0;
    /// A parked entry read at `line` of input `input` repeats the URL `url`
    /// first read at `first` (url_dedup::first_position(); 0: unknown).
    /// Called after not_written().
    virtual void duplicate(std::uint32_t input, std::uint64_t line,
                           std::string_view url, std::uint64_t first) = 0;
    /// Polled while parked entries are written.
    virtual bool cancelled() = 0;
  };

  /// `sharded`: the run is one shard of several, which cannot complete a
  /// cluster (its pages hash to different shards). All outlive the stage.
  cluster_stage(host& run, entry_builder& builder, url_dedup& dedup,
                document_type type, bool sharded)
      : run_(run),
        builder_(builder),
        dedup_(dedup),
        type_(type),
        sharded_(sharded) {}

  /// True when an entry must be parked rather than written now: it lists
  /// alternates (`has_links`), its duplicate check waits (`deferred`), or
  /// clusters are being completed.
  bool parks(bool has_links, bool deferred) const noexcept {
    return clustering_ || has_links || deferred;
  }
  /// True when an entry whose duplicate check waits may go to its set's
  /// writers with its deferral (set_writers::add_deferred()) rather than to
  /// the spool, if they take it: it lists no alternates, and clusters are
  /// not being completed.
  bool leaves_deferred_to_writers(bool has_links) const noexcept {
    return !clustering_ && !has_links;
  }
  /// What becomes of the entries set `set`'s writers parked with their
  /// deferral once write_parked() resolved the duplicate checks: the
  /// repeats are dropped, as the spool's are. Given to them before they
  /// finish. (Should clusters start first, the writers give those entries
  /// back to the spool: start_clustering().)
  layout_spool::filter& fate_of(std::uint32_t set);

  /// Parks record `i` of `b` (read from `where`), an entry parks() said
  /// must wait, to be written to section `section`; `deferred` is its number
  /// among the entries whose duplicate check waits, or
  /// spooled_entry::not_deferred. The run counts it as written; not_written()
  /// takes that back.
  [[nodiscard]] status park(const record_batch& b, std::size_t i,
                            std::uint32_t section, std::uint64_t deferred,
                            const std::string& where);

  /// True when entries wait, or wait on their duplicate check in the
  /// writers: write_parked() must run.
  bool has_parked() const noexcept {
    return spool_.has_value() || dedup_.spilling();
  }

  /// Once every input is read: every parked entry in order, with its
  /// cluster's links in place, and the issues clusters found at it reported
  /// as it goes by (so they come in input order without being held as text).
  /// `names` names the inputs in issues. Returns early, with no error, when
  /// the run is cancelled.
  [[nodiscard]] status write_parked(const std::vector<std::string>& names);

  /// The URL of an entry append_entry() serialised (urlset or text),
  /// unescaped into `scratch`.
  static std::string_view loc_of(std::string_view xml, std::string& scratch);
  /// Where in such an entry its core fields end: where hreflang links go.
  static std::size_t links_at_of(std::string_view xml);

  /// Bytes of the spool file.
  std::uint64_t spool_bytes() const noexcept {
    return spool_ ? spool_->bytes() : 0;
  }

 private:
  status start_clustering();
  status open_spool();
  status respool(const std::string& path, std::uint32_t set,
                 std::uint32_t section);
  status respool_entry(const parsed_entry& e, std::uint32_t set,
                       std::uint32_t section);
  status join_deferred_pages();
  status follow_with(std::optional<entry_spool>& given_back,
                     std::optional<entry_spool>& parked);
  spooled_entry given_back_entry(std::string_view record, std::uint32_t set,
                                 std::uint32_t section);

  host& run_;
  entry_builder& builder_;
  url_dedup& dedup_;
  document_type type_;
  bool sharded_;
  // Entries waiting to be written: every one once clusters are being
  // completed (clustering_), else those whose duplicate check waits.
  std::optional<entry_spool> spool_;
  bool clustering_ = false;
  // fate_of()'s, for one set: the layout's filter over the records that
  // carry a deferral.
  class fate final : public layout_spool::filter {
   public:
    fate(cluster_stage& stage, std::uint32_t set) : stage_(stage), set_(set) {}
    std::uint64_t most_left_out(std::size_t partition) override;
    status restart(std::size_t partition) override;
    result<bool> leaves_out(std::size_t partition,
                            std::string_view record) override;
    status left_out(std::string_view record) override;
    std::string_view kept(std::string_view record,
                          std::string& scratch) override;

   private:
    cluster_stage& stage_;
    std::uint32_t set_;
  };
  std::vector<std::unique_ptr<fate>> fates_;  // by set, made on demand
  bool resolved_ = false;                     // url_dedup::resolve() done
  hreflang_clusters clusters_;
  // Deferred pages (url_dedup.h) that clusters name, which the in-memory
  // set cannot answer for: at most the clusters' own URLs.
  url_set deferred_pages_;
  std::vector<hreflang_clusters::link> links_;  // scratch
  std::vector<field_warning> scratch_warnings_;
  std::string scratch_xml_;
  std::string loc_;  // scratch: a spooled entry's loc
};

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_CLUSTER_STAGE_H
