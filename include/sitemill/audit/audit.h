// sitemill: does a site's sitemap match the site? audit_site() finds the
// site's sitemaps (walk/site.h: robots.txt's Sitemap: lines, else the common
// locations), reads them through the one walker, crawls the site with the
// crawler (crawl/crawl_pages.h) and compares the two:
//   * orphans: sitemap URLs that no crawled page links to;
//   * missing: pages the crawl reached and would list (200, HTML, not
//     noindex, no canonical elsewhere) that no sitemap lists;
//   * not indexable: sitemap URLs that answer other than 200, redirect, are
//     noindex, name another URL as canonical, are disallowed by robots.txt,
//     cannot be fetched, or are on another host. The crawl's own verdict
//     where it judged the URL; the rest (orphans, and URLs the crawl found
//     but did not fetch: max pages, max depth, trap cap, too large) are
//     fetched and read as check --audit does (check/audit.h), politely,
//     robots.txt first.
// Each finding names its reason and, where a crawled page links to it, the
// first such page in the crawl's breadth-first order. docs/audit.md has the
// rules; report/audit_json.h and report/audit_html.h render the result.
//
// The crawl is crawl_options as generate --from-crawl takes them, except
// that it never seeds from sitemaps (an orphan is exactly a URL only a
// sitemap leads to). A crawl that renders pages is the crawler's business:
// whatever crawl_options asks, the audit compares what it reached.
//
// Memory: every distinct sitemap URL on the site (its text and about 120
// bytes, plus the linking page's URL for those the crawl found and did not
// fetch), every finding (its URL, message and linking page), and the
// crawl's own (crawl_source.h, crawl_pages.h); docs/scaling.md.
//
// Thread-safety: audit_site() may run on any thread; one run per call.
#ifndef SITEMILL_AUDIT_AUDIT_H
#define SITEMILL_AUDIT_AUDIT_H

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sitemill/crawl/crawl_source.h"
#include "sitemill/walk/walker.h"

namespace sitemill {

struct audit_options {
  /// The site's root URL ("https://www.example.com/"): its robots.txt and
  /// sitemaps are read, and the crawl starts there.
  std::string site_url;
  /// The crawl (start_url and seed_sitemaps are set by the audit). Its
  /// user agent, timeouts, resolve pins and allow_private serve the
  /// sitemaps' walk and the fetching of URLs the crawl did not judge too.
  crawl_options crawl;
  /// The sitemaps' walk: depth, documents, bytes, time, and its trace
  /// (each document and each common location looked at, one line).
  walk_caps walk;
  /// Distinct sitemap URLs held at most; past it the rest are counted
  /// (audit_report::sitemap_urls_dropped) and not compared.
  std::size_t max_sitemap_urls = 1'000'000;
  /// Set to stop the run; it ends within about 100 ms (nullptr: never).
  const std::atomic<bool>* stop = nullptr;
};

/// The classes of findings, for audit_report::count() and --fail-on.
enum class audit_class : std::uint8_t { orphan, missing, not_indexable };

/// One finding.
struct audit_finding {
  std::string url;
  /// orphan: "not_linked". missing: "not_in_sitemap". not indexable:
  /// "status", "redirect", "noindex", "canonical", "robots",
  /// "fetch_failed", "robots_unreadable" or "off_site".
  std::string reason;
  std::string message;  ///< the reason in words ("answers 404")
  /// The first crawled page that links to it (a redirect's target: the URL
  /// that redirected); "" when none does, or not known ("max depth").
  std::string linked_from;
  /// The sitemap that lists it; "" for a missing page.
  std::string sitemap;
  /// not indexable: "crawl" when the crawl judged it, "fetch" when it was
  /// fetched for the audit; "" otherwise.
  std::string judged_by;
};

struct audit_report {
  std::string site;  ///< the site's root URL, normalised
  /// The sitemaps found (robots.txt's, or those at common locations).
  std::vector<std::string> sitemaps;
  /// The sitemaps came from the common locations: robots.txt names none.
  bool discovered = false;
  std::uint64_t sitemap_documents = 0;     ///< sitemaps and indexes read
  std::uint64_t sitemap_urls = 0;          ///< distinct URLs they list
  std::uint64_t sitemap_urls_dropped = 0;  ///< past max_sitemap_urls
  std::uint64_t crawled_urls = 0;     ///< URLs the crawl reached or reported
  std::uint64_t indexable_pages = 0;  ///< pages the crawl would list
  std::uint64_t fetched = 0;          ///< sitemap URLs fetched for the audit
  /// In sitemap order (orphans, not_indexable) and crawl order (missing).
  std::vector<audit_finding> orphans, missing, not_indexable;
  /// What limits the comparison ("the crawl stopped at max_pages ...",
  /// "sitemap ... could not be read: ..."), in the order found.
  std::vector<std::string> notes;
  /// Why the audit could not be done (robots.txt unreadable, the crawl
  /// refused); "" when it was.
  std::string error;
  bool cancelled = false;

  std::size_t count(audit_class c) const noexcept {
    return c == audit_class::orphan    ? orphans.size()
           : c == audit_class::missing ? missing.size()
                                       : not_indexable.size();
  }
};

/// "orphans", "missing" or "not_indexable": the class's key in the JSON.
std::string_view to_string(audit_class c) noexcept;

/// The run's verdict: "cancelled", "unreadable" (the audit could not be
/// done: `error`), "failed" (a class in `fail_on` has a finding) or
/// "passed".
std::string_view audit_outcome(const audit_report& report,
                               std::span<const audit_class> fail_on) noexcept;

/// Runs the audit of `options.site_url`. A site_url that is not a site's
/// root http(s) URL is an error in the report, and nothing is fetched.
audit_report audit_site(const audit_options& options);

}  // namespace sitemill

#endif  // SITEMILL_AUDIT_AUDIT_H
