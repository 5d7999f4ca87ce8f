// sitemill: checking sitemaps, local or remote, against every protocol rule.
//
// The checker reads each document with the one sitemap_parser (which
// reports what a document shows on its own) and adds the rules that need
// context (PROTOCOL.md sections 1.6, 1.7, 5 and checklist 37-43):
//   * duplicates within a file, one host per file;
//   * the location rule, when the sitemap's own URL is known (fetched, or
//     given for a local file with check_options::sitemap_url);
//   * an index's children are checked too (local paths relative to the
//     index, or fetched); an index listing an index, cycles and depth beyond
//     check_options::max_depth are reported and never followed forever;
//   * a site URL ("https://www.example.com/") is checked through its
//     robots.txt Sitemap: lines (falling back to /sitemap.xml).
// Per-run caps on documents, bytes and time keep a run bounded.
//
// Diagnostics of one code beyond check_options::max_listed_per_code in one
// document are counted, not kept, so memory stays flat however broken a
// 50 MiB file is.
#ifndef SITEMILL_CHECK_H
#define SITEMILL_CHECK_H

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sitemill/diagnostic.h"
#include "sitemill/http.h"
#include "sitemill/sitemap_parser.h"

namespace sitemill {

struct check_options {
  parse_options parse;
  http_options http;
  /// The URL a local file is (or will be) served at, for the location rule.
  std::optional<std::string> sitemap_url;
  bool follow_indexes = true;
  std::uint32_t max_depth = 4;            ///< robots.txt -> index -> sitemap is depth 2
  std::uint64_t max_documents = 1'000;
  std::uint64_t max_total_bytes = 4ull * 1024 * 1024 * 1024;
  std::chrono::seconds max_time{600};
  std::size_t max_listed_per_code = 100;  ///< per document; the rest are counted
};

/// The findings about one document (a sitemap, an index, robots.txt).
struct document_report {
  std::string source;                   ///< path or URL as reached
  document_kind kind = document_kind::unknown;
  std::uint64_t urls = 0;               ///< entries read
  std::uint64_t bytes = 0;              ///< uncompressed bytes read
  bool schema_valid = false;
  std::vector<diagnostic> diagnostics;  ///< in document order
  std::uint64_t errors = 0, warnings = 0, infos = 0;  ///< all, listed or not
  bool unreadable = false;              ///< could not be read at all
};

struct check_report {
  std::vector<document_report> documents;
  std::uint64_t errors = 0, warnings = 0, infos = 0;
  bool any_unreadable = false;          ///< some target could not be read at all
};

/// Told about each document as soon as it is done, for progress output.
class check_observer {
 public:
  virtual ~check_observer() = default;
  virtual void on_document(const document_report& /*report*/) {}
};

/// Checks every target: a local path (.xml, .xml.gz, .txt, ... sniffed
/// from content), a sitemap URL, or a site URL (path "/").
check_report check(const std::vector<std::string>& targets, const check_options& options,
                   check_observer& observer);

}  // namespace sitemill

#endif  // SITEMILL_CHECK_H
