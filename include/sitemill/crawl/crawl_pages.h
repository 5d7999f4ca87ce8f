// sitemill: the crawler as a library for a caller that wants every URL a
// crawl reaches with how it was judged and which page linked to it (the
// audit, audit/audit.h), rather than the records of a set (crawl_source.h).
// The crawl is the same: crawl_options, robots.txt, scope, politeness,
// traps, caps and the breadth-first order are crawl_source()'s.
//
// Memory: what a crawl holds (crawl_source.h), plus, for each URL waiting in
// the queue, a shared pointer (16 bytes) to the URL of the page that linked
// to it, held once per linking page while any of its links waits
// (docs/scaling.md).
#ifndef SITEMILL_CRAWL_CRAWL_PAGES_H
#define SITEMILL_CRAWL_CRAWL_PAGES_H

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "sitemill/crawl/crawl_source.h"

namespace sitemill {

/// One URL a crawl reached or reported. The views live for the call.
struct crawled_url {
  std::string_view url;  ///< normalised, session ids removed
  /// "" for a page crawl_source() would list; else why not, as its skipped
  /// records say ("redirect", "status 404", "noindex", "canonical",
  /// "robots", "not html", "too large", "max pages", "max depth", "trap
  /// cap", "fetch failed: ...", ...).
  std::string_view skipped;
  /// The page whose link found it: the first such page in the crawl's
  /// breadth-first order (for a redirect's target, the URL that
  /// redirected). "" for the start URL, a seed sitemap's URL, and a URL
  /// reported "max depth".
  std::string_view referrer;
  /// "redirect": the URL it redirects to; "canonical": its canonical link's
  /// URL; "" otherwise.
  std::string_view target;
};

/// How a crawl_urls() run ended.
struct crawl_urls_result {
  /// Why the crawl could not be done ("cannot read .../robots.txt ...";
  /// "cancelled" whenever `stop` was set); "" when it ran to its end.
  std::string error;
  /// Links found past the frontier's bound (crawl_options::
  /// max_frontier_urls): counted, neither fetched nor told.
  std::uint64_t dropped_links = 0;
};

/// Crawls `options.start_url`, calling `each` with every URL it reaches or
/// reports, in the order crawl_source() yields its records, on the calling
/// thread (the crawl itself runs on a thread of its own). `stop` (may be
/// nullptr) ends the crawl within about 100 ms of being set.
crawl_urls_result crawl_urls(
    const crawl_options& options,
    const std::function<void(const crawled_url&)>& each,
    const std::atomic<bool>* stop = nullptr);

}  // namespace sitemill

#endif  // SITEMILL_CRAWL_CRAWL_PAGES_H
