// sitemill: web server access logs as a source for generate (--from-log).
//
// Lists the pages a site really served, from Apache or nginx logs in the
// combined format, the common format (no referer or user agent) or
// vhost_combined (a leading "host:port"), gzipped or not. A request becomes
// a record when it is a GET or HEAD of a path, answered 2xx or 304, not by
// a bot, not of an asset, without a query string (unless `keep_query`), on
// the base URL's host and at or below its directory; docs/access-logs.md
// has the lists. Each page is one record, the first request of it, with
// the path resolved against the base URL's origin and no lastmod (a
// request time is not a modification time); the entry stage normalises it
// as any <loc>.
//
// Every line is accounted for: a line that is not a log line is a record
// with a `problem` (reported with its file and line, as a list's bad line);
// each log's requests left out on purpose are counted by reason, in one
// note at the end of each log that left any out.
//
// Memory grows with the number of distinct pages (the source remembers a
// fingerprint of each page it listed: about 10 to 15 bytes, 15 to 22 with
// `priority_from_popularity`), never with the number of requests.
#ifndef SITEMILL_SOURCE_LOG_SOURCE_H
#define SITEMILL_SOURCE_LOG_SOURCE_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sitemill/source/record_source.h"

namespace sitemill {

/// What the access log source reads and how.
struct log_source_options {
  /// The logs, read in this order as one source: a path each, or "-" for
  /// stdin (at most once, and not with `priority_from_popularity`). Pages
  /// are listed once over all of them.
  std::vector<std::string> paths;
  /// Keep requests with a query string, each as its own URL with the query
  /// ("/search?q=a"). Off: they are left out, being variants of a page.
  bool keep_query = false;
  /// Give each page a <priority> from how often it was requested:
  /// 0.1 + 0.9 * ln(1 + count) / ln(1 + max_count), to one decimal, so the
  /// most requested page gets 1.0 (popularity_priority()). The logs are
  /// read twice: once to count, once to list, each pass up to the line the
  /// first one reached, so a log written to meanwhile gives the same pages.
  bool priority_from_popularity = false;
};

/// The access log source, named by its log (or its first log and how many
/// more there are). validate() fails for no path, stdin named twice or with
/// `priority_from_popularity`, and a log that cannot be read.
std::shared_ptr<const record_source> log_source(log_source_options options);

/// The priority, in tenths (1 to 10), of a page requested `count` times
/// when the most requested page was requested `max_count` times (count <=
/// max_count, max_count >= 1): the `priority_from_popularity` rule. Pure.
int popularity_priority(std::uint64_t count, std::uint64_t max_count) noexcept;

}  // namespace sitemill

#endif  // SITEMILL_SOURCE_LOG_SOURCE_H
