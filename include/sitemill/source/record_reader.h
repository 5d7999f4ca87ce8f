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
  txt,  ///< one URL per line; blank lines and lines starting with '#' skipped
  tsv,  ///< tab-separated, header row naming columns (no quoting, as IANA TSV)
  csv,  ///< RFC 4180: header row, "quoted" fields with "" and embedded
        ///< newlines; cells separated by ',' or another delimiter
        ///< (reader_options::delimiter)
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
  std::uint64_t line = 0;  ///< 1-based line where the record starts
  std::string_view loc;    ///< untrimmed text of the loc field
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
  /// The section the URL goes to (generate_options::sections), from a
  /// `section` column or key: untrimmed and unjudged, empty for none.
  std::string_view section;
  /// hreflang alternates, images, video, news as the input gives them,
  /// unjudged (the entry stage judges them), items numbered from 0 with
  /// their values adjacent (sitemill/entry/extensions.h).
  std::span<const extension_value> extensions;
  /// Elements of namespaces without a schema, as the sitemap parser
  /// re-serialised them (parsed_entry::foreign_xml): only the sitemap source
  /// fills it, and no reader may put input text here, since it is written
  /// into the <url> unescaped (url_entry::foreign_xml).
  std::string_view foreign_xml;
};

/// What one tsv/csv column feeds: a core field, one field of one extension
/// item, or nothing. Made from a header cell or a --columns name by
/// parse_column(); docs/inputs.md lists the names.
struct column {
  enum class role : std::uint8_t {
    loc,
    lastmod,
    changefreq,
    priority,
    section,    ///< the URL's section (generate_options::sections)
    extension,  ///< `field` of the item `item`
    ignored,
  };
  role what = role::ignored;
  /// For role::extension: the field (sitemill/entry/extensions.h) ...
  extension_field_id field = 0;
  /// ... and which item of its kind, from 0: "image2" is item 1. Items of an
  /// alternate:LANG column are told apart by `hreflang` instead.
  std::uint32_t item = 0;
  /// For an alternate:LANG column (field @href): LANG as written, given to
  /// the link as its hreflang. Empty otherwise.
  std::string hreflang;

  column() = default;
  explicit column(role r) : what(r) {}
  bool operator==(const column&) const = default;

  static const column loc, lastmod, changefreq, priority, section, ignored;
};
inline const column column::loc{column::role::loc};
inline const column column::lastmod{column::role::lastmod};
inline const column column::changefreq{column::role::changefreq};
inline const column column::priority{column::role::priority};
inline const column column::section{column::role::section};
inline const column column::ignored{column::role::ignored};

/// The column a header cell or a --columns name means, matched
/// case-insensitively after trimming spaces, tabs and CRs: "loc",
/// "lastmod", "changefreq", "priority", "section"; or an extension field as
/// KIND[N]:KEY, KIND one of alternate, image, video, news (also each
/// namespace's prefix and name: xhtml, hreflang), N the item from 1 (default
/// 1), KEY a key of the extension table ("caption", "publication.name",
/// "price@currency") or the unique last part of a nested one ("name" for
/// news:publication.name); "image" and "image2" alone for image:loc; and
/// "alternate:LANG" for the href of the link whose hreflang is LANG
/// ("alternate:de", "alternate:x-default"). std::nullopt for any other name.
std::optional<column> parse_column(std::string_view name);

/// The name parse_column() reads back as `c`, in its usual spelling
/// ("image2:caption", "alternate:de"), for messages.
std::string column_name(const column& c);

/// A column read by the name the input gives it: the header cell `name`
/// of a tsv/csv (or the top-level key `name` of a JSONL line) is read as
/// `what` (--columns loc=url reads the header cell "url" as loc).
struct named_column {
  /// As the input spells it; matched ASCII case-insensitively after
  /// trimming spaces, tabs and CRs (a JSONL key: exactly).
  std::string name;
  column what;
  bool operator==(const named_column&) const = default;
};

/// The columns a --columns list names: either in order, for a file without
/// a header row, or by name, for a file whose header row names them in its
/// own words. At most one of the two is non-empty.
struct column_list {
  /// loc,lastmod,-,image: the i-th cell of every row is in_order[i] ("-"
  /// or nothing skips a cell: column::ignored).
  std::vector<column> in_order;
  /// loc=url,lastmod=updated_at,image2:caption=alt: COLUMN=NAME pairs,
  /// COLUMN a parse_column() name, NAME a header cell or JSONL key.
  std::vector<named_column> by_name;
  bool empty() const noexcept { return in_order.empty() && by_name.empty(); }
};

/// Reads a --columns list: names separated by commas, either all COLUMN
/// (in order) or all COLUMN=NAME (by name). Fails on an unknown COLUMN
/// ("unknown column \"title\"..."), an empty NAME, a NAME given twice, or
/// the two forms mixed. Whether the list has a loc and names no column twice
/// is record_reader::open()'s check, as for lists built in code.
result<column_list> parse_column_list(std::string_view text);

/// How to read an input.
struct reader_options {
  input_format format = input_format::txt;
  /// For tsv/csv: the columns in order, when the input has no header row
  /// (--columns loc,lastmod,image). Empty: the first row is the header.
  /// A first row that still looks like a header is skipped with a note:
  /// its loc cell is a usual header word (loc, url, link, href, uri,
  /// location, address, page, permalink) or not URL-like (neither
  /// "SCHEME://" nor "/" in front) while the next row's loc cell is.
  std::vector<column> columns;
  /// For tsv/csv with a header row (then `columns` must be empty): header
  /// cells read by name, whatever their order; the header's other cells
  /// are ignored, without a note. A name the header lacks ends reading
  /// with an error naming the header's cells. For jsonl: top-level keys
  /// read as the column they map to (a core field instead of the key of
  /// that name; an extension field's text as a tsv/csv cell would give it,
  /// its items after the line's own); other unknown top-level keys are then
  /// ignored without a note.
  std::vector<named_column> named_columns;
  /// For csv: the character between cells, such as ';' (what spreadsheets
  /// write where the decimal mark is a comma) or '\t'. 0: sniffed from the
  /// first row (the header, or the first record under `columns`): of ','
  /// ';' tab '|', the one found most often outside double quotes, a tie
  /// going to the earlier in that order, so a row with none of them is
  /// comma-separated. A tsv is always tab-separated (another delimiter is
  /// refused: read it as csv). A quote or a line break is refused.
  char delimiter = 0;
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
  /// or when `options.columns` or `options.named_columns` (tsv, csv) has no
  /// loc or names a column twice (a repeatable extension field, such as
  /// video:tag, may come again), or when both are given.
  static result<std::unique_ptr<record_reader>> open(
      const std::string& path, const reader_options& options);

  /// Reads the next record into `out`. Returns true for a record (which may
  /// carry a `problem`), false at the end of the input. An I/O error, broken
  /// gzip data, a header without a loc column or without a name of
  /// `named_columns` ends reading: see error(). A line longer than 1 MiB is
  /// one record with a problem, not read. Under `columns` (in order) the
  /// first call may read two rows, to tell a header row from data.
  [[nodiscard]] virtual bool next(input_record& out) = 0;

  /// Empty while reading went fine; otherwise the reason reading stopped early,
  /// as "FILE:LINE: reason" ("urls.tsv:1: header has no loc column"). An
  /// incomplete last line before a read error is not returned as a record.
  virtual const std::string& error() const noexcept = 0;

  /// Bytes of the input read so far, as stored (compressed bytes for gzip):
  /// with record_source::size(), how far reading has come. 0 from a reader
  /// that cannot tell.
  virtual std::uint64_t bytes_read() const noexcept { return 0; }

  /// Warnings about the input as a whole (an unknown header column or JSON
  /// key, once per input; a first row skipped as a header row under
  /// `columns`) or about one record's values (a JSON value of the
  /// wrong type, dropped), each with its line; collected, not fatal. The
  /// message names neither the file nor the line: the caller adds them.
  struct note {
    std::uint64_t line;
    std::string message;
    /// A value of a record was dropped: an invalid field, as the entry
    /// stage's warnings are (generate's `strict` refuses the run).
    bool dropped_value = false;
    /// Non-empty when the note is about one document or file of several
    /// (a page of a site directory): its name, as input_record::source.
    std::string source = {};
  };
  virtual const std::vector<note>& notes() const noexcept = 0;
};

}  // namespace sitemill

#endif  // SITEMILL_RECORD_READER_H
