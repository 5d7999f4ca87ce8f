// sitemill: what the directory source needs to know about an HTML page,
// read with a real HTML5 parser (gumbo), never with patterns over the text.
//
// noindex: a <meta name="robots"> (name in any case, anywhere in the
//   document) whose content, split at commas, has a token "noindex" or
//   "none" (any case, spaces ignored). Crawler-specific names such as
//   "googlebot" are not read: the sitemap is for every crawler.
// canonical: the href of the first <link rel="canonical"> inside <head>
//   (rel is a list of words; any case). Google ignores one in <body>, and so
//   does this. The href is returned raw; the caller resolves it.
// content hash (XXH3-128), version 1. The document is parsed as HTML5
//   (so markup that parses to the same tree hashes the same) and walked in
//   document order. Hashed:
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

#include <cstdint>
#include <string>
#include <string_view>

namespace sitemill {

/// A 128-bit content hash (XXH3-128).
struct content_hash {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  bool operator==(const content_hash&) const = default;
};

/// XXH3-128 of `bytes` as they are (for files other than HTML).
content_hash hash_bytes(std::string_view bytes) noexcept;

/// What scan_html() found.
struct html_facts {
  bool noindex = false;
  bool has_canonical = false;  ///< a <link rel=canonical> with an href
  std::string canonical;       ///< its href, raw (trimmed of whitespace)
  content_hash hash;           ///< of the content, as the header describes
};

/// Parses `html` (UTF-8; invalid bytes are read as U+FFFD) and reports its
/// robots meta, canonical link and content hash. Never fails: HTML5 parsing
/// recovers from any input. Thread-safe.
html_facts scan_html(std::string_view html);

}  // namespace sitemill

#endif  // SITEMILL_HTML_PAGE_H
