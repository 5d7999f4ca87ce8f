// Where the sets of one generate run go, one per base URL: out_dir itself for
// a run with one base, out_dir/<set_directory()> for each of several
// (docs/hosts.md), a shard's directory beside out_dir for a shard run, or a
// caller's sink. Each directory has its own publisher (and lock), every one
// taken before anything is read, and each set's bookkeeping lies beside its
// directory (bookkeeping.h). The sets are published in the order of the
// bases, each atomically; the run's report lists those that were.
//
// A sink cannot take back what it was given, and a run decides only at its
// end whether it publishes (strict, a cancel, a set that needs an index, an
// hreflang cluster that rewrites earlier entries), so a stream's sitemap
// waits in a temporary file of $TMPDIR like any set's, and is written to the
// sink only at the moment a directory's entry would be renamed into place.
//
// Not thread-safe; generate's consumer thread owns it.
#ifndef SITEMILL_PUBLISH_SET_OUTPUTS_H
#define SITEMILL_PUBLISH_SET_OUTPUTS_H

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "detail/scratch_directory.h"
#include "publish/bucket_publisher.h"
#include "sitemill/publish/bucket.h"
#include "sitemill/publish/publish.h"
#include "sitemill/publish/set_assembly.h"
#include "sitemill/result.h"
#include "sitemill/url/url.h"
#include "sitemill/write/sink.h"

namespace sitemill::detail {

/// What the layout needs of a run's options (generate_options' out_dir,
/// manifest_dir, name and output).
struct output_plan {
  std::string out_dir;
  std::string manifest_dir;
  std::string name = "sitemap";
  /// A shard run's directory (shard_manifest.h), used instead of out_dir,
  /// with its own bookkeeping beside it; "" for any other run.
  std::string shard_dir;
  /// The one set goes to this sink instead of a directory; null: publish.
  sink* stream = nullptr;
  /// Each publisher's after_step.
  std::function<void(publish_step)> after_step;
  /// A dry run's directory (an empty one the caller made and removes): each
  /// set is made in scratch_dir/<i>, with its bookkeeping in
  /// scratch_dir/<i>.book, while set_output::dir still names where it would
  /// go; out_dir and manifest_dir are never touched. "" for a real run.
  std::string scratch_dir;
  /// How objects are stored when out_dir is a bucket ("s3://...").
  bucket_options bucket;
};

/// Each base's set goes to a directory of its own, named after it; two bases
/// that would share one (http:// and https:// of a host) are refused rather
/// than have one set replace the other. Errors name `more_base_urls`.
[[nodiscard]] status check_set_directories(const url_normalizer& bases);

/// The temporary files of a set that goes to a stream: in $TMPDIR (or
/// /tmp), named as the publisher names its own (temp_file_name()), removed
/// with this.
class stream_temporaries {
 public:
  stream_temporaries();
  ~stream_temporaries();
  stream_temporaries(const stream_temporaries&) = delete;
  stream_temporaries& operator=(const stream_temporaries&) = delete;
  std::string temp_path(std::string_view name);
  void discard() noexcept;

 private:
  std::string dir_;
  std::string token_ = new_run_token();
  std::uint64_t counter_ = 0;
  bool made_ = false;  // discard() lists dir_ for token_'s names
};

/// One base URL's set: where it goes and what was written to it.
class set_output {
 public:
  std::string base;           ///< the normalised base URL
  std::string dir;            ///< where it is published; "" for a stream
  std::uint64_t written = 0;  ///< URLs written to it
  set_report report;          ///< filled when it is staged

  /// A fresh temporary path for a file named `what`, in its directory (a
  /// stream's: $TMPDIR), removed unless the set is published.
  std::string temp_path(std::string_view what);
  /// Its directory's publisher; null for a stream. For a bucket, the
  /// publisher of a scratch directory the set is staged in.
  publisher* pub() const noexcept { return pub_.get(); }
  /// The bucket it is published to; null unless out_dir is "s3://...".
  bucket_publisher* bucket() const noexcept { return bucket_.get(); }
  void discard_temporaries() noexcept;

 private:
  friend class set_outputs;
  std::unique_ptr<publisher> pub_;
  std::unique_ptr<bucket_publisher> bucket_;
  std::unique_ptr<stream_temporaries> stream_temps_;
  std::function<void(publish_step)> after_step_;
};

class set_outputs {
 public:
  set_outputs() = default;
  set_outputs(const set_outputs&) = delete;
  set_outputs& operator=(const set_outputs&) = delete;
  /// Last opened first: a nested set's directory goes before the one around
  /// it, so each publisher can remove what it created.
  ~set_outputs();

  /// One output per base of `bases`, each directory's lock taken. Errors
  /// about a directory name `out_dir`.
  [[nodiscard]] status open(const output_plan& plan,
                            const url_normalizer& bases);

  std::size_t size() const noexcept { return outs_.size(); }
  set_output& operator[](std::size_t i) { return outs_[i]; }
  const set_output& operator[](std::size_t i) const { return outs_[i]; }
  auto begin() { return outs_.begin(); }
  auto end() { return outs_.end(); }
  /// True when the one set goes to a sink.
  bool streaming() const noexcept { return stream_ != nullptr; }

  /// A temporary path for a file of the whole run (the entry spool, the
  /// duplicate check's partitions): the first set's directory's.
  std::string temp_path(std::string_view what) {
    return outs_.front().temp_path(what);
  }
  void discard_temporaries() noexcept;

  /// Publishes `staged[i]` as the i-th set, in order, skipping the sets no
  /// URL was written to, and appends each published set's report to
  /// `published`. Every set is staged before any is published, so a
  /// failure to stage one publishes none; a failure after the first
  /// publish names the sets already published. `warn` is told of an entry
  /// file no manifest lists, which the set replaces.
  [[nodiscard]] status publish(
      std::vector<assembled_set>& staged, std::vector<set_report>& published,
      const std::function<void(const std::string& path, std::string why)>&
          warn);

  /// The stream's set: `sitemap` copied to the sink, which is then closed.
  [[nodiscard]] status write_stream(const finished_sitemap& sitemap);

 private:
  status open_buckets(const output_plan& plan, const url_normalizer& bases);

  // A bucket's sets are staged here (declared first: removed after outs_).
  scratch_directory scratch_;
  std::deque<set_output> outs_;  // a deque: set_writers hold their output
  sink* stream_ = nullptr;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_PUBLISH_SET_OUTPUTS_H
