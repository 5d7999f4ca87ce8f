// sitemill: the sitemaps a whole site announces. A target such as
// "https://www.example.com/" names a site, not a sitemap: its robots.txt is
// fetched, and the sitemaps its Sitemap: lines name are walked as the
// robots.txt's children. When it names none (or there is none), the common
// locations (common_sitemap_paths) are looked at, as ultimate-sitemap-parser
// does, and those that answer a sitemap are walked instead. check reports
// the robots.txt as a document of its own; stats, diff, report and audit
// count what the sitemaps hold; the crawler seeds from them. One piece of
// code finds them for all.
#ifndef SITEMILL_WALK_SITE_H
#define SITEMILL_WALK_SITE_H

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/diagnostic.h"
#include "sitemill/robots/robots.h"
#include "sitemill/url/url.h"
#include "sitemill/walk/walker.h"

namespace sitemill {

/// True, filling `site`, when `target` is an http(s) URL whose path and
/// query are "/" (the root of a site); any other URL names a document.
bool names_site(std::string_view target, normalized_url& site);

/// The robots.txt of a site, as walk_listed() takes it.
walk_document site_robots_document(const normalized_url& site);

/// Where a site's sitemap is looked for when its robots.txt names none, in
/// this order: where CMSs and generators publish one (Yoast and Rank Math
/// write /sitemap_index.xml, WordPress itself /wp-sitemap.xml, most others
/// /sitemap.xml, some gzipped or in a folder of their own), kept short since
/// each is a request. docs/audit.md lists them.
inline constexpr std::string_view common_sitemap_paths[] = {
    "/sitemap.xml",         "/sitemap_index.xml",    "/sitemap-index.xml",
    "/sitemap.xml.gz",      "/sitemap_index.xml.gz", "/wp-sitemap.xml",
    "/sitemap/sitemap.xml", "/sitemap.txt",
};

/// Bytes of a common location's body looked at: enough for an XML
/// declaration, a stylesheet instruction and a comment before the root.
inline constexpr std::size_t sitemap_probe_bytes = 16 * 1024;

/// What looking at one common location found.
struct sitemap_probe {
  std::string url;     ///< the location looked at
  long status = 0;     ///< its answer's; 0 when the request failed
  bool found = false;  ///< it answers a sitemap, walked as one
  /// Why it is or is not one, for -v and messages: "a urlset", "HTTP 404",
  /// "an HTML page (a soft 404)", "the same as https://...", "fetch failed:
  /// ...".
  std::string verdict;
};

/// Looks at the common locations of `site` (common_sitemap_paths), each
/// with sitemap_walker::peek() under the walk's scope and caps, and returns
/// those that answer 200 with a sitemap the one parser recognises (a
/// urlset, an index, a feed, or a text sitemap whose first line is a URL),
/// as walk_listed() takes them, listed by `robots_url` at line 0. An HTML
/// page (a soft 404), another status or anything else is not one; a
/// location that redirects to one found before is the same sitemap. Each
/// look is told in `probes` and to the walk's trace (walk_caps::trace).
/// `before_each` (may be empty) is called before each request: the crawl
/// keeps its Crawl-delay there. Stops early when the walk stops.
std::vector<walk_link> probe_common_sitemaps(
    sitemap_walker& walker, const normalized_url& site,
    const std::string& robots_url, std::vector<sitemap_probe>& probes,
    const std::function<void()>& before_each = {});

/// What a site's robots.txt says about its sitemaps.
struct site_sitemaps {
  /// The robots.txt as fetched; no response when the request failed
  /// (`error` says why) or the walk stopped while it was fetched (`stop`
  /// says how, and nothing below is filled).
  walk_text robots;
  /// About the robots.txt: find_sitemaps()'s, a status that is not 200, no
  /// Sitemap: line, the fetch that failed ("fetch-failed"), or no sitemap
  /// at any common location either ("no-sitemap-found", an error).
  std::vector<diagnostic> diagnostics;
  /// What to walk (walk_listed()) as the robots.txt's children: its
  /// Sitemap: lines, or the common locations that answer a sitemap when
  /// it names none.
  std::vector<walk_link> links;
  /// The Sitemap: lines that name a URL (links holds them, deduplicated).
  std::size_t named = 0;
  /// links are common locations because the robots.txt named none.
  bool fallback = false;
  /// The common locations looked at (none when robots.txt named a sitemap).
  std::vector<sitemap_probe> probes;
  /// The robots.txt could not be fetched at all: nothing to walk.
  bool unreadable = false;
};

/// Fetches the robots.txt of `site` (which admit() let in as
/// site_robots_document(site)) through `walker` and finds its sitemaps:
/// its Sitemap: lines, else probe_common_sitemaps().
/// `target` is the site as the user wrote it, for messages.
site_sitemaps find_site_sitemaps(sitemap_walker& walker,
                                 const normalized_url& site,
                                 std::string_view target);

/// The sitemaps `found` names, as walk_listed() takes them: `robots_url`
/// is the robots.txt's URL (their listing), `answered` the origin that
/// answered it (after redirects); a sitemap on another origin is a
/// cross-submit. find_site_sitemaps() and the crawler's seeds (which fetch
/// the robots.txt themselves) both make their links here.
std::vector<walk_link> listed_sitemaps(const robots_sitemaps& found,
                                       const std::string& robots_url,
                                       const normalized_url& answered);

}  // namespace sitemill

#endif  // SITEMILL_WALK_SITE_H
