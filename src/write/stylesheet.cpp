#include "sitemill/write/stylesheet.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "detail/embedded_files.h"
#include "detail/text.h"

namespace sitemill {

std::string_view bundled_stylesheet() noexcept {
  return detail::embedded_file_named("sitemap.xsl");
}

std::string bundled_stylesheet_name(std::string_view set_name) {
  const std::string_view xsl = bundled_stylesheet();
  // The same digits as a child's name (set_assembly.cpp).
  return std::string(set_name) + "-" +
         detail::to_hex(XXH3_64bits(xsl.data(), xsl.size()), 12) + ".xsl";
}

}  // namespace sitemill
