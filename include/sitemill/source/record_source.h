// sitemill: sources, the places generate() reads records from.
//
// A source is a recipe for a record_reader: generate() validates every
// source before it writes anything, then opens them one after another, in
// the order of generate_options::sources, and deduplicates across all of
// them (the first record of a URL wins). A new kind of source (a crawler,
// access logs) implements record_source and plugs in without any change to
// generate() or to the other sources:
//
//   std::vector<std::shared_ptr<const sitemill::record_source>> sources = {
//       sitemill::list_source("urls.txt"),
//       sitemill::directory_source(site),      // site_source.h
//       sitemill::sitemap_source(old_sitemap), // sitemap_source.h
//   };
//
// Thread-safety: a record_source is immutable; generate() calls validate()
// on the calling thread and open() on its reader thread.
#ifndef SITEMILL_SOURCE_RECORD_SOURCE_H
#define SITEMILL_SOURCE_RECORD_SOURCE_H

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/result.h"
#include "sitemill/source/record_reader.h"

namespace sitemill {

class state_db;

/// What a run offers its sources.
struct source_context {
  /// The set's base directory URL, normalised ("https://example.com/a/").
  /// Borrowed: valid for the duration of the call it is passed to.
  std::string_view base_url;
  /// The run's other bases (generate_options::more_base_urls), normalised,
  /// each published as a set of its own. A source that knows each record's
  /// host (a vhost log) may give URLs under any of them; relative records
  /// resolve against base_url. Borrowed, as base_url.
  std::vector<std::string_view> more_base_urls;
  /// The run keeps a state database (generate_options::state_path).
  bool has_state = false;
  /// In open(): the run's state database, its run begun; nullptr without
  /// one, and always nullptr in validate(). Not owned.
  state_db* state = nullptr;
  /// In open(): set when the run is cancelled (a signal, an embedder's
  /// observer). A reader whose input can block or never end (a pipe, a
  /// FIFO, a fetch) polls it and ends within about 100 ms; nullptr in
  /// validate(). Not owned; valid while the reader lives.
  const std::atomic<bool>* stop = nullptr;
};

/// One place records come from.
class record_source {
 public:
  virtual ~record_source() = default;

  /// How reports name this source's records: a path, "<stdin>", a URL.
  virtual std::string name() const = 0;

  /// What can be known to be wrong before anything is written (an unknown
  /// format, an unreadable file, a policy that needs a state database the
  /// run lacks), so that a bad source fails the run before it starts.
  [[nodiscard]] virtual status validate(
      const source_context& /*context*/) const {
    return {};
  }

  /// True when the source applies the run's include/exclude patterns
  /// itself (the directory source, to file paths, so that it never reads a
  /// file the patterns leave out); generate then does not apply
  /// generate_options::url_patterns to its records.
  virtual bool applies_patterns() const noexcept { return false; }

  /// The input's size in bytes as stored, when it is known before reading
  /// (a regular file), for progress against its reader's bytes_read();
  /// std::nullopt when it is not (stdin, a pipe, a directory, a fetch).
  virtual std::optional<std::uint64_t> size() const { return std::nullopt; }

  /// Opens the records; called at most once per run, when this source's
  /// turn comes. A failure here ends the run (nothing is published).
  virtual result<std::unique_ptr<record_reader>> open(
      const source_context& context) const = 0;
};

/// A URL list: a file, or "-" for stdin, in `format` (default: the format
/// the path's extension names, and txt for stdin). `columns` names the
/// tsv/csv columns in order when the input has no header row, or by header
/// name (reader_options::columns, named_columns; parse_column_list() reads
/// them from text). `delimiter`: a csv's, 0 to sniff it from the first row
/// (reader_options::delimiter).
std::shared_ptr<const record_source> list_source(
    std::string path, std::optional<input_format> format = std::nullopt,
    column_list columns = {}, char delimiter = 0);

}  // namespace sitemill

#endif  // SITEMILL_SOURCE_RECORD_SOURCE_H
