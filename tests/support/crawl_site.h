// A scripted loopback web site for the crawler's acceptance tests (issue 12):
// a few thousand interlinked pages with every trap a crawler meets, and the
// exact answer a correct crawler gives for it, so a test compares sets
// instead of eyeballing a crawl.
//
// The site lives at crawl_site::start_url(), "http://localhost:PORT/site/",
// on an http_server (127.0.0.1; "localhost" so that a link may spell the host
// in upper case, and so that http://127.0.0.1:PORT/ is another host on the
// same server: a crawler that fetches it shows in the request log). It is a
// fixed function of crawl_site_options (a fixed seed): one model of pages,
// which the server renders and expected_urls() crawls.
//
// THE RULES A CORRECT CRAWLER FOLLOWS (crawl_with() is them, in code):
//  * URLs. A link's href (entities decoded, as HTML does) is resolved against
//    the page's URL, or against the page's <base href> (itself resolved
//    against the page's URL) when it has one; a redirect's Location against
//    the redirecting URL. The result is normalised as every <loc> is
//    (sitemill::resolve_url: fragment dropped, host lowercased, %xx
//    uppercased, non-ASCII percent-encoded, dot segments removed), then
//    session ids are removed (crawl_url()). Anything that is not http(s)
//    (mailto:, javascript:, tel:) or does not resolve is ignored.
//  * Scope: sitemill::within_scope(url, start): the start URL's scheme, host
//    and port, and a path under its directory ("/site/"). Out-of-scope URLs
//    are never fetched and are not in expected_skips().
//  * Links: only <a href> elements are links (not <link rel=canonical>, not
//    <img>). A link whose rel has the word "nofollow" is not followed; a page
//    with <meta name="robots" content="nofollow"> (or "none", or the same in
//    an X-Robots-Tag header) has none of its links followed. Links are read
//    only from a final 200 text/html response no larger than the byte cap;
//    never from text/plain, JSON, PDF or a page over the cap (not even its
//    first bytes).
//  * Order: one FIFO queue. The start URL is discovered first (depth 0);
//    with seed_sitemaps, then each <loc> of each sitemap robots.txt names
//    (Sitemap: lines, in file order; nothing else is guessed), in document
//    order, depth 0. A page's links are discovered in document order, at its
//    depth + 1, when it is fetched in queue order; a redirect's in-scope
//    target is discovered when the redirect is fetched, at the redirect's
//    own depth. "Discovery order" is this order, whatever the crawler's
//    concurrency: a concurrent crawler must reproduce it where the caps
//    below make it matter.
//  * Discovery of an in-scope URL, checks in this order:
//      1. already seen: nothing;
//      2. depth > max_depth: nothing, and it is not marked seen (a shorter
//         path may reach it later; a URL never enqueued is skipped "max
//         depth");
//      3. robots.txt (respect_robots, the group for user-agent "sitemill",
//         RFC 9309 matching on path and query): seen, skipped "robots", not
//         fetched;
//      4. trap cap: a URL with a query is a query variant of its path (a URL
//         whose query was only session ids has none). When its path already
//         has max_query_variants distinct variants, it is seen, skipped
//         "trap cap", not fetched; otherwise it counts as one of them. URLs
//         that steps 1-3 stopped do not count;
//      5. otherwise seen and enqueued.
//  * Fetching: in queue order; at most max_pages fetches (robots.txt and
//    sitemaps do not count; retries do not count), the rest of the queue is
//    skipped "max pages". A 429 or 503 is retried (after Retry-After when
//    given) and judged by its final answer; this site answers each of them
//    once, then 200.
//  * Judging a fetched URL, first that applies:
//      3xx with a Location: "redirect" (never listed; its target discovered
//      as above, so a redirect to another host or to a seen URL ends there);
//      a status other than 200: "status N";
//      a Content-Type whose media type is not text/html (parameters such as
//      charset=ISO-8859-1 do not matter): "not html";
//      a body over max_response_bytes: "too large" (links not read);
//      noindex by <meta name="robots"> or X-Robots-Tag ("noindex" or
//      "none"): "noindex" (links still followed);
//      a <link rel="canonical"> in <head> that resolves (as links do) to
//      another URL: "canonical" (links still followed);
//      otherwise listed, with lastmod = Last-Modified when the page sends
//      one.
// A page that sends Last-Modified answers 304, without a body, to a request
// whose If-Modified-Since names that date (a re-crawl's conditional ask).
// A URL reached only through rel=nofollow links or nofollow pages is never
// discovered, so it is neither listed nor in expected_skips().
//
// Thread-safety: a crawl_site is immutable once constructed, apart from the
// server's once-only answers (429, 503), which are counted under a lock; the
// const members may be called from any thread.
#ifndef SITEMILL_TESTS_SUPPORT_CRAWL_SITE_H
#define SITEMILL_TESTS_SUPPORT_CRAWL_SITE_H

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/url/url.h"
#include "support/http_server.h"

namespace sitemill::testing {

/// No limit, for crawl_expectations' counts.
inline constexpr std::size_t crawl_unlimited = static_cast<std::size_t>(-1);

/// What makes one site: change a value and the answer changes with it.
struct crawl_site_options {
  /// Ordinary pages (/site/sK/pI.html, a 3-ary tree from /site/s0/p0.html
  /// plus two seeded cross links each). At least 20: the traps link to some.
  std::size_t pages = 2000;
  std::uint32_t seed = 12;
  /// How long /site/slow waits before it answers.
  std::chrono::milliseconds slow_delay{2000};
  /// Body bytes of /site/huge (sent chunked, no Content-Length).
  std::size_t huge_bytes = 3 * 1024 * 1024;
};

/// The crawl options that change the answer. Defaults are the site's
/// reference crawl, not necessarily the crawler's own defaults: a test
/// passes the crawler the same values.
struct crawl_expectations {
  std::size_t max_pages = crawl_unlimited;  ///< fetches of queued URLs
  std::size_t max_depth = crawl_unlimited;  ///< links from the start URL
  /// Distinct query strings per path (the calendar and shop traps).
  /// crawl_unlimited needs max_pages or max_depth: the calendar never ends.
  std::size_t max_query_variants = 5;
  bool seed_sitemaps = false;  ///< also start from robots.txt's sitemaps
  bool respect_robots = true;
  std::uint64_t max_response_bytes = 2 * 1024 * 1024;
};

/// One <a href> of a page, as written (entities decoded).
struct crawl_link {
  std::string href;
  bool nofollow = false;  ///< its rel has the word "nofollow"
  bool operator==(const crawl_link&) const = default;
};

/// What one GET of a URL tells a crawler: the facts the rules read. The
/// model (crawl_site::model_fetch()) and a test's reading of the real HTTP
/// answer fill the same struct, so they can be compared field by field.
struct crawl_fetch {
  int status = 0;            ///< the final answer (after 429/503 retries)
  std::string location;      ///< a redirect's Location, as sent
  std::string content_type;  ///< as sent
  std::uint64_t body_bytes = 0;
  bool noindex = false;           ///< meta robots or X-Robots-Tag
  bool nofollow = false;          ///< meta robots or X-Robots-Tag
  std::string canonical;          ///< raw href of <link rel=canonical>, or ""
  std::string base;               ///< raw <base href>, or ""
  std::vector<crawl_link> links;  ///< HTML only, in document order
  std::optional<std::chrono::sys_seconds> last_modified;
  /// The body of a text/plain or XML answer (robots.txt, the sitemap, the
  /// text file): what a crawler reads Sitemap: lines and <loc>s from.
  std::string text;
  bool operator==(const crawl_fetch&) const = default;
};

/// What a crawl by the rules gives.
struct crawl_result {
  std::vector<std::string> listed;                          ///< sorted
  std::map<std::string, std::string> skipped;               ///< URL -> reason
  std::vector<std::string> fetched;                         ///< in fetch order
  std::map<std::string, std::chrono::sys_seconds> lastmod;  ///< listed only
};

/// GETs one absolute URL for crawl_with().
using crawl_fetcher = std::function<crawl_fetch(const std::string& url)>;

/// The URL a correct crawler keeps for `href` found on (or redirected to
/// from) `base`: resolved, normalised, session ids removed (a query
/// parameter named PHPSESSID, sid, sessionid, session_id or jsessionid, and a
/// ";jsessionid=..." path parameter, names in any case; a query left empty
/// goes with its '?'). "" when it is not a usable http(s) URL.
std::string crawl_url(std::string_view href, const normalized_url& base);

/// True when `content_type`'s media type is text/html, in any case and
/// whatever its parameters ("text/html; charset=ISO-8859-1").
bool is_html_type(std::string_view content_type);

class crawl_site {
 public:
  /// Builds the model and starts serving it. Throws as http_server does.
  explicit crawl_site(crawl_site_options options = {});
  ~crawl_site();
  crawl_site(const crawl_site&) = delete;
  crawl_site& operator=(const crawl_site&) = delete;

  /// "http://localhost:PORT/site/": where a crawl starts (and the base URL).
  std::string start_url() const;
  /// "http://localhost:PORT" followed by `path_and_query`.
  std::string url(std::string_view path_and_query) const;
  /// "localhost:PORT:127.0.0.1", for http_options::resolve or curl's
  /// --resolve, should a client not resolve localhost itself.
  std::string resolve_entry() const;
  /// The server, for its request log.
  http_server& server() noexcept { return *server_; }
  const crawl_site_options& options() const noexcept { return options_; }

  /// The exact set of URLs a correct crawler lists, sorted.
  std::vector<std::string> expected_urls(const crawl_expectations& x) const;
  /// Every in-scope URL a correct crawler discovers and does not list, with
  /// its reason: "redirect", "status 404" (410, 500), "not html", "too
  /// large", "noindex", "canonical", "robots", "trap cap", "max depth",
  /// "max pages".
  std::map<std::string, std::string> expected_skips(
      const crawl_expectations& x) const;
  /// The Last-Modified the page at `url` sends, when it sends one.
  std::optional<std::chrono::sys_seconds> expected_lastmod(
      std::string_view url) const;

  /// What the server answers for `url` in the end (after any 429 or 503),
  /// from the model, without a request. Status 404 for what it does not
  /// serve.
  crawl_fetch model_fetch(const std::string& url) const;
  /// A crawl from start_url() by the rules above, fetching through `fetch`
  /// (model_fetch for expected_urls(); a test passes real HTTP). Throws
  /// std::invalid_argument for an unbounded crawl (no max_query_variants,
  /// max_pages or max_depth: the calendar is infinite).
  crawl_result crawl_with(const crawl_expectations& x,
                          const crawl_fetcher& fetch) const;

  struct page;  // one resource of the model (crawl_site.cpp)

 private:
  std::shared_ptr<const page> lookup(std::string_view path_and_query) const;
  http_reply answer(const recorded_request& request);

  crawl_site_options options_;
  std::map<std::string, std::shared_ptr<const page>, std::less<>> pages_;
  std::mutex once_mu_;
  std::map<std::string, int, std::less<>> answered_;  // once-only statuses
  std::unique_ptr<http_server> server_;  // last: stops before the model goes
};

}  // namespace sitemill::testing

#endif  // SITEMILL_TESTS_SUPPORT_CRAWL_SITE_H
