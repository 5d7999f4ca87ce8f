// sitemill: atomic publishing of a sitemap set into an output directory.
//
// The guarantee: at every instant, the directory holds either the complete
// previous set or the complete new one, whatever fails or kills the run.
// docs/publishing.md states it moment by moment, with what a kill leaves
// visible and what the next run removes.
//
// How: files are written under temporary dot-names and fsynced. Children
// are named after their content (sitemap-3-<hash>.xml.gz), so a new child
// never overwrites a file the old set uses; only the entry file (the index,
// or a lone sitemap) has a fixed name, and renaming it into place is the one
// atomic commit point. New children keep their temporary names until just
// before it and are then renamed in one tight loop, so that only a kill in
// that loop can leave them beside the old set. A journal written before the
// first rename tells the next run whether the commit happened, so it can
// finish the cleanup or remove the renamed children. Old files are removed
// only when a manifest shows sitemill wrote them.
//
// Bookkeeping lives outside the directory (bookkeeping.h: by default
// .sitemill/<name>/ beside it): the lock (flock, so two runs cannot
// interleave; it exists only while a run holds it or after a run was
// killed), manifest-<set>.json (the published set) and journal-<set>.json
// (a publish in progress). Temporary files (temp_file_name() in
// atomic_file.h: .sitemill-tmp-<run token>-*) are made in the directory
// itself, and in the bookkeeping directory for its own files. Each run
// records its token in the lock file before it makes a temporary file, and
// a later run removes leftovers only of the tokens recorded there: a file of
// the user's that merely starts with .sitemill-tmp- is never touched.
#ifndef SITEMILL_PUBLISH_H
#define SITEMILL_PUBLISH_H

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "sitemill/atomic_file.h"
#include "sitemill/publish/bookkeeping.h"
#include "sitemill/result.h"
#include "sitemill/write/writer.h"

namespace sitemill {

/// One file of a published set, as the manifest records it.
struct published_file {
  std::string path;  ///< name inside the output directory
  document_type type = document_type::urlset;
  std::size_t urls = 0;      ///< entries in it
  std::uint64_t bytes = 0;   ///< uncompressed size
  std::uint64_t digest = 0;  ///< XXH3-64 of the bytes on disk
  /// For a sitemap of the set's own (not a news sitemap, index or page):
  /// the section it holds, "" for the default one. None for other files
  /// and in manifests written before sections were recorded, where
  /// `stats` falls back to reading the section from the file's name.
  std::optional<std::string> section = std::nullopt;
};

/// One set a run published: where it is served and what it holds. What
/// generate_report::sets lists (a run with more_base_urls publishes one per
/// base that has URLs), and what announce_set() announces.
struct set_report {
  std::string base_url;               ///< normalised, ending in '/'
  std::string out_dir;                ///< where its files are
  std::string entry;                  ///< the file to submit, in out_dir
  std::string entry_url;              ///< sitemaps_url + entry
  bool dated = false;                 ///< see generate_report::dated
  std::uint64_t written = 0;          ///< URLs written to it
  std::vector<published_file> files;  ///< entry included, paths in out_dir
  /// The URL its files are served at, normalised, ending in '/': base_url
  /// unless generate_options::sitemaps_url says otherwise. Empty in a
  /// report filled without it: announcing then takes base_url.
  std::string sitemaps_url;
};

/// A finished temporary file waiting to be published under `file.path`.
struct staged_file {
  std::string temp_path;  ///< full path, from publisher::temp_path
  published_file file;
  /// A page people open by a fixed name (the HTML view's NAME.html), not
  /// the entry: its bytes may change under its name. It is renamed just
  /// after the commit, so until then the old one keeps pointing at the old
  /// set's files; a run killed between the two renames has it renamed by
  /// the next run (the journal names its temporary file). A file of that
  /// name that the current set does not list is never replaced: publish()
  /// fails first.
  bool fixed_name = false;
};

/// Points of a run where a crash test may stop the process, to prove that a
/// crash at each of them leaves a complete set behind (docs/publishing.md).
/// In the order a run reaches them; several are reached once per file.
enum class publish_step : std::uint8_t {
  temporary_created,  ///< temp_path() named a file about to be written
  batch_read,         ///< generate: a batch of records was taken (reading)
  sitemaps_finished,  ///< generate: every sitemap written and compressed
  journal_written,    ///< the new manifest staged, the journal durable
  child_renamed,      ///< one new child renamed to its final name
  children_renamed,   ///< every new child in place and durable
  entry_renamed,      ///< the commit point
  manifest_written,
  old_removed,
  /// A set published to a bucket (bucket.h): one request to the bucket
  /// answered (or failed), at every request of the run.
  bucket_request,
};

/// The step's name as SITEMILL_TEST_KILL_AT spells it ("child_renamed").
std::string_view to_string(publish_step step) noexcept;

namespace detail {
struct publisher_testing;
}  // namespace detail

/// Holds the directory lock for one run and publishes into it.
class publisher {
 public:
  /// Creates `dir` and the bookkeeping directory if needed (`bookkeeping_dir`,
  /// or default_bookkeeping_dir(dir) when empty), takes the lock (failing at
  /// once, with a clear message, if another run holds it), records this
  /// run's token in it, and repairs what a killed run left: the temporary
  /// files of the runs the lock file records are removed and an unfinished
  /// publish of the set named `set` is completed or undone. Bookkeeping an
  /// earlier build left in `dir` is taken over first (bookkeeping.h). `set`
  /// is a plain name ("sitemap").
  static result<std::unique_ptr<publisher>> open(
      std::string dir, std::string set = "sitemap",
      std::string bookkeeping_dir = {});
  /// Removes this run's temporary files and the lock file, and the
  /// directories open() created (the bookkeeping directory's too) if they
  /// are empty again: a run that published nothing leaves no trace.
  ~publisher();

  /// The published set as the manifest records it (empty on a first run).
  const std::vector<published_file>& current() const noexcept {
    return current_;
  }
  /// The entry the current set is submitted by; "" when none.
  const std::string& current_entry() const noexcept { return current_entry_; }

  /// A fresh temporary path in the directory for a file to be named `name`
  /// (temp_file_name() with this run's token), removed on failure.
  std::string temp_path(std::string_view name);

  /// Publishes `files` (all of them, `entry` among them) as the new set,
  /// replacing the current one atomically, and removes the files of the old
  /// set that the new one does not contain. Files whose bytes are unchanged
  /// are not touched. On failure before the commit the old set stays.
  [[nodiscard]] status publish(std::vector<staged_file> files,
                               const std::string& entry);

  /// Removes every temporary file this run created (on failure paths; the
  /// destructor does it too).
  void discard_temporaries() noexcept;

  const std::string& dir() const noexcept { return dir_; }
  /// Where the lock, manifest and journal are.
  const std::string& bookkeeping_dir() const noexcept { return book_dir_; }

 private:
  // Crash tests stop the process after a step (src/publish/testing.h).
  friend struct detail::publisher_testing;
  std::function<void(publish_step)> after_step_;

  publisher(std::string dir, std::string book_dir, std::string set);
  status make_directories(const std::string& path);
  status take_lock();
  status take_legacy_lock(std::vector<std::string>& dead_runs);
  status adopt_legacy_files();
  status record_tokens(const std::vector<std::string>& tokens);
  status recover(const std::vector<std::string>& dead_runs);
  void undo(const std::vector<std::string>& renamed) noexcept;

  std::string dir_;
  std::string book_dir_;
  std::string lock_path_;
  std::string token_ = new_run_token();
  std::vector<std::string> created_dirs_;  // by open(), outermost first
  // False while the lock file records a killed run whose leftovers may
  // remain: then it must outlive this run, or the proof would be lost.
  bool lock_removable_ = false;
  std::string set_;
  std::string manifest_name_;
  std::string journal_name_;
  int lock_fd_ = -1;
  int dir_fd_ = -1;
  int book_fd_ = -1;
  // An earlier build's lock in dir_, held from open() until its dead runs'
  // leftovers are gone; then removed.
  int legacy_lock_fd_ = -1;
  std::uint64_t temp_counter_ = 0;
  // Whether a temporary may remain: their names carry token_, so that
  // discard_temporaries() finds them by listing the two directories, where
  // a list of them grew with every file a run made (a stable layout's
  // partition files: 65,536 names past 12.8 million URLs).
  bool temporaries_ = false;
  // Temporaries the next run needs (a journal's late files, once the
  // commit is done): discard_temporaries() leaves them. Names, not paths.
  std::unordered_set<std::string> kept_temporaries_;
  std::vector<published_file> current_;
  std::string current_entry_;
};

/// A published set as its manifest records it, read without taking the lock
/// (stats and diff only look): it may describe a set another run is
/// replacing at that moment.
struct published_manifest {
  std::string entry;  ///< the file the set is submitted by
  std::vector<published_file> files;
};
/// Reads the manifest file at `path`; an error naming the file when it
/// cannot be read or is not a sitemill manifest.
result<published_manifest> read_manifest(const std::string& path);
/// A manifest's text, read from `where` (a file, an object: named in the
/// error when it is not a sitemill manifest).
result<published_manifest> parse_manifest(std::string_view text,
                                          const std::string& where);

/// XXH3-64 of a file's bytes; an error when it cannot be read.
result<std::uint64_t> file_digest_of(const std::string& path);

}  // namespace sitemill

#endif  // SITEMILL_PUBLISH_H
