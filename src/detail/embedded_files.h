// Files compiled into the library (the official schemas), so validation
// needs neither the file system nor the network.
#ifndef SITEMILL_DETAIL_EMBEDDED_FILES_H
#define SITEMILL_DETAIL_EMBEDDED_FILES_H

#include <span>
#include <string_view>

namespace sitemill::detail {

struct embedded_file {
  std::string_view name;  ///< file name in schemas/, e.g. "sitemap.xsd"
  std::string_view data;  ///< its bytes
};

/// Every embedded file (schemas/*.xsd and catalog.xml).
std::span<const embedded_file> embedded_files() noexcept;

/// The bytes of the embedded file called `name`; empty when there is none.
std::string_view embedded_file_named(std::string_view name) noexcept;

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_EMBEDDED_FILES_H
