// sitemill: the one parser for everything that reads sitemaps (check,
// generate --from-sitemap, later the crawler).
//
// A push parser: feed() it the bytes of one document as they arrive (from a
// file or the network, gzip or not) and it calls a handler with the entries
// and the diagnostics as it reads them, in document order. Memory does not
// grow with the document.
//
// What it reads, sniffed from the content and never from a name
// (docs/protocol.md checklist 24): gzip by its magic bytes 1F 8B; then XML (a
// '<' after an optional BOM and whitespace) or a text sitemap. XML is a urlset,
// a sitemapindex, an RSS 2.0 feed (<rss>, items' <link> and <pubDate>) or an
// Atom feed (<feed>, entries' <link href> and <updated>), matched by
// namespace URI and local name, so a prefixed sitemap namespace works.
//
// What it checks is everything one document shows on its own (checklist
// 25-36): well-formedness, UTF-8, the namespace, structure and element order
// as sitemap.xsd and siteindex.xsd define them, each value by the XSD and by
// the protocol, and the 50,000-entry and 52,428,800-byte limits. Rules that
// need more context (duplicates, one host per file, the location rule,
// following an index) belong to the checker (check.h).
//
// Hardened for untrusted input (checklist 25): no DTD is loaded, no entity
// is declared or expanded (a DOCTYPE with declarations is reported and ends
// the parse), no network access, no XInclude; decompressed input is capped
// (parse_options::max_bytes) so a gzip bomb stops early.
//
// After a fatal error the parse stops, but entries read so far have been
// delivered and the summary counts them: a truncated file tells how far it
// got (checklist 26, lenient reading). An entry is delivered when its
// element closes, so one cut in the middle is not.
//
// The diagnostic codes, their severities and how to fix each are listed in
// docs/diagnostics-document.md. Lines are 1-based; columns count characters
// as libxml2 does (a UTF-8 BOM is not one).
//
// Results do not depend on how the bytes are split between feed() calls:
// feeding one byte at a time gives exactly what one feed gives.
//
// Not thread-safe; one parser per document. Parsers in different threads
// are independent (the bundled schemas are compiled once per process).
#ifndef SITEMILL_SITEMAP_PARSER_H
#define SITEMILL_SITEMAP_PARSER_H

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "sitemill/diagnostic.h"
#include "sitemill/entry/extensions.h"
#include "sitemill/limits.h"
#include "sitemill/result.h"

namespace sitemill {

/// What a document turned out to be.
enum class document_kind : std::uint8_t {
  unknown,  ///< nothing usable was read (empty, or not well-formed before the
            ///< root)
  urlset,
  sitemapindex,
  text,
  rss,
  atom,
};

/// "urlset", "sitemapindex", "text", "rss", "atom" or "unknown".
std::string_view to_string(document_kind kind) noexcept;

/// One field of an entry as written: text with XML entities and CDATA
/// resolved and surrounding XML whitespace (space, tab, CR, LF) removed, and
/// where its element started. A loc is also trimmed of Unicode spaces (NBSP,
/// U+2000, ...; E10). Views are valid only during the handler call.
struct parsed_field {
  std::string_view text;
  /// The element was there (it may be empty). Also true for the URL of a
  /// <sitemap> or <url> written as bare text without <loc> (E27), which is
  /// read as the loc at the entry's position.
  bool present = false;
  std::uint64_t line = 0;
  std::uint64_t column = 0;
};

/// One <url> of a urlset, <sitemap> of an index, line of a text sitemap,
/// <item> of an RSS feed or <entry> of an Atom feed. Index entries, text
/// lines and feed items have no changefreq or priority; a feed's date
/// (pubDate, updated) is given as lastmod, in the feed's own format.
struct parsed_entry {
  parsed_field loc;
  parsed_field lastmod;
  parsed_field changefreq;
  parsed_field priority;
  std::uint64_t line = 0;  ///< where the entry starts
  std::uint64_t column = 0;
  std::uint64_t index = 0;  ///< 0-based position among the document's entries
  /// A <url>'s image, video, news and xhtml:link items, as written (text
  /// resolved, not trimmed or judged; sitemill/entry/extensions.h). What the
  /// extension table does not model is not here (see extension-not-kept).
  std::span<const extension_value> extensions;
  /// A <url>'s elements of namespaces without a bundled schema (a PageMap,
  /// a vendor's <mobile:mobile/>), one after another, re-serialised by the
  /// parser: well-formed XML made from what was parsed, never the input's
  /// bytes, each element declaring the namespaces it uses (none of them
  /// under the prefixes image, video, news or xhtml), text escaped, CDATA
  /// as text, comments left out. Empty when there are none; elements past
  /// 64 KiB of it per <url> are left out (extension-not-kept). Written back
  /// as is by generate --from-sitemap (url_entry::foreign_xml).
  std::string_view foreign_xml;
};

/// Receives what the parser reads. Defaults ignore everything. The calls
/// come from inside libxml2's parser: a handler must not throw.
class parse_handler {
 public:
  virtual ~parse_handler() = default;
  /// Once, when the kind is known (at the root element, or the first line
  /// of a text sitemap), before any entry; never for an unknown kind.
  virtual void on_document(document_kind /*kind*/) {}
  virtual void on_entry(const parsed_entry& /*entry*/) {}
  virtual void on_diagnostic(const diagnostic& /*d*/) {}
};

struct parse_options {
  /// Decompressed bytes read at most; the parse stops with an error beyond
  /// it. Just above the protocol's limit, so an oversized file is reported
  /// as too large rather than cut short.
  std::uint64_t max_bytes = max_bytes_per_sitemap + 1024 * 1024;
  /// Compare the structure and values with the official schemas (the XSD
  /// verdict) and report where they differ. Off, only well-formedness,
  /// encoding and what extraction needs are checked (faster, for
  /// generate --from-sitemap).
  bool schema_checks = true;
  /// The time of the check, which lastmod-future and news-too-old measure
  /// from; none: the system clock when the parse starts. Tests and
  /// `check --now` pin it.
  std::optional<std::chrono::system_clock::time_point> now;
};

/// What the parse found, available after finish().
struct parse_summary {
  document_kind kind = document_kind::unknown;
  std::uint64_t entries = 0;  ///< entries delivered to the handler
  std::uint64_t bytes = 0;    ///< decompressed bytes read
  bool gzipped = false;       ///< sniffed by the magic bytes 1F 8B
  /// Read to the end without a fatal error: false after broken XML, a cut
  /// (truncated file or gzip stream), a DOCTYPE with declarations, binary
  /// content, or the byte cap. Entries read before the stop still count.
  bool complete = false;
  /// Complete, and nothing was read past that strict XML forbids (whitespace
  /// or a comment before the XML declaration, which the parser reads on
  /// from). Only a well-formed document has a schema verdict worth telling:
  /// what broke one is its own finding.
  bool well_formed = false;
  /// The document validates against sitemap.xsd (with the bundled extension
  /// schemas) or siteindex.xsd, as `xmllint --schema` would say. False for
  /// text, feeds, documents that are not well-formed, and when
  /// parse_options::schema_checks is off.
  bool schema_valid = false;
  /// schema_valid is false only because of elements in namespaces that have
  /// no bundled schema (mobile, PageMap, your own; any extension in an
  /// index): the protocol allows them and nothing here can judge them, so
  /// check does not hold them against the document.
  bool valid_but_unknown_namespaces = false;
  std::uint64_t errors = 0, warnings = 0, infos = 0;
};

class sitemap_parser {
 public:
  explicit sitemap_parser(parse_handler& handler, parse_options options = {});
  ~sitemap_parser();
  sitemap_parser(const sitemap_parser&) = delete;
  sitemap_parser& operator=(const sitemap_parser&) = delete;

  /// Parses the next bytes of the document. Returns false once the parse
  /// has stopped (fatal error, or the byte cap): later bytes are ignored.
  bool feed(const char* data, std::size_t size);
  /// Ends the document and returns what was found.
  parse_summary finish();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// Parses a whole file (read in blocks). An error only when the file cannot
/// be opened or read; everything about its content goes to the handler.
result<parse_summary> parse_file(const std::string& path,
                                 parse_handler& handler,
                                 parse_options options = {});

/// Parses bytes held in memory.
parse_summary parse_bytes(std::string_view bytes, parse_handler& handler,
                          parse_options options = {});

}  // namespace sitemill

#endif  // SITEMILL_SITEMAP_PARSER_H
