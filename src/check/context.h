// sitemill internals: the rules of checking that need more than one document
// shows on its own (docs/protocol.md checklist 31, 37, 38), and the bookkeeping
// that keeps a document's report small however broken the document is.
#ifndef SITEMILL_CHECK_CONTEXT_H
#define SITEMILL_CHECK_CONTEXT_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "check/hreflang_set.h"
#include "detail/fingerprint_table.h"
#include "sitemill/check/check.h"
#include "sitemill/diagnostic.h"
#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {

/// A code the checker adds to the parser's (src/parse/codes.h), with its
/// one severity and where docs/protocol.md states the rule.
/// docs/diagnostics-context.md lists them for users; a test keeps the two in
/// step, and keeps the names apart from the parser's.
struct context_code_info {
  std::string_view name;
  severity level;
  std::string_view section;
};

/// Every code check() adds, in the order of docs/diagnostics-context.md.
std::span<const context_code_info> all_context_codes() noexcept;

/// A document's diagnostics: the first `max_per_code` of each code are kept,
/// the rest only counted, so a report stays small for a 50 MiB file that
/// repeats one mistake on every line. Not thread-safe.
class diagnostic_list {
 public:
  explicit diagnostic_list(std::size_t max_per_code) : max_(max_per_code) {}

  void add(const diagnostic& d);
  void add(diagnostic&& d);
  void add(severity level, std::string_view code, std::uint64_t line,
           std::uint64_t column, std::string message);
  /// add() with the message made only when it will be listed: a file that
  /// repeats one mistake 50,000 times formats 100 messages, not 50,000.
  template <class MakeMessage>
  void add_lazy(severity level, std::string_view code, std::uint64_t line,
                std::uint64_t column, MakeMessage&& make) {
    if (count(level, code))
      kept_.push_back(
          diagnostic{level, std::string(code), line, column, make()});
  }
  /// Forgets every diagnostic of `code`, kept or counted (used when a rule
  /// is evaluated again with better knowledge).
  void remove_code(std::string_view code);
  /// Adds everything `other` holds, kept or counted.
  void merge(diagnostic_list&& other);
  /// Adds what this list holds to a report finish_into() already filled
  /// (findings that need the whole run), keeping its order and counts.
  void add_into(document_report& r);

  std::uint64_t errors() const noexcept { return errors_; }

  /// Moves the diagnostics into `r` in line order (document-wide ones, line
  /// 0, last), adds one info per code that had some left unlisted ("N more
  /// <code> diagnostics not listed", code "more-not-listed", not counted as
  /// a finding), and sets r's counts.
  void finish_into(document_report& r);

 private:
  // Counts a finding; true when it is to be listed.
  bool count(severity level, std::string_view code);

  struct tally {
    std::uint64_t listed = 0, unlisted = 0;
    severity level = severity::error;
  };
  std::size_t max_;
  std::vector<diagnostic> kept_;
  std::map<std::string, tally, std::less<>>
      codes_;  // a few dozen codes at most
  std::uint64_t errors_ = 0, warnings_ = 0, infos_ = 0;
};

/// Remembers where each <loc> text was first seen, for the duplicate rule:
/// a 64-bit XXH3 fingerprint and a line per distinct text, in a
/// fingerprint_table (20 to 30 bytes per text). Two different texts share a
/// fingerprint with odds of about n^2 / 2^65: for a 50,000-entry file, about
/// 1 in 10^10. Holds at most `capacity` texts; insert() then answers `full`.
/// Not thread-safe.
class loc_fingerprints {
 public:
  explicit loc_fingerprints(std::size_t capacity) : capacity_(capacity) {}

  /// Hashes `text` and prefetches the slot insert() probes first, so the
  /// caller can do other work while it arrives (past ~100,000 entries the
  /// table outgrows the caches and every probe would wait on memory).
  std::uint64_t prepare(std::string_view text) const noexcept;

  enum class outcome : std::uint8_t { added, seen, full };
  /// Adds the text behind `fingerprint` (from prepare()), first seen at
  /// `line`; `seen` sets `first_line` to where it was first seen.
  outcome insert(std::uint64_t fingerprint, std::uint64_t line,
                 std::uint64_t& first_line);
  outcome insert(std::string_view text, std::uint64_t line,
                 std::uint64_t& first_line) {
    return insert(prepare(text), line, first_line);
  }
  std::size_t size() const noexcept { return lines_.size(); }

 private:
  std::size_t capacity_;
  fingerprint_table<std::uint64_t> lines_;  // fingerprint -> first line
};

/// What the context rules need to know about a document before reading it.
class audit_list;

/// Scratch space check_location() reuses across calls. Not thread-safe.
struct location_scratch {
  /// Remembers the few origins a document's URLs share, so that a URL on one
  /// of them is normalised without parsing its scheme and authority again.
  origin_memo memo;
  std::string text;    ///< a URL normalised
  normalized_url url;  ///< the same with its components, for a finding
};

struct context_settings {
  /// Normalised URL whose directory every entry must be at or below (the
  /// location rule, docs/protocol.md 1.6); none when the document's URL is
  /// unknown or the rule is waived.
  std::optional<std::string> scope;
  /// Says where the scope came from, for messages ("the sitemap's URL").
  std::string scope_origin;
  /// The location rule is waived for an index's entries (a cross-submitted
  /// index, docs/protocol.md 1.7); its sitemaps' URLs are still held to
  /// `scope`.
  bool waive_scope_for_index = false;
  /// The root of the document's site ("https://www.example.com/"), when
  /// its host's robots.txt may yet vouch for it (a sitemap in a folder,
  /// docs/protocol.md 1.7): an entry outside `scope` is also judged against
  /// it, so that vouch() can swap the verdicts without reading again.
  std::optional<std::string> site_scope;
  std::size_t max_listed_per_code = 100;
  /// Where the run's hreflang links go (every <loc> of a urlset, text or
  /// feed, with its links), as document `doc`; none: not recorded.
  hreflang_set* hreflang = nullptr;
  std::uint32_t doc = 0;
  /// Where the run's URLs to audit go (check --audit), as the report in
  /// `slot`; none: not audited.
  audit_list* audit = nullptr;
  std::size_t slot = 0;
};

/// The parse_handler that applies the per-document context rules while the
/// parser streams a document through it: duplicates (warning
/// "duplicate-url"), one host per file (error "mixed-hosts") and the
/// location rule (error "outside-location"). Collects the parser's own
/// diagnostics too. Not thread-safe.
class context_checker final : public parse_handler {
 public:
  explicit context_checker(context_settings settings);

  void on_document(document_kind kind) override;
  void on_entry(const parsed_entry& entry) override;
  void on_diagnostic(const diagnostic& d) override;
  /// Applies what is still pending once the parser is done (call after
  /// sitemap_parser::finish()).
  void finish();

  diagnostic_list& diagnostics() noexcept { return diagnostics_; }
  document_kind kind() const noexcept { return kind_; }
  /// Entries found outside the scope ("outside-location"), listed or not.
  std::uint64_t outside() const noexcept { return outside_; }
  /// The host's robots.txt names the document (or an index above it): its
  /// entries are held to context_settings::site_scope instead of its
  /// directory, and the location findings are those against it.
  void vouch();

 private:
  void check_host(std::string_view loc, const parsed_entry& e);
  void check_duplicate();

  context_settings settings_;
  diagnostic_list diagnostics_;
  loc_fingerprints seen_;
  bool seen_full_reported_ = false;
  // The duplicate rule runs one entry late: the table slot an entry probes
  // is prefetched when it arrives and probed when the next one does, so the
  // memory access overlaps the parse (a 50 MiB file's table outgrows the
  // caches). Sorting by line puts the finding back in its place.
  struct pending_loc {
    bool present = false;
    std::uint64_t fingerprint = 0, line = 0, column = 0;
    std::string text;
  } pending_;
  document_kind kind_ = document_kind::unknown;
  std::string first_host_;
  // The first URL up to the end of its authority ("https://Example.com:8080"):
  // a URL that starts with these very bytes, then ends or goes on with '/',
  // '?' or '#', is on the same host without taking its host apart.
  std::string first_origin_;
  std::uint64_t first_host_line_ = 0;
  std::string host_buffer_;    // reused buffer
  normalized_url scope_url_;   // settings_.scope with its components
  location_scratch location_;  // reused buffers
  std::uint64_t outside_ = 0;
  normalized_url site_url_;      // settings_.site_scope
  diagnostic_list outside_site_;  // outside even the site's root
};

/// The location rule for one entry: adds "outside-location" to `out` when
/// `loc` normalises and is not within `scope` (see within_scope()), and
/// then returns true. `scope_origin` ends the message ("directory of the
/// sitemap's URL"). `scratch` is reused across calls.
bool check_location(std::string_view loc, std::uint64_t line,
                    std::uint64_t column, const normalized_url& scope,
                    std::string_view scope_origin, location_scratch& scratch,
                    diagnostic_list& out);

/// The host of an absolute http(s) URL, lowercased, without credentials or
/// port; empty when `url` is not one. Cheap enough for every entry of a
/// 50 MiB file, where full normalisation would not be.
std::string_view host_of(std::string_view url, std::string& buffer);

}  // namespace sitemill::detail

#endif  // SITEMILL_CHECK_CONTEXT_H
