// sitemill: what a page, or its site's robots.txt, asks of the crawlers that
// read it, and which of those asks a source obeys. The directory source
// (source/site_source.h) and the crawler (crawl/crawl_source.h) apply the
// same rules, so they hold them in one struct with one sense: true obeys.
// Rules only one of them can apply (a meta refresh stub, an error page's
// file name) stay in that source's options.
#ifndef SITEMILL_HTML_PAGE_RULES_H
#define SITEMILL_HTML_PAGE_RULES_H

namespace sitemill {

/// The rules a source obeys; all on by default, as a search engine obeys
/// them.
struct page_rules {
  /// Skip a page that says noindex: <meta name="robots">, or for a fetched
  /// page its X-Robots-Tag header.
  bool honour_noindex = true;
  /// Skip a page whose <link rel="canonical"> names another URL.
  bool honour_canonical = true;
  /// robots.txt. The directory source skips the pages its Disallow lines
  /// keep from every crawler ('*'); the crawler fetches nothing it
  /// disallows for its user agent, waits its Crawl-delay, and crawls
  /// nothing while it cannot be read (RFC 9309 2.3.1.4).
  bool honour_robots = true;
  /// Follow no link of a nofollow page (meta robots or X-Robots-Tag) and
  /// no rel="nofollow" link. Only the crawler follows links; the directory
  /// source reads every file, so this rule changes nothing there.
  bool honour_nofollow = true;
};

}  // namespace sitemill

#endif  // SITEMILL_HTML_PAGE_RULES_H
