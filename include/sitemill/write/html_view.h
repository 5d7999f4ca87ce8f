// sitemill: the HTML view of a sitemap set (generate --html), pages a
// person opens in any browser: no scripts, nothing fetched from elsewhere,
// readable with scripts disabled, printable. docs/browser-view.md shows
// the layout.
//
// These functions only format; generate reads the set's sitemaps back and
// decides what goes on which page. Every text taken from a sitemap is
// untrusted: it is escaped, and only an http(s) loc becomes a link.
#ifndef SITEMILL_HTML_VIEW_H
#define SITEMILL_HTML_VIEW_H

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sitemill {

/// Fields of one URL as its sitemap writes them. Borrowed for the call.
struct html_view_row {
  std::string_view loc;
  std::string_view lastmod;
  std::string_view changefreq;
  std::string_view priority;
};

/// Where a page of rows sits in the set, for its heading and links.
/// Borrowed for the call.
struct html_view_page {
  std::string_view front_page;     ///< the view's front page ("sitemap.html")
  std::string_view sitemap;        ///< the sitemap file the rows come from
  std::uint64_t first = 1;         ///< its first row's number in that sitemap
  std::uint64_t last = 0;          ///< its last row's number
  std::uint64_t sitemap_urls = 0;  ///< URLs in that sitemap
};

/// Appends a page's start: the document head, a heading naming the
/// sitemap and the rows' range, a link back to the front page, and the head
/// of the table whose id is "urls".
void append_html_page_start(std::string& out, const html_view_page& page);

/// Appends one row numbered `number`: the loc as a link (as text only when
/// it is not http or https), lastmod, changefreq, priority.
void append_html_row(std::string& out, std::uint64_t number,
                     const html_view_row& row);

/// Appends the end of a page begun with append_html_page_start().
void append_html_page_end(std::string& out);

/// One sitemap of the set on the front page.
struct html_view_file {
  std::string path;  ///< its name in the set (a link, relative)
  std::uint64_t urls = 0;
  std::string newest;              ///< its newest lastmod, "" when none
  std::vector<std::string> pages;  ///< the view's pages of its URLs
};

/// Appends the whole front page: the set's entry (a link), totals (files,
/// URLs), and a table (id "files") of its sitemaps with their URL counts,
/// newest lastmods and links to their pages.
void append_html_front_page(std::string& out, std::string_view entry,
                            std::span<const html_view_file> files);

}  // namespace sitemill

#endif  // SITEMILL_HTML_VIEW_H
