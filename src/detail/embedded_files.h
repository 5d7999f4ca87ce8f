// Files compiled into the library (the official schemas, and the stylesheet
// generate --xsl default writes), so validation needs neither the file
// system nor the network, and the stylesheet ships inside the binary.
#ifndef SITEMILL_DETAIL_EMBEDDED_FILES_H
#define SITEMILL_DETAIL_EMBEDDED_FILES_H

#include <span>
#include <string_view>

namespace sitemill::detail {

struct embedded_file {
  std::string_view name;  ///< file name in schemas/ ("sitemap.xsd") or
                          ///< stylesheets/ ("sitemap.xsl")
  std::string_view data;  ///< its bytes
};

/// Every embedded file (schemas/*.xsd, stylesheets/sitemap.xsl).
std::span<const embedded_file> embedded_files() noexcept;

/// The bytes of the embedded file called `name`; empty when there is none.
std::string_view embedded_file_named(std::string_view name) noexcept;

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_EMBEDDED_FILES_H
