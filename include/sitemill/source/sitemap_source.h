// sitemill: existing sitemaps as a source for generate (--from-sitemap).
//
// Reads a urlset, an index (its children followed), a text sitemap or a
// feed, local or fetched, gzip or not, through the one sitemap_parser, with
// the same hardening and caps as `check`, and yields each entry as an input
// record: its loc, lastmod, changefreq and priority carried over. Feed dates
// (RSS pubDate in RFC 822, Atom updated in RFC 3339) are converted to W3C
// datetimes by feed_date_to_w3c() (sitemill/date/dates.h).
#ifndef SITEMILL_SITEMAP_SOURCE_H
#define SITEMILL_SITEMAP_SOURCE_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "sitemill/net/http.h"
#include "sitemill/parse/sitemap_parser.h"
#include "sitemill/result.h"
#include "sitemill/source/record_reader.h"
#include "sitemill/source/record_source.h"

namespace sitemill {

struct sitemap_source_options {
  std::string location;  ///< a path or an http(s) URL
  parse_options parse;  ///< schema checks are off: only extraction matters here
  http_options http;
  std::uint32_t max_depth = 4;          ///< index nesting followed at most
  std::uint64_t max_documents = 1'000;  ///< documents read at most
  /// Rewrites locs starting with first to start with second instead
  /// (--rewrite-base OLD NEW), before normalisation: for site migrations.
  std::optional<std::pair<std::string, std::string>> rewrite_base;
};

/// Opens the sitemap source. Records come in document order: an index's
/// children in the order the index lists them. A child that cannot be read
/// becomes one record with a `problem` (so it is reported, and --strict
/// fails); when the top document itself cannot be read, reading stops with
/// error(). A document's fatal parse error ends that document with a note
/// saying how far it got; the entries before it are kept.
result<std::unique_ptr<record_reader>> open_sitemap_source(
    const sitemap_source_options& options);

/// The sitemap source as a record_source, named by its location.
std::shared_ptr<const record_source> sitemap_source(
    sitemap_source_options options);

}  // namespace sitemill

#endif  // SITEMILL_SITEMAP_SOURCE_H
