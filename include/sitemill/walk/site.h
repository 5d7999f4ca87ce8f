// sitemill: the sitemaps a whole site announces. A target such as
// "https://www.example.com/" names a site, not a sitemap: its robots.txt is
// fetched, and the sitemaps its Sitemap: lines name (or /sitemap.xml when it
// names none) are walked as the robots.txt's children. check reports the
// robots.txt as a document of its own; stats, diff and report count what the
// sitemaps hold. One piece of code finds them for all.
#ifndef SITEMILL_WALK_SITE_H
#define SITEMILL_WALK_SITE_H

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

/// What a site's robots.txt says about its sitemaps.
struct site_sitemaps {
  /// The robots.txt as fetched; no response when the request failed
  /// (`error` says why) or the walk stopped while it was fetched (`stop`
  /// says how, and nothing below is filled).
  walk_text robots;
  /// About the robots.txt: find_sitemaps()'s, a status that is not 200, no
  /// Sitemap: line, or the fetch that failed ("fetch-failed").
  std::vector<diagnostic> diagnostics;
  /// What to walk (walk_listed()) as the robots.txt's children: its
  /// Sitemap: lines, or /sitemap.xml when it names none.
  std::vector<walk_link> links;
  /// The Sitemap: lines that name a URL (links holds them, deduplicated).
  std::size_t named = 0;
  /// links is /sitemap.xml because the robots.txt named none.
  bool fallback = false;
  /// The robots.txt could not be fetched at all: nothing to walk.
  bool unreadable = false;
};

/// Fetches the robots.txt of `site` (which admit() let in as
/// site_robots_document(site)) through `walker` and finds its sitemaps.
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
