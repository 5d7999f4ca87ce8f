// sitemill: the crawler source of generate (--from-crawl): fetches a live
// site from a start URL, following its links, and yields one record per page
// a search engine should index.
//
//   sitemill::crawl_options o;
//   o.start_url = "https://www.example.com/";
//   g.sources.push_back(sitemill::crawl_source(o));  // generate_options
//
// What is listed (docs/crawl.md has the whole story): pages in the start
// URL's scope (its scheme, host, port and directory, the sitemaps.org
// location rule) reached by <a href> links from it, answered 200 with
// text/html, not noindex (robots meta or X-Robots-Tag), with no canonical
// link to another URL. A redirect's in-scope target is crawled in its place.
// Everything found and not listed is reported with its reason (a skipped
// record: "redirect", "status 404", "not html", "noindex", "canonical",
// "robots", "trap cap", "too large", "max pages", "max depth", "fetch
// failed: ...").
//
// Polite: robots.txt is fetched first and obeyed for the product token of
// the User-Agent (sitemill's own by default), its Crawl-delay honoured;
// at most `concurrency` requests at once; 429 and 5xx retried after
// Retry-After or a backoff (net/fetcher.h).
//
// Deterministic: pages are judged, and their links found, in the order a
// breadth-first crawl would fetch them, whatever order the answers come in,
// so the caps cut at the same place and a rerun of an unchanged site yields
// the same records in the same order.
//
// Memory: every URL seen (its text) and the answers that came ahead of
// their turn (their links, not their bodies); a body is held only while it
// is parsed, and at most max_page_bytes of it. The URLs found and not yet
// fetched are bounded by max_frontier_urls and max_frontier_bytes: links
// past those are counted, not kept.
#ifndef SITEMILL_CRAWL_SOURCE_H
#define SITEMILL_CRAWL_SOURCE_H

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/html/page_rules.h"
#include "sitemill/net/credentials.h"
#include "sitemill/net/http.h"
#include "sitemill/source/record_source.h"
#include "sitemill/source/site_source.h"

namespace sitemill {

/// The crawler's default retries: 3 tries, waits from 500 ms, at most
/// 60 s.
inline retry_policy crawl_retry_policy() {
  retry_policy r;
  r.max_attempts = 3;
  r.first_wait = std::chrono::milliseconds(500);
  return r;
}

/// Where a crawl is, for a progress line.
struct crawl_progress {
  std::uint64_t fetched = 0;  ///< pages asked and answered, or failed
  std::uint64_t errors = 0;   ///< of those, failed ("fetch failed")
  std::uint64_t queued = 0;   ///< found, in scope, not yet fetched
  std::uint64_t listed = 0;   ///< pages judged listable so far
  std::uint64_t skipped = 0;  ///< URLs reported skipped so far
  std::uint64_t bytes = 0;    ///< body bytes received
  double seconds = 0;         ///< since the crawl began
  bool done = false;          ///< the last call, as the crawl ends
};

struct crawl_options {
  /// Where the crawl starts; its directory is the scope.
  std::string start_url;
  /// Requests in flight at once (the crawl is of one host, so this is also
  /// the per-host limit).
  unsigned concurrency = 4;
  /// Pages fetched at most (robots.txt, sitemaps and retries not counted);
  /// the rest of the queue is reported "max pages".
  std::size_t max_pages = std::numeric_limits<std::size_t>::max();
  /// What the crawl keeps of the URLs it found and has not fetched yet (the
  /// queue, and URLs found only too deep so far): at most this many URLs,
  /// and this many bytes of their text. A link found past either bound is
  /// counted, not kept: it is neither fetched nor reported, and the crawl
  /// ends with a warning that says how many links it counted so. This bounds
  /// the crawl's memory (about 600 bytes per URL held) whatever the pages
  /// link to; max_pages does not, as the pages it leaves are reported.
  std::size_t max_frontier_urls = 100'000;
  std::size_t max_frontier_bytes = 64ull << 20;
  /// Links followed at most from the start URL (0: the start page only).
  std::size_t max_depth = std::numeric_limits<std::size_t>::max();
  /// Distinct query strings crawled per path (a calendar, faceted search);
  /// further ones are reported "trap cap".
  std::size_t max_query_variants = 100;
  /// Body bytes read per page at most; a larger page is "too large".
  std::uint64_t max_page_bytes = 10ull * 1024 * 1024;
  /// What pages and robots.txt ask, and whether it is obeyed: robots.txt
  /// (Allow, Disallow, Crawl-delay), noindex, nofollow, canonical links.
  /// The directory source holds the same struct (site_source_options).
  page_rules rules;
  /// Also start from the <loc>s of the sitemaps robots.txt names (Sitemap:
  /// lines; when it names none, those found at the site's common locations,
  /// walk/site.h; indexes followed), so pages no link reaches are found. They
  /// are read through sitemap_walker (walk/walker.h), under its scope,
  /// cycle and cap rules, one at a time with robots.txt's Crawl-delay; a
  /// sitemap not read is reported as a skipped record ("seed sitemap not
  /// followed: on another host than its index").
  bool seed_sitemaps = false;
  /// Told one line per seed sitemap read, skipped or looked for at a common
  /// location, and why (walk_caps::trace), on the crawl's own thread. Empty:
  /// nothing.
  std::function<void(std::string_view line)> trace;
  /// List each page's content images too (as --from-dir --images).
  bool images = false;
  /// The User-Agent sent; its product token is the one robots.txt is read
  /// for. Empty: default_user_agent() ("sitemill/VERSION (+URL)").
  std::string user_agent;
  /// What is sent to be let in (a consent cookie, a staging token, a
  /// login): headers, cookies and HTTP basic auth (net/credentials.h),
  /// with every request to the start URL's origin (robots.txt, the pages,
  /// the seed sitemaps there) and never to another origin, a redirect's
  /// target or a seed sitemap elsewhere included. Never written into a
  /// message, a record or the state. validate() refuses what
  /// check_credentials() refuses.
  site_credentials credentials;
  /// How 429 and 5xx answers are asked again: after Retry-After (at most
  /// max_wait) or a backoff from first_wait, pausing requests to the host
  /// meanwhile. A crawl asks each page at most 3 times by default.
  retry_policy retry = crawl_retry_policy();
  /// Each request's connect and total timeouts.
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds timeout{30'000};
  /// Host names pinned to addresses, as curl's --resolve ("host:port:addr").
  std::vector<std::string> resolve;
  /// Fetch from loopback and private addresses the start URL does not name
  /// itself.
  bool allow_private = false;
  /// --include/--exclude (generate_options::url_patterns), matched
  /// against a URL's path below the start URL's directory: a URL they
  /// exclude is neither fetched nor followed (reported "excluded"), and a
  /// 200 answer that is not HTML is listed when a pattern includes its
  /// path by name ("*.pdf"). Empty: HTML only, nothing excluded.
  std::vector<site_pattern> patterns;
  /// Load each HTML page in headless Chromium and read its links,
  /// canonical, robots meta, hreflang and title from the DOM its scripts
  /// built, once it settled (docs/crawl.md, "Rendering"). The page's own
  /// answer is fetched and judged as without it (status, redirects,
  /// X-Robots-Tag); the requests its scripts make go through the crawl's
  /// fetcher, under robots.txt and its politeness, to the start URL's
  /// origin only; images, fonts and media are not loaded.
  bool render = false;
  /// How long a rendered page settles after its load event: 0 until none
  /// of its requests has been pending for 500 ms (the network is idle);
  /// more waits that long.
  std::chrono::milliseconds render_wait{0};
  /// Pages rendered at once (browser tabs); 0 counts as 1.
  unsigned render_concurrency = 2;
  /// A page not settled this long after it was handed to the browser is
  /// reported "render failed: not settled within 30 s".
  std::chrono::milliseconds render_timeout{30'000};
  /// Each tab's JavaScript heap at most, in MiB (V8's old space): a page
  /// past it crashes its tab and is reported "render failed".
  unsigned render_memory_mib = 512;
  /// The browser to render with: a path or a program on PATH. Empty:
  /// $SITEMILL_CHROMIUM, else chromium, chromium-browser,
  /// google-chrome-stable or google-chrome on PATH.
  std::string browser;
  /// Told where the crawl is about every 250 ms, and once at its end, on
  /// the crawl's own thread (not the one generate() runs on). Empty:
  /// nothing.
  std::function<void(const crawl_progress&)> progress;
};

/// A source that crawls `options.start_url`. validate() refuses a start
/// URL that is not an absolute http(s) URL.
std::shared_ptr<const record_source> crawl_source(crawl_options options);

}  // namespace sitemill

#endif  // SITEMILL_CRAWL_SOURCE_H
