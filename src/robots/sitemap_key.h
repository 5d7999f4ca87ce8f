// The robots.txt field names that announce a sitemap, shared by the reader
// (robots/robots.cpp) and the editor (robots/robots_edit.cpp) so they never
// disagree about which lines are Sitemap lines.
#ifndef SITEMILL_DETAIL_SITEMAP_KEY_H
#define SITEMILL_DETAIL_SITEMAP_KEY_H

#include <string_view>

#include "detail/text.h"

namespace sitemill::detail {

enum class sitemap_key { other, sitemap, misspelled };

/// "Sitemap" in any case is the field (RFC 9309 2.2.4); "Site-map" and
/// "Sitemaps" are common misspellings crawlers ignore, worth a warning.
constexpr sitemap_key classify_sitemap_key(std::string_view key) noexcept {
  if (iequals(key, "sitemap")) return sitemap_key::sitemap;
  if (iequals(key, "site-map") || iequals(key, "sitemaps"))
    return sitemap_key::misspelled;
  return sitemap_key::other;
}

}  // namespace sitemill::detail

#endif  // SITEMILL_DETAIL_SITEMAP_KEY_H
