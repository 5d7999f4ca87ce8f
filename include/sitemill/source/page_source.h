// sitemill: pages a program already holds, as a source, so that one call
// publishes a whole set (split files, an index, gzip, atomic publish):
// clang-format off
//
//   sitemill::generate_options g;
//   g.base_url = "https://www.example.com/";
//   g.out_dir = "public";
//   std::size_t i = 0;
//   g.sources = {sitemill::page_source("catalogue", [&](sitemill::page& p) {
//     if (i == products.size()) return false;  // no more pages
//     p.loc = products[i].path;         // relative to base_url, or absolute
//     p.lastmod = products[i++].updated;  // a W3C datetime, or empty
//     return true;
//   })};
//   sitemill::generate_observer quiet;
//   sitemill::generate_report r = sitemill::generate(g, quiet);
// clang-format on
//
// Pages are asked for one at a time, so memory stays flat however many a
// program streams from its database. Every page goes through the same
// normaliser, checks, dedup and writer as a line of a URL list; what is
// wrong with one is in the report (rejected, with the page's number as its
// line), never thrown.
//
// Thread-safety: `next` is called on generate()'s reader thread, one call at
// a time, and only during generate().
#ifndef SITEMILL_SOURCE_PAGE_SOURCE_H
#define SITEMILL_SOURCE_PAGE_SOURCE_H

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sitemill/source/record_source.h"

namespace sitemill {

/// One page, owning its text. Empty fields are absent.
struct page {
  std::string loc;  ///< absolute, or relative to the run's base URL
  std::string lastmod;
  std::string changefreq;
  std::string priority;
  /// hreflang alternates: {hreflang, href}; include the page's own.
  std::vector<std::pair<std::string, std::string>> alternates;
  std::vector<std::string> images;  ///< image:loc of each image
};

/// Fills the page it is given (cleared before each call) and returns true,
/// or returns false when there are no more pages.
using page_generator = std::function<bool(page&)>;

/// A source that asks `next` for pages; `name` names it in reports.
std::shared_ptr<const record_source> page_source(std::string name,
                                                 page_generator next);

}  // namespace sitemill

#endif  // SITEMILL_SOURCE_PAGE_SOURCE_H
