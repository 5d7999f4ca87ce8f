// sitemill: atomic publishing of a sitemap set into an output directory.
//
// The guarantee: at every instant, the directory holds either the complete
// previous set or the complete new one, whatever fails or kills the run.
//
// How: files are written under temporary dot-names and fsynced. Children
// are named after their content (sitemap-3-<hash>.xml.gz), so a new child
// never overwrites a file the old set uses; only the entry file (the index,
// or a lone sitemap) has a fixed name, and renaming it into place is the one
// atomic commit point. A journal written before the first rename tells the
// next run whether that commit happened, so it can finish the cleanup or undo
// the renamed children. Old files are removed only when a manifest shows
// sitemill wrote them.
//
// Bookkeeping lives in dot-files in the directory: .sitemill.lock (flock, so
// two runs cannot interleave), .sitemill-manifest.json (the published set),
// .sitemill-journal.json (a publish in progress) and .sitemill-tmp-* files.
#ifndef SITEMILL_PUBLISH_H
#define SITEMILL_PUBLISH_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/publish/atomic_file.h"
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
};

/// A finished temporary file waiting to be published under `file.path`.
struct staged_file {
  std::string temp_path;  ///< full path of the .sitemill-tmp-* file
  published_file file;
};

/// Points in publish() where a test may stop the process, to prove that a
/// crash at each of them leaves a complete set behind.
enum class publish_step : std::uint8_t {
  journal_written,
  children_renamed,
  entry_renamed,
  manifest_written,
  old_removed
};

/// Holds the directory lock for one run and publishes into it.
class publisher {
 public:
  /// Creates `dir` if needed, takes the lock (failing at once, with a clear
  /// message, if another run holds it), and repairs what a killed run left:
  /// temporary files are removed and an unfinished publish of the set named
  /// `set` is completed or undone. `set` is a plain name ("sitemap").
  static result<std::unique_ptr<publisher>> open(std::string dir,
                                                 std::string set = "sitemap");
  ~publisher();

  /// The published set as the manifest records it (empty on a first run).
  const std::vector<published_file>& current() const noexcept {
    return current_;
  }
  /// The entry the current set is submitted by; "" when none.
  const std::string& current_entry() const noexcept { return current_entry_; }

  /// A fresh temporary path in the directory for a file to be named `name`.
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

  /// Test hook: called after each step of publish(); a test forks and ends
  /// the child here to simulate a crash.
  std::function<void(publish_step)> after_step;

  const std::string& dir() const noexcept { return dir_; }

 private:
  publisher(std::string dir, std::string set, int lock_fd);
  status recover();

  std::string dir_;
  std::string manifest_name_;
  std::string journal_name_;
  int lock_fd_ = -1;
  int dir_fd_ = -1;
  std::uint64_t temp_counter_ = 0;
  std::vector<std::string> temporaries_;
  std::vector<published_file> current_;
  std::string current_entry_;
};

/// Names of the bookkeeping files (all start with ".sitemill"). The lock is
/// per directory; manifest and journal are per set name, so several sets
/// (--name products, --name blog) can share one directory.
inline constexpr std::string_view lock_file_name = ".sitemill.lock";
/// ".sitemill-manifest-<set>.json": the published set called `set`.
std::string manifest_file_name(std::string_view set);
/// ".sitemill-journal-<set>.json": a publish of `set` in progress.
std::string journal_file_name(std::string_view set);

/// XXH3-64 of a file's bytes; an error when it cannot be read.
result<std::uint64_t> file_digest_of(const std::string& path);

}  // namespace sitemill

#endif  // SITEMILL_PUBLISH_H
