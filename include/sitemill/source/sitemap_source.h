// sitemill: existing sitemaps as a source for generate (--from-sitemap).
//
// Reads a urlset, an index (its children followed), a text sitemap or a
// feed, local (a file, or "-" for stdin) or fetched, gzip or not, through
// the one sitemap_walker (walk/walker.h), so with the same child location
// rule, fetch scope, hardening and caps as `check`, and yields each entry as
// an input record: its loc, lastmod, changefreq and priority carried over.
// A local index's child with no local file is fetched from its URL (within
// the fetch scope). Feed dates (RSS pubDate in RFC 822, Atom updated in
// RFC 3339) are converted to W3C datetimes by feed_date_to_w3c()
// (sitemill/date/dates.h).
//
// The records are produced on a thread of the reader's own, which reads the
// documents and hands records over a small bounded queue, so memory stays
// flat however large the sitemaps are; the reader itself is used from one
// thread.
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
#include "sitemill/walk/walker.h"

namespace sitemill {

/// The walk's caps (walker.h) are the options' own fields: max_depth,
/// max_documents, max_total_bytes and max_time, with check's defaults.
struct sitemap_source_options : walk_caps {
  std::string location;  ///< a path, "-" for stdin, or an http(s) URL
  parse_options parse;  ///< schema checks are off: only extraction matters here
  http_options http;
  /// Fetch from loopback and private addresses even when the location does
  /// not name one (walker.h, "Fetch scope").
  bool allow_private = false;
  /// Rewrites locs starting with first to start with second instead
  /// (--rewrite-base OLD NEW), before normalisation: for site migrations.
  std::optional<std::pair<std::string, std::string>> rewrite_base;
};

/// Opens the sitemap source. Records come in document order: an index's
/// children in the order the index lists them. A child that is not read (it
/// cannot be, or a cycle, a repeat, the depth, a cap or the fetch scope
/// stops it) becomes one record with a `problem` naming the index and the
/// line that lists it (so it is reported, and --strict fails); when the top
/// document itself cannot be read, reading stops with error(). A document's
/// fatal parse error ends that document with a note saying how far it got;
/// the entries before it are kept. A cap reached inside a document is a
/// problem too, and the walk stops there.
result<std::unique_ptr<record_reader>> open_sitemap_source(
    const sitemap_source_options& options);

/// The sitemap source as a record_source, named by its location.
std::shared_ptr<const record_source> sitemap_source(
    sitemap_source_options options);

}  // namespace sitemill

#endif  // SITEMILL_SITEMAP_SOURCE_H
