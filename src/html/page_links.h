// sitemill internals: an HTML page's links resolved against its URL, the
// one place where what scan_html() read raw becomes URLs a source lists:
// the canonical link, the hreflang alternates, the images and a crawler's
// links. The directory source (source/) uses it for files, the crawler
// (crawl/) and check --audit (check/) for fetched pages.
//
// Resolution is a browser's: against the page's URL, or against the
// document's <base href> when it has one (itself resolved against the
// page's URL). Every URL comes out normalised (sitemill/url/url.h).
//   * canonical: resolved; one that is not a usable http(s) URL is noted
//     and ignored.
//   * meta refresh: its URL resolved the same way; one that is not a
//     usable http(s) URL is noted and ignored.
//   * hreflang alternates: each (hreflang, href) pair becomes one
//     <xhtml:link> item, the hreflang raw (the entry stage judges it), the
//     href resolved. Hosts other than the page's are kept: hreflang may
//     cross sites. An href that does not resolve is noted and left out.
//   * images: each reference resolved, absolute http(s) only, distinct
//     after normalisation, in the page's order, one <image:image> item with
//     its loc each, at most 1,000 (Google's limit per URL; past it the rest
//     are left out with a note). Any host: images may live on a CDN, and
//     the sitemaps.org location rule is about <loc>, not images. A
//     reference of another scheme (blob:, about:blank: a placeholder) is
//     left out silently, one that does not resolve with a note.
//
//   * links (<a href>, for a crawler): resolved the same way, in document
//     order; one that does not resolve to an http(s) URL is left out.
//
// Memory: the current page's links only; reused from page to page.
// Not thread-safe: one per reader.
#ifndef SITEMILL_HTML_PAGE_LINKS_H
#define SITEMILL_HTML_PAGE_LINKS_H

#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include "sitemill/entry/extensions.h"
#include "sitemill/html/html_page.h"
#include "sitemill/url/url.h"

namespace sitemill::detail {

/// What page_links::resolve() reads of the facts.
struct page_link_options {
  bool canonical = true;   ///< resolve the canonical link
  bool refresh = true;     ///< resolve the meta refresh's URL
  bool alternates = true;  ///< hreflang alternates
  bool images = false;     ///< images (html_facts::images)
  bool links = false;      ///< a crawler's links (html_facts::links)
};

/// A link of the page, resolved and normalised (its fragment dropped).
struct resolved_link {
  std::string href;
  bool nofollow = false;  ///< rel="nofollow"
};

class page_links {
 public:
  /// Resolves `facts` of the page at `page` (a normalised URL), replacing
  /// what the previous call held.
  void resolve(const normalized_url& page, const html_facts& facts,
               const page_link_options& options);

  /// The canonical link, resolved and normalised; empty when the page has
  /// none, it was not asked for, or it is unusable (then a note says why).
  const normalized_url& canonical() const noexcept { return canonical_; }

  /// The meta refresh's URL, resolved and normalised; empty when the page
  /// has none, it was not asked for, or it is unusable (a note says why).
  const normalized_url& refresh() const noexcept { return refresh_; }

  /// The alternates, then the images, as extension values (items numbered
  /// from 0, values of one item adjacent), raw for the entry stage to
  /// judge. Views into this object, valid until the next resolve().
  std::span<const extension_value> extensions() const noexcept {
    return values_;
  }

  /// The page's links, in document order, repeats kept; those that do not
  /// resolve to an http(s) URL (mailto:, javascript:, tel:) left out
  /// without a note. Empty unless asked.
  const std::vector<resolved_link>& links() const noexcept { return links_; }

  /// Things a user should hear about this page, each one sentence without
  /// the page's name ("canonical link \"ftp://x\" ignored: ...").
  const std::vector<std::string>& notes() const noexcept { return notes_; }

 private:
  void add(extension_field_id field, std::uint32_t item, std::string_view text);

  normalized_url base_, canonical_, refresh_, scratch_;
  struct pending {  // an extension value, its text in text_
    extension_field_id field;
    std::uint32_t item;
    std::size_t begin, size;
  };
  std::vector<pending> pending_;
  std::string text_;
  std::vector<extension_value> values_;
  std::unordered_set<std::string> seen_images_;
  std::vector<resolved_link> links_;
  std::vector<std::string> notes_;
};

}  // namespace sitemill::detail

#endif  // SITEMILL_HTML_PAGE_LINKS_H
