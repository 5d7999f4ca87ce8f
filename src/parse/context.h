// sitemill internals: what the readers of one document (XML, text) share:
// the handler, the options, the summary being filled, and the counts that
// span the whole document (entries, the lastmod values seen).
#ifndef SITEMILL_PARSE_CONTEXT_H
#define SITEMILL_PARSE_CONTEXT_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "parse/codes.h"
#include "sitemill/parse/sitemap_parser.h"

namespace sitemill::detail {

/// Where something was written: 1-based line and column (0 when unknown).
struct text_pos {
  std::uint64_t line = 0;
  std::uint64_t column = 0;
};

/// Not thread-safe; one per document.
class doc_context {
 public:
  doc_context(parse_handler& handler, const parse_options& options,
              parse_summary& summary, std::int64_t now_unix) noexcept
      : handler_(handler),
        options_(options),
        summary_(summary),
        now_unix_(now_unix),
        now_year_(year_of(now_unix)) {}

  /// Sends a diagnostic with the code's fixed severity, and counts it.
  void report(doc_code code, text_pos at, std::string message);

  /// Records the kind and tells the handler, once.
  void set_kind(document_kind kind);
  document_kind kind() const noexcept { return summary_.kind; }

  /// Counts one entry element (a <url>, a text line, an <item>), delivered
  /// or not; the first beyond the protocol's 50,000 is reported.
  void count_entry(text_pos at);
  std::uint64_t entries_seen() const noexcept { return entries_seen_; }

  /// Numbers `entry` and hands it to the handler.
  void deliver(parsed_entry& entry);

  /// A second reading of the document (libxml2's, after the scanner handed
  /// over) starts by telling again what the first told: its first `reports`
  /// diagnostics and `entries` entries are counted as usual but not sent,
  /// and the kind is not told again when `kind_told`.
  void mute(std::uint64_t reports, std::uint64_t entries, bool kind_told);
  /// From now on nothing reaches the handler: the first reading, once it
  /// has handed over.
  void silence() noexcept { silent_ = true; }
  /// Diagnostics reported so far (muted ones included).
  std::uint64_t reports() const noexcept { return reports_; }
  /// The kind was told to the handler.
  bool kind_told() const noexcept { return kind_told_; }

  /// Remembers an entry's lastmod text ("" when it has none) for the
  /// all-the-same check at the end.
  void note_lastmod(std::string_view text);
  /// Reports lastmod-all-same when every entry of a large enough document
  /// carries one identical value (stamped at generation time, docs/protocol.md
  /// 3).
  void finish_lastmod_check();

  /// The scheme and authority of the last <loc> that was a plain http(s)
  /// URL, and where its host ends: a loc that starts with the same bytes
  /// and goes on with '/', '?', '#' or ends has the same host, and is not
  /// read again (value_checks.cpp).
  struct loc_origin {
    std::string origin;
    std::size_t host_end = 0;
  };
  loc_origin& last_loc_origin() noexcept { return loc_origin_; }

  /// Value checks and the XSD verdict are wanted (parse_options).
  bool checks() const noexcept { return options_.schema_checks; }
  const parse_options& options() const noexcept { return options_; }
  parse_summary& summary() noexcept { return summary_; }
  /// The clock at the start of the parse, for lastmod-future.
  std::int64_t now_unix() const noexcept { return now_unix_; }
  /// Its year (UTC), a first cheap test.
  int now_year() const noexcept { return now_year_; }

 private:
  parse_handler& handler_;
  const parse_options& options_;
  parse_summary& summary_;
  static int year_of(std::int64_t unix_seconds) noexcept;

  std::int64_t now_unix_;
  int now_year_;
  loc_origin loc_origin_;
  bool kind_told_ = false;
  bool silent_ = false;
  std::uint64_t reports_ = 0;
  std::uint64_t mute_reports_ = 0;
  std::uint64_t mute_entries_ = 0;
  std::uint64_t entries_seen_ = 0;
  std::uint64_t lastmod_count_ = 0;
  bool lastmod_all_same_ = true;
  std::string first_lastmod_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_PARSE_CONTEXT_H
