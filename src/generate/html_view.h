// The HTML view of a set (generate --html): its sitemaps read back through
// the one walker and parser, written as pages beside the set, published
// with it.
//
// Read back rather than written as entries go by: the view then shows
// exactly what was published (each file's final name, what the parser reads
// in it), the writer's hot path stays untouched, and memory holds one page
// at a time whatever the set's size. It costs one more read of the set.
#ifndef SITEMILL_GENERATE_HTML_VIEW_H
#define SITEMILL_GENERATE_HTML_VIEW_H

#include <cstddef>
#include <span>
#include <string>

#include "sitemill/publish/publish.h"
#include "sitemill/publish/set_assembly.h"
#include "sitemill/result.h"

namespace sitemill::detail {

/// Writes the view of `set` into temporaries of `pub` and appends them to
/// set.files: for each sitemap (urlset or text files, in order) pages of at
/// most `per_page` URLs named NAME-html-K-<12 hex digits of their
/// XXH3>.html (K counting over the set), then the front page NAME.html
/// (staged_file::fixed_name). `newest[i]` is the newest lastmod of the i-th
/// sitemap as written, "" for none.
[[nodiscard]] status stage_html_view(publisher& pub, const std::string& name,
                                     assembled_set& set,
                                     std::span<const std::string> newest,
                                     std::size_t per_page);

}  // namespace sitemill::detail

#endif  // SITEMILL_GENERATE_HTML_VIEW_H
