// sitemill: what the directory source and the crawler need to know about an
// HTML page, read as the HTML standard parses it (src/html/html_tree.h:
// its tokenizer, and its tree construction but for the parts that only move
// malformed markup around), never with patterns over the text.
//
// noindex: a <meta name="robots"> (name in any case, anywhere in the
//   document) whose content, split at commas, has a token "noindex" or
//   "none" (any case, spaces ignored). Crawler-specific names such as
//   "googlebot" are not read: the sitemap is for every crawler.
// canonical: the href of the first <link rel="canonical"> inside <head>
//   (rel is a list of words; any case). Google ignores one in <body>, and so
//   does this. The href is returned raw; the caller resolves it.
// base: the href of the first <base href> of the document (as browsers
//   read it), raw.
// hreflang alternates: every <link rel="alternate" hreflang="..." href>
//   inside <head> (rel a list of words, any case), in document order; not
//   one with a `type` other than text/html (a feed in a language is not a
//   language version of the page). Google reads them in <head> only. Raw.
// images, when asked (html_scan_options::images): one reference per
//   content image, raw, distinct, in document order:
//   * <img>: of its srcset's candidates and its src, the largest, chosen
//     as the HTML standard's source set: by `w` descriptor when srcset has
//     any, else by `x` density (no descriptor is 1x, and src counts as 1x
//     when srcset has no 1x). A lazy-loading <img> (data-src or
//     data-srcset) is read from those instead of src and srcset, which
//     then hold a placeholder. An <img> whose width or height attribute is
//     0 or 1 (a tracking pixel, a spacer) is not read;
//   * <meta property="og:image"> and "og:image:url" (anywhere), their
//     content; og:image:secure_url is not read (the https twin of
//     og:image, one picture);
//   * <picture><source srcset> is not read: its <img> is the picture, the
//     sources the same picture in other formats or sizes;
//   * data: URIs are never taken (an inline placeholder, nothing to list).
// meta refresh: the first <meta http-equiv="refresh"> (anywhere, any case)
//   whose content names a URL, read as the HTML standard's declarative
//   refresh ("0; url=/new/", "5;URL='/new/'"): its URL, raw, and its delay
//   in whole seconds. One that only reloads ("300") is no refresh here.
// stated dates, when asked (html_scan_options::dates), the first of each
//   kind, raw (trimmed), anywhere in the
//   document: <meta property="article:modified_time" content>, JSON-LD
//   "dateModified" (a <script type="application/ld+json"> whose top-level
//   object, items of a top-level array, or items of an "@graph" array of
//   either has one as a string; parsed with nlohmann::json, the project's
//   JSON library), <meta itemprop="dateModified" content> or
//   <time itemprop="dateModified" datetime>, <meta property="og:updated_time">
//   and <meta name="lastmod">. The caller reads them as dates.
// scripts and text: how many <script> elements the page has, and how many
//   bytes of text, whitespace aside, the content hash reads (below): a page
//   with scripts and next to no text or links is built by its scripts.
// title: the text of the document's first <title> in the HTML namespace
//   (an SVG <title> names a drawing, not the page), as the HTML standard's
//   document.title gives it: whitespace stripped and collapsed to single
//   spaces; empty when there is none. The directory source reads it to
//   tell an error page from a page that is only numbered like one.
// content hash (XXH3-128), version 1. The document is parsed as HTML5
//   (so markup that parses to the same tree hashes the same) and walked in
//   document order; the content of a <template> is no part of it. Hashed:
//   * every element's name, where it opens and where it closes;
//   * of its attributes only those that carry content or links: alt,
//     content, href, poster, src, srcset, title (value whitespace-collapsed);
//   * text, with every run of whitespace collapsed to one space; text that
//     is only whitespace is dropped.
//   Not hashed (the volatile part of a build, and presentation):
//   * comments, and <script>, <style>, <noscript> and <template> elements
//     with all they contain;
//   * <meta> other than name="description" and name="robots", <link> other
//     than rel="canonical", and <base>: generator stamps, fingerprinted
//     stylesheet and preload links, build dates;
//   * every other attribute (class, id, style, data-*, nonce, integrity...);
//   * any element carrying the attribute `data-sitemill-ignore`, with all
//     it contains: mark a "built at 12:03" footer this way;
//   * the doctype, and whitespace differences of any kind (indentation,
//     line ends, minification).
//   So a rebuild that only renames hashed assets, reorders classes or stamps
//   a build time keeps the hash; a changed word, link, image or title
//   changes it.
#ifndef SITEMILL_HTML_PAGE_H
#define SITEMILL_HTML_PAGE_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sitemill {

/// A 128-bit content hash (XXH3-128).
struct content_hash {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  bool operator==(const content_hash&) const = default;
};

/// XXH3-128 of `bytes` as they are (for files other than HTML).
content_hash hash_bytes(std::string_view bytes) noexcept;

/// An hreflang alternate as a page's <head> names it.
struct html_alternate {
  std::string hreflang;  ///< raw, trimmed of whitespace
  std::string href;      ///< raw, trimmed of whitespace
  bool operator==(const html_alternate&) const = default;
};

/// A link a crawler may follow: an <a href> (or <area href>) of the page.
struct html_link {
  std::string href;       ///< raw, trimmed of whitespace
  bool nofollow = false;  ///< its rel has the word "nofollow"
  bool operator==(const html_link&) const = default;
};

/// Where a page states the date it was last modified, in the order a
/// caller should prefer them (site_source's --lastmod page).
enum class stated_date_kind : std::uint8_t {
  article_modified_time,   ///< <meta property="article:modified_time">
  json_ld_date_modified,   ///< JSON-LD "dateModified"
  itemprop_date_modified,  ///< microdata itemprop="dateModified"
  og_updated_time,         ///< <meta property="og:updated_time">
  meta_lastmod,            ///< <meta name="lastmod">
};
inline constexpr std::size_t stated_date_kinds = 5;

/// The markup a kind names, for messages ("article:modified_time").
std::string_view describe(stated_date_kind kind) noexcept;

/// What scan_html() reads besides what it always reads.
struct html_scan_options {
  /// Collect the page's content images (html_facts::images).
  bool images = false;
  /// Read the dates the page states (html_facts::stated_dates): parsing its
  /// JSON-LD costs time a walk that does not date pages can keep.
  bool dates = false;
  /// Distinct image references kept per page; past it they are only
  /// counted (html_facts::images_truncated), so memory stays bounded
  /// whatever the page. Twice Google's 1,000 per URL, so that two
  /// spellings of one image (relative, absolute) cannot cost a page its
  /// 1,000th.
  std::size_t max_images = 2000;
  /// Collect the page's links (html_facts::links), for a crawler.
  bool links = false;
  /// Links kept per page; past it they are only counted
  /// (html_facts::links_truncated), so memory stays bounded whatever the
  /// page.
  std::size_t max_links = 10000;
};

/// What scan_html() found. Every URL is raw (as written, entities decoded,
/// trimmed): page_links (src/html/page_links.h) resolves them.
struct html_facts {
  bool noindex = false;        ///< <meta name="robots"> says noindex or none
  bool nofollow = false;       ///< <meta name="robots"> says nofollow or none
  bool has_canonical = false;  ///< a <link rel=canonical> with an href
  std::string canonical;       ///< its href
  bool has_base = false;       ///< a <base> with an href
  std::string base;            ///< its href
  /// <link rel="alternate" hreflang> of <head>, in document order.
  std::vector<html_alternate> alternates;
  /// Content images, distinct, in document order (only when asked).
  std::vector<std::string> images;
  /// More distinct image references than html_scan_options::max_images.
  bool images_truncated = false;
  /// <a href> and <area href> links, in document order, repeats included
  /// (an <a href> left open across a block is reopened after it, as the
  /// HTML standard's tree has it, and read again; only when asked).
  std::vector<html_link> links;
  /// More links than html_scan_options::max_links.
  bool links_truncated = false;
  /// A <meta http-equiv="refresh"> that names a URL.
  bool has_refresh = false;
  std::string refresh_url;  ///< its URL, raw
  /// Its delay in whole seconds ("0.5" is 0; at most 2^32 - 1): search
  /// engines take only an instant refresh (0) for a redirect.
  std::uint32_t refresh_seconds = 0;
  /// The dates the page states, raw, indexed by stated_date_kind; empty
  /// where the page states none of that kind (all empty unless asked).
  std::array<std::string, stated_date_kinds> stated_dates;
  /// The first <title>'s text, whitespace collapsed; empty when none.
  std::string title;
  /// <script> elements in the HTML namespace, outside <template>: with
  /// `links` and `text_bytes`, what tells a page a script builds (a
  /// single-page app's shell) from one its HTML holds.
  std::uint32_t scripts = 0;
  /// Bytes of the text the content hash reads (the title's included;
  /// never a script's, a style's or a <noscript>'s), whitespace not
  /// counted: how much a reader of the HTML alone sees.
  std::uint64_t text_bytes = 0;
  content_hash hash;  ///< of the content, as the header describes
};

/// Parses `html` (UTF-8; invalid bytes are read as U+FFFD) in one walk and
/// reports its robots meta, canonical link, base, hreflang alternates,
/// images when `options` ask, meta refresh, stated dates, title, scripts,
/// text bytes and content hash.
/// Never fails: HTML5 parsing recovers from any input. Thread-safe.
html_facts scan_html(std::string_view html,
                     const html_scan_options& options = {});

}  // namespace sitemill

#endif  // SITEMILL_HTML_PAGE_H
