// sitemill: input records from URL lists (the "source" end of
// source -> entry -> writer -> sink).
//
// A record is the raw text of one input entry, with the line it started on.
// Readers never judge URLs or field values (that is the entry stage's job);
// they only split the input and report lines they cannot split.
#ifndef SITEMILL_RECORD_READER_H
#define SITEMILL_RECORD_READER_H

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/entry/extensions.h"
#include "sitemill/result.h"

namespace sitemill {

/// Input list formats, chosen by file extension or --input-format.
enum class input_format : std::uint8_t {
  txt,    ///< one URL per line; blank lines and lines starting with '#' skipped
  tsv,    ///< tab-separated, header row naming columns (no quoting, as IANA TSV)
  csv,    ///< RFC 4180: header row, "quoted" fields with "" and embedded newlines
  jsonl,  ///< one JSON object per line (also .ndjson); blank lines skipped
};

/// The format named by `name` ("txt", "tsv", "csv", "jsonl", "ndjson").
std::optional<input_format> parse_input_format(std::string_view name) noexcept;

/// The format a path's extension implies (".txt", ".tsv", ".csv", ".jsonl",
/// ".ndjson", each optionally followed by ".gz"); std::nullopt otherwise.
std::optional<input_format> format_from_path(std::string_view path) noexcept;

/// One input entry. Views stay valid until the next call to next().
/// A field that is absent (no such column, key missing, JSON null) is empty.
struct input_record {
  std::uint64_t line = 0;        ///< 1-based line where the record starts
  std::string_view loc;          ///< untrimmed text of the loc field
  std::string_view lastmod;
  std::string_view changefreq;
  std::string_view priority;
  /// Non-empty when the record could not be split (an unterminated quote,
  /// invalid JSON, a missing loc column): the reason, and the fields are empty.
  std::string_view problem;
  /// Non-empty: this page was skipped on purpose (noindex, a canonical link
  /// to another URL, robots.txt), the reason; not a record. `loc` still names
  /// the page, so the report can say which.
  std::string_view skipped;
  /// Non-empty when one reader reads several documents (a sitemap index and
  /// its children): the document this record came from, for diagnostics.
  std::string_view source;
  /// hreflang alternates, images, video, news as the input gives them,
  /// unjudged (the entry stage judges them), items numbered from 0 with
  /// their values adjacent (sitemill/entry/extensions.h).
  std::span<const extension_value> extensions;
};

/// Column names recognised in a header row (and by --columns); case-insensitive.
enum class column : std::uint8_t { loc, lastmod, changefreq, priority, ignored };

/// How to read an input.
struct reader_options {
  input_format format = input_format::txt;
  /// For tsv/csv: the columns in order, when the input has no header row
  /// (--columns loc,lastmod). Empty: the first row is the header.
  std::vector<column> columns;
  /// Polled while reading: once it is true, next() returns false within
  /// about 100 ms, even on a pipe or FIFO that sends nothing or an input that
  /// never ends, and error() says the read was cancelled. Not owned; nullptr:
  /// read to the end.
  const std::atomic<bool>* stop = nullptr;
};

/// Reads records from a file or stdin, streaming in fixed-size blocks (memory
/// does not grow with the input). A UTF-8 BOM, CRLF line endings and a last
/// line without a newline are accepted; gzip input is detected by its magic
/// bytes and decompressed on the fly.
///
/// Not thread-safe; one reader per input.
class record_reader {
 public:
  virtual ~record_reader() = default;

  /// Opens `path` ("-" is stdin, named "<stdin>" in messages). Fails when the
  /// file cannot be opened ("cannot open urls.tsv: No such file or directory")
  /// or when `options.columns` (tsv, csv) has no loc or names a column twice.
  static result<std::unique_ptr<record_reader>> open(const std::string& path,
                                                     const reader_options& options);

  /// Reads the next record into `out`. Returns true for a record (which may
  /// carry a `problem`), false at the end of the input. An I/O error, broken
  /// gzip data or a header without a loc column ends reading: see error().
  /// A line longer than 1 MiB is one record with a problem, not read.
  [[nodiscard]] virtual bool next(input_record& out) = 0;

  /// Empty while reading went fine; otherwise the reason reading stopped early,
  /// as "FILE:LINE: reason" ("urls.tsv:1: header has no loc column"). An
  /// incomplete last line before a read error is not returned as a record.
  virtual const std::string& error() const noexcept = 0;

  /// Warnings about the input as a whole (an unknown header column), each
  /// with its line; collected, not fatal. The message names neither the file
  /// nor the line: the caller adds them.
  struct note {
    std::uint64_t line;
    std::string message;
  };
  virtual const std::vector<note>& notes() const noexcept = 0;
};

}  // namespace sitemill

#endif  // SITEMILL_RECORD_READER_H
