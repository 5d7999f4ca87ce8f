// sitemill: checking sitemaps, local or remote, against every protocol rule.
//
// The checker reads each document with the one sitemap_parser (which
// reports what a document shows on its own) and adds the rules that need
// context (docs/protocol.md sections 1.6, 1.7, 5 and checklist 37-43); every
// code it adds is listed in docs/diagnostics-context.md:
//   * duplicates within a file (warning "duplicate-url"), one host per file
//     (error "mixed-hosts", the file's host being its first URL's);
//   * the location rule (error "outside-location"), when the sitemap's own
//     URL is known: the URL after redirects for a fetched document,
//     check_options::sitemap_url for a local target, the <loc> an index
//     lists a local child at. A sitemap that a site's robots.txt names on
//     another host is a cross-submit (1.7): its URLs must be on the site
//     whose robots.txt named it;
//   * an index's children are checked too, read by the one sitemap_walker
//     (walk/walker.h), which also decides what may be fetched (its "Fetch
//     scope": redirects and children on the host and port requested, no
//     private address a target does not name, unless
//     check_options::allow_private): a fetched index's children only on its
//     own host and port (unless cross-submitted), a
//     local index's children from the file the walker's child location rule
//     names (the path of the child's URL below the index's URL directory, in
//     the index's directory), fetched when missing only with
//     check_options::fetch_children. An index listing an index is a warning
//     and is followed; cycles (error "index-cycle") and depth beyond
//     check_options::max_depth (error "max-depth") are reported, never
//     followed; a document reached twice is checked once;
//   * the document's XSD verdict (error "schema-invalid" when the official
//     schemas reject it, unless check_options::lenient_schema);
//   * hreflang across the whole run (docs/protocol.md 3): a page that an
//     alternate names and that is a <loc> of the run must name it back
//     (error "hreflang-no-return", naming both URLs), and the pages joined
//     by their links give one URL per language (error "hreflang-conflict").
//     These are added to the reports after the last document, so the
//     observer hears of a document before them. An alternate that is not a
//     <loc> of the run is not judged (its page may be on another site, or
//     carry its links in HTML);
//   * a site URL ("https://www.example.com/", path "/" and no query) is
//     checked through its robots.txt Sitemap: lines, falling back to
//     /sitemap.xml when there are none. The robots.txt is reported as a
//     document of its own, of kind text, with robots_txt set, its entries
//     being the sitemaps it names.
// A document that cannot be read (missing file, transport failure, an HTTP
// status other than 200) is reported where it was named: for a target, as a
// report of its own marked unreadable; for a child, as an error in the
// report of the index (or robots.txt) that lists it, at the listing line.
//
// Per-run caps (walk_caps: depth, documents, uncompressed bytes, time) keep a
// run bounded: the first cap reached is reported once (error "cap-reached")
// and the run stops there. The byte cap is checked between documents (each
// document is bounded by parse_options::max_bytes); the time cap also within
// one.
//
// Memory stays flat: documents stream through the parser (files read in
// blocks, HTTP bodies as they arrive), duplicates are remembered as 16-byte
// fingerprints, the hreflang rules keep fingerprints only (a 24-byte record
// per link, up to check_options::max_hreflang_links, and re-read the few
// URLs their messages name), and diagnostics of one code beyond
// check_options::max_listed_per_code in one document are counted, not kept.
//
// Not thread-safe: one check() per thread; the observer is called on the
// calling thread.
#ifndef SITEMILL_CHECK_H
#define SITEMILL_CHECK_H

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/diagnostic.h"
#include "sitemill/net/http.h"
#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/walk/walker.h"

namespace sitemill {

/// The walk's caps are the options' own fields (max_depth, max_documents,
/// max_total_bytes, max_time), shared with sitemap_source_options.
struct check_options : walk_caps {
  parse_options parse;
  /// For every request; an empty user_agent means default_user_agent(). A
  /// request's total timeout is shortened to what is left of max_time.
  http_options http;
  /// The URL a local target is (or will be) served at, for the location
  /// rule; applies to every local target, so give it with one target.
  std::optional<std::string> sitemap_url;
  /// Check the children of an index (and of a robots.txt's indexes); off,
  /// only the targets themselves and a site's robots.txt sitemaps.
  bool follow_indexes = true;
  /// Fetch a local index's children that are not found beside it; off, such
  /// a child is an error ("child-not-found") and no network is used.
  bool fetch_children = false;
  /// Fetch from loopback and private addresses (127.0.0.1, 10.0.0.7) even
  /// when no target names them; off, a redirect, child or DNS name leading
  /// there is refused (walker.h, "Fetch scope").
  bool allow_private = false;
  std::size_t max_listed_per_code =
      100;  ///< per document; the rest are counted
  /// Off (the default), a sitemap or index that the official schemas reject
  /// is an error of its own ("schema-invalid"), even where search engines
  /// would read it anyway (an element out of order, a legacy namespace).
  /// On, only the findings at the elements are reported, most of them
  /// warnings. Elements of namespaces without a bundled schema are never
  /// held against a document.
  bool lenient_schema = false;
  /// A run with warnings fails too (check_outcome::failed).
  bool warnings_as_errors = false;
  /// hreflang links (and pages: every <loc> of the run) judged across the
  /// set at most; beyond, the cross-set hreflang rules stop for the run,
  /// with an info ("hreflang-check-stopped"). About 24 bytes per link and
  /// 8 to 12 per page while reading, twice that while judging at the end:
  /// the default bounds them to some 250 MiB.
  std::size_t max_hreflang_links = std::size_t{1} << 22;

  /// Fetch every URL the checked sitemaps list, once every document is
  /// read, and report what a search engine would find there (the "audit-"
  /// codes of docs/diagnostics-context.md): an answer other than 200, a
  /// redirect, noindex (robots meta or X-Robots-Tag), a canonical link to
  /// another URL, a URL its site's robots.txt disallows, a lastmod older
  /// than the page's Last-Modified, a fetch that fails. Politely: each
  /// host's robots.txt first (and its Crawl-delay), at most
  /// audit_concurrency requests at once, 429 and 5xx asked again. A URL
  /// on a private address is fetched only where a target names that
  /// address, or with allow_private; a URL on another host or port than
  /// its sitemap's URL (after redirects; a cross-submitted sitemap's: the
  /// site naming it) is not fetched, and is a warning ("audit-off-site").
  bool audit = false;
  unsigned audit_concurrency = 4;
  /// URLs audited at most per run; past it, an info ("audit-stopped").
  /// About 100 bytes per URL are held until the audit.
  std::size_t max_audit_urls = 100'000;
  /// A page's body is read up to this many bytes for its robots meta and
  /// canonical link.
  std::uint64_t audit_max_page_bytes = 10ull * 1024 * 1024;
};

/// The verdict of a run, which the CLI maps to its exit code.
enum class check_outcome : std::uint8_t {
  passed,      ///< no error (and no warning, with warnings_as_errors)
  failed,      ///< an error, or a warning with warnings_as_errors
  unreadable,  ///< some target could not be read at all
  cancelled,   ///< check_observer::cancelled() stopped the run
};

/// "passed", "failed", "unreadable" or "cancelled".
std::string_view to_string(check_outcome outcome) noexcept;

/// The findings about one document (a sitemap, an index, robots.txt).
struct document_report {
  std::string source;  ///< path or URL as reached
  /// The source of the index or robots.txt that listed it; empty for a target.
  std::string parent;
  document_kind kind = document_kind::unknown;
  bool robots_txt = false;    ///< a site's robots.txt (kind text)
  std::uint64_t urls = 0;     ///< entries read (robots.txt: sitemaps named)
  std::uint64_t bytes = 0;    ///< uncompressed bytes read
  bool schema_valid = false;  ///< parse_summary::schema_valid
  /// In line order, document-wide ones (line 0) last, then one info
  /// "more-not-listed" per code that had more than max_listed_per_code.
  std::vector<diagnostic> diagnostics;
  /// Every finding, listed or not ("more-not-listed" notes not counted).
  std::uint64_t errors = 0, warnings = 0, infos = 0;
  /// The codes that had findings beyond max_listed_per_code, with how many
  /// were not listed (what their "more-not-listed" notes say in words), so
  /// a summary can count every finding by code.
  struct unlisted_count {
    std::string code;
    severity level = severity::error;
    std::uint64_t count = 0;
  };
  std::vector<unlisted_count> unlisted;
  bool unreadable = false;  ///< a target that could not be read at all
};

struct check_report {
  /// In the order they were reached: a target, then what it lists
  /// (depth-first), then the next target.
  std::vector<document_report> documents;
  std::uint64_t errors = 0, warnings = 0, infos = 0;  ///< sums over documents
  bool any_unreadable = false;  ///< some target could not be read at all
  bool cancelled = false;       ///< check_observer::cancelled() stopped the run
  /// The verdict: cancelled, else unreadable, else failed or passed.
  check_outcome outcome = check_outcome::passed;
};

/// Told about each document as soon as it is done, for progress output.
/// An index is done once its children are (their failures are its
/// findings), so it is told after them.
class check_observer {
 public:
  virtual ~check_observer() = default;
  virtual void on_document(const document_report& /*report*/) {}
  /// Polled between blocks of input; true stops the run (check_report's
  /// cancelled is then set, and what was read so far is reported).
  virtual bool cancelled() { return false; }
};

/// Checks every target: a local path (.xml, .xml.gz, .txt, ... sniffed
/// from content; "-" is stdin), a sitemap URL, or a site URL (path "/").
/// Never throws for bad input or network trouble: everything is reported.
check_report check(const std::vector<std::string>& targets,
                   const check_options& options, check_observer& observer);

}  // namespace sitemill

#endif  // SITEMILL_CHECK_H
