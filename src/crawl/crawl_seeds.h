// sitemill internals: the crawl's seed sitemaps (crawl_options::
// seed_sitemaps), read through the one walker like every other reader of
// sitemaps, so they get its rules: an index that lists itself is read once,
// a child on another host than its index is never fetched, and the depth,
// document, byte and time caps hold. Apart from the crawl's fetching because
// the walker reads one document at a time on its own client, while the
// crawl's fetcher runs many transfers from an event loop.
#ifndef SITEMILL_CRAWL_CRAWL_SEEDS_H
#define SITEMILL_CRAWL_CRAWL_SEEDS_H

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include "sitemill/crawl/crawl_source.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {

/// What reading the seeds needs of the crawl.
struct seed_request {
  /// Its HTTP settings (crawl_http_options()) and allow_private.
  const crawl_options& crawl;
  const normalized_url& start;  ///< its origin's robots.txt named the seeds
  std::string_view robots_txt;  ///< that robots.txt, as fetched
  /// robots.txt's Crawl-delay when it is obeyed: the least time between two
  /// requests to the start's origin, robots.txt's own (just fetched) and
  /// the first page's after the seeds included.
  std::chrono::milliseconds crawl_delay{0};
  /// The crawl's; the walk stops within http_cancel_step of its being set.
  const std::atomic<bool>& cancel;
};

/// Reads the sitemaps the Sitemap: lines of `r.robots_txt` name (when it
/// names none, or there is none, those at the site's common locations:
/// probe_common_sitemaps(), walk/site.h), and the children of the indexes
/// among them, on the calling thread. `found` is
/// called with each <loc> of a sitemap that is not an index, in document
/// order (an index's children in its place); `skipped` with each sitemap
/// not read or not followed, and why ("seed sitemap not followed: on
/// another host than its index"). A sitemap listed again is read once,
/// without a word.
void read_seed_sitemaps(const seed_request& r,
                        const std::function<void(std::string_view loc)>& found,
                        const std::function<void(std::string_view url,
                                                 std::string reason)>& skipped);

}  // namespace sitemill::detail

#endif  // SITEMILL_CRAWL_CRAWL_SEEDS_H
