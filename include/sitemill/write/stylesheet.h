// sitemill: the bundled XSL stylesheet that generate --xsl default writes
// beside a set, so that a browser which still applies XSLT shows each
// sitemap and index as a table (docs/browser-view.md).
#ifndef SITEMILL_STYLESHEET_H
#define SITEMILL_STYLESHEET_H

#include <string>
#include <string_view>

namespace sitemill {

/// The bytes of sitemill's own XSLT 1.0 stylesheet (stylesheets/sitemap.xsl,
/// compiled into the library). Lives as long as the program.
std::string_view bundled_stylesheet() noexcept;

/// Its file name beside the set called `set_name`:
/// "<set_name>-<the low 12 hex digits of its XXH3-64>.xsl". Named after its
/// content like a set's children, so a newer sitemill never rewrites a file
/// the live set refers to (publisher: same name, same bytes), and per set,
/// so sets sharing a directory never share it.
std::string bundled_stylesheet_name(std::string_view set_name);

}  // namespace sitemill

#endif  // SITEMILL_STYLESHEET_H
